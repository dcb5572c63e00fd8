internal import CCurl
import FixcastCore
import Synchronization

/// Set when the Swift task waiting for a transfer is cancelled; the transfer's progress callback reads it.
final class TransferCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
    func cancel() { flag.store(true, ordering: .relaxed) }
}

/// The HTTP client: one GET per call over libcurl, each on a thread of its own so that the
/// blocking `curl_easy_perform` never stalls Swift's cooperative pool (the NIOThreadPool idea).
///
/// Limits and why (issue 3): 5 s to connect and 15 s in all so that a dead network answers within one
/// screen refresh; bodies capped at 2 MiB (a forecast is ~20 KiB, so anything bigger is a wrong URL or
/// an attack, refused in the write callback instead of growing memory); at most 3 redirects, each to
/// the same scheme, host and port only (`RedirectRule`); TLS always verified; gzip accepted;
/// `http://` only to loopback hosts.
public struct CurlHTTPClient: HTTPFetching {
    public struct Limits: Sendable, Hashable {
        public var connectTimeoutS: Double
        public var totalTimeoutS: Double
        public var maxBodyBytes: Int
        public var maxRedirects: Int

        public init(
            connectTimeoutS: Double = 5, totalTimeoutS: Double = 15, maxBodyBytes: Int = 2 * 1024 * 1024,
            maxRedirects: Int = 3
        ) {
            self.connectTimeoutS = connectTimeoutS
            self.totalTimeoutS = totalTimeoutS
            self.maxBodyBytes = maxBodyBytes
            self.maxRedirects = maxRedirects
        }
    }

    public let limits: Limits
    public let userAgent: String

    public init(limits: Limits = Limits(), userAgent: String = FixcastInfo.userAgent) {
        self.limits = limits
        self.userAgent = userAgent
    }

    public func get(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        if let missing = LoadableLibrary.curl.load() { throw .libraryMissing(missing) }
        let checked = try HTTPURLCheck.check(request.url)
        let limits = self.limits
        let userAgent = self.userAgent
        let cancellation = TransferCancellation()
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Each transfer blocks in curl_easy_perform on a thread of its own, never on a task's
                // thread, so two requests (OpenWeatherMap's current + forecast) do not queue behind
                // each other. Not a concurrent DispatchQueue: its workers start libdispatch's
                // once-a-second pool monitor (see `ThreadExecutor.tasks`). Requests are rare (a
                // reading every 5 km or 30 min), so a thread each costs nothing that matters.
                let transfer: @Sendable () -> Void = {
                    continuation.resume(
                        returning: CurlRedirects.perform(
                            request, checked: checked, limits: limits, userAgent: userAgent, cancellation: cancellation)
                    )
                }
                // Without a thread the transfer is not run here: it would block this task's thread
                // (and every task queued behind it) for up to the whole timeout.
                if !DedicatedThread.start(name: "fixcast-http", transfer) {
                    continuation.resume(returning: .failure(.transport(detail: "no thread could be started for it")))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}

extension LoadableLibrary {
    /// libcurl, opened at the first request.
    static var curl: LoadableLibrary {
        LoadableLibrary(
            soname: ccurl_library_soname(), load: ccurl_library_load, error: ccurl_library_error,
            probe: ccurl_library_probe)
    }
}
