import FixcastAdapters
import FixcastApp
import FixcastCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test-only `HTTPFetching` over URLSession, for talking to the loopback fixture server until the
/// libcurl client is merged (then the tests switch to it). Refuses anything but 127.0.0.1.
struct URLSessionFetcher: HTTPFetching {
    var userAgent = "fixcast-tests (https://example.invalid/fixcast)"
    var timeout: TimeInterval = 10

    func get(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        guard let url = URL(string: request.url), let host = url.host else { throw HTTPError.invalidURL(request.url) }
        guard host == "127.0.0.1" else { throw HTTPError.insecureURL(request.url) }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let result: Result<(Data, HTTPURLResponse), HTTPError> = await withCheckedContinuation { continuation in
            let task = URLSession.shared.dataTask(with: urlRequest) { data, response, error in
                if let error = error as? URLError {
                    switch error.code {
                    case .cannotConnectToHost: continuation.resume(returning: .failure(.connectionRefused(host: host)))
                    case .timedOut:
                        continuation.resume(returning: .failure(.timedOut(host: host, seconds: Int(timeout))))
                    default: continuation.resume(returning: .failure(.transport(detail: error.localizedDescription)))
                    }
                } else if let error {
                    continuation.resume(returning: .failure(.transport(detail: "\(error)")))
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: .success((data ?? Data(), http)))
                } else {
                    continuation.resume(returning: .failure(.transport(detail: "no HTTP response")))
                }
            }
            task.resume()
        }
        let (data, http) = try result.get()
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(
            status: http.statusCode, headers: headers, body: [UInt8](data),
            effectiveURL: http.url?.absoluteString ?? request.url)
    }
}
