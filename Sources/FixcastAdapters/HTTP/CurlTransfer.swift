internal import CCurl
import FixcastCore

/// Collects one transfer's body and headers on the transfer thread. Touched only by the libcurl
/// callbacks of the single `curl_easy_perform` that owns it, so it needs no lock.
private final class TransferSink {
    let limit: Int
    let cancellation: TransferCancellation
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var overLimit = false

    init(limit: Int, cancellation: TransferCancellation) {
        self.limit = limit
        self.cancellation = cancellation
    }

    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limit else {
            overLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    func headerLine(_ line: String) {
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect or a 100 Continue): only the last one's headers count.
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingSpaces().lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces()
        guard !name.isEmpty else { return }
        headers[name] = String(value)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        // `isWhitespace`, not a comparison with "\r": a CR LF pair is one Character.
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return s
    }
}

/// One blocking libcurl GET (call it off the cooperative pool), one hop: a redirect is not followed
/// here but handed back (`CurlRedirects` decides). Every libcurl result is mapped onto `HTTPError`
/// here, in one place.
enum CurlTransfer {
    /// One hop's answer, and where its redirect would lead (`CURLINFO_REDIRECT_URL`), if it is one.
    struct Hop {
        var response: HTTPResponse
        var redirectURL: String?
    }

    static func perform(
        _ request: HTTPRequest, checked: HTTPURLCheck.Checked, limits: CurlHTTPClient.Limits, userAgent: String,
        cancellation: TransferCancellation = TransferCancellation()
    ) -> Result<Hop, HTTPError> {
        if cancellation.isCancelled { return .failure(.transport(detail: "the request was cancelled")) }
        guard ccurl_global_init_once() == CURLE_OK else {
            return .failure(.transport(detail: "libcurl could not be initialised"))
        }
        guard let handle = ccurl_easy_init() else {
            return .failure(.transport(detail: "libcurl could not create a transfer"))
        }
        let sink = TransferSink(limit: limits.maxBodyBytes, cancellation: cancellation)
        let context = Unmanaged.passRetained(sink)
        let errorBufferSize = Int(CURL_ERROR_SIZE) + 1
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: errorBufferSize)
        var headerList: UnsafeMutablePointer<curl_slist>?
        // The handle first: libcurl may use what it was handed (the error buffer, the header list, the
        // sink) until its cleanup, so those are freed after it, never before.
        defer {
            ccurl_easy_cleanup(handle)
            ccurl_slist_free_all(headerList)
            errorBuffer.deallocate()
            context.release()
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            // A header with a control character is left out: a validator read back from a damaged
            // store ("…\r\nX-Other: …") would otherwise write request lines of its own, and a NUL would
            // cut it short. Without its validator the request is an unconditional GET: more bytes, no harm.
            guard !(name + value).unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F })
            else { continue }
            headerList = ccurl_slist_append(headerList, "\(name): \(value)")
        }

        var setup = CURLE_OK
        func set(_ rc: CURLcode) { if setup == CURLE_OK { setup = rc } }
        set(ccurl_easy_setopt_str(handle, CURLOPT_URL, request.url))
        set(ccurl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1))
        set(ccurl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(
            ccurl_easy_setopt_long(
                handle, CURLOPT_CONNECTTIMEOUT_MS, Int(clamping: limits.connectTimeoutS * 1000, to: 1...Int(Int32.max)))
        )
        set(
            ccurl_easy_setopt_long(
                handle, CURLOPT_TIMEOUT_MS, Int(clamping: limits.totalTimeoutS * 1000, to: 1...Int(Int32.max))))
        // Redirects are followed by CurlRedirects, one hop at a time, after RedirectRule allows them.
        set(ccurl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        set(ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        // "" = every encoding this libcurl can decode (gzip, deflate …); the write callback sees decoded bytes,
        // so the cap applies to what would be held in memory.
        set(ccurl_easy_setopt_str(handle, CURLOPT_ACCEPT_ENCODING, ""))
        set(ccurl_easy_setopt_str(handle, CURLOPT_USERAGENT, userAgent))
        // A Content-Length above the cap is refused before the body is read.
        set(ccurl_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, Int64(limits.maxBodyBytes)))
        set(ccurl_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        // Only the URL's own scheme (redirects are judged by RedirectRule; libcurl follows none).
        let protocols = checked.scheme == "https" ? "https" : "http"
        set(ccurl_easy_set_protocols(handle, protocols, protocols))
        // Plain http:// goes to a loopback host only (HTTPURLCheck), and never through a proxy: libcurl
        // would take one from http_proxy or ALL_PROXY even for 127.0.0.1, and so send the position and
        // an OpenWeatherMap key in clear to another machine. "*" matches every host (CURLOPT_NOPROXY).
        if checked.scheme == "http" { set(ccurl_easy_setopt_str(handle, CURLOPT_NOPROXY, "*")) }
        if let headerList { set(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)) }
        set(
            ccurl_easy_set_write_callback(
                handle,
                { data, size, count, context in
                    guard let context else { return 0 }
                    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
                    let n = size * count
                    guard n > 0, let data else { return n }
                    return sink.appendBody(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
                }, context.toOpaque()))
        set(
            ccurl_easy_set_header_callback(
                handle,
                { data, size, count, context in
                    let n = size * count
                    guard let context, let data, n > 0 else { return n }
                    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
                    let bytes = UnsafeRawBufferPointer(start: data, count: n)
                    sink.headerLine(String(decoding: bytes, as: UTF8.self))
                    return n
                }, context.toOpaque()))
        // Polled by libcurl about once a second and on every chunk: a cancelled Swift task ends the transfer.
        set(
            ccurl_easy_set_progress_callback(
                handle,
                { context, _, _, _, _ in
                    guard let context else { return 0 }
                    return Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue().cancellation.isCancelled
                        ? 1 : 0
                }, context.toOpaque()))
        guard setup == CURLE_OK else {
            return .failure(
                .transport(detail: "libcurl refused an option (\(String(cString: ccurl_easy_strerror(setup))))"))
        }

        let rc = ccurl_easy_perform(handle)
        if rc != CURLE_OK {
            let detail = String(cString: errorBuffer)
            return .failure(map(rc, detail: detail, sink: sink, checked: checked, limits: limits))
        }

        var status = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafePointer<CChar>?
        _ = ccurl_easy_getinfo_str(handle, CURLINFO_EFFECTIVE_URL, &effective)
        let effectiveURL = effective.map { String(cString: $0) } ?? request.url
        var redirect: UnsafePointer<CChar>?
        _ = ccurl_easy_getinfo_str(handle, CURLINFO_REDIRECT_URL, &redirect)
        let response = HTTPResponse(status: status, headers: sink.headers, body: sink.body, effectiveURL: effectiveURL)
        return .success(Hop(response: response, redirectURL: redirect.map { String(cString: $0) }))
    }

    /// libcurl's result → the one error the user will read.
    /// - SeeAlso: https://curl.se/libcurl/c/libcurl-errors.html
    static func map(
        _ rc: CURLcode, detail: String, sink: AnyObject?, checked: HTTPURLCheck.Checked, limits: CurlHTTPClient.Limits
    ) -> HTTPError {
        let overLimit = (sink as? TransferSink)?.overLimit ?? false
        let why = detail.isEmpty ? String(cString: ccurl_easy_strerror(rc)) : detail
        switch rc {
        case CURLE_WRITE_ERROR where overLimit, CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(limitBytes: limits.maxBodyBytes)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dnsFailure(host: checked.host)
        case CURLE_COULDNT_CONNECT:
            return .connectionRefused(host: checked.authority)
        case CURLE_OPERATION_TIMEDOUT:
            let seconds = why.lowercased().contains("connect") ? limits.connectTimeoutS : limits.totalTimeoutS
            return .timedOut(host: checked.authority, seconds: Int(clamping: seconds, to: 1...Int.max, rounding: .up))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_USE_SSL_FAILED:
            return .tls(host: checked.host, detail: why)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(limit: limits.maxRedirects)
        case CURLE_URL_MALFORMAT:
            return .invalidURL(checked.authority)
        case CURLE_UNSUPPORTED_PROTOCOL:
            // A redirect to a scheme we do not allow (https → http, or something else entirely).
            return .transport(detail: "a redirect led to a protocol fixcast does not allow (\(why))")
        case CURLE_PARTIAL_FILE:
            return .transport(detail: "the response from \(checked.authority) was cut short")
        case CURLE_GOT_NOTHING:
            return .transport(detail: "\(checked.authority) closed the connection without answering")
        // libcurl 7.88 (Debian 12) ends a response header line over CURL_MAX_HTTP_HEADER (100 KB)
        // with CURLE_OUT_OF_MEMORY, and headers over 300 KB in all with CURLE_RECV_ERROR "Too large
        // response headers"; newer libcurl says CURLE_TOO_LARGE (100). Before any body arrived, an
        // "out of memory" of a transfer this small is the header, not this machine.
        case CURLE_OUT_OF_MEMORY where ((sink as? TransferSink)?.body.isEmpty ?? true),
            CURLcode(rawValue: 100):
            return .headerTooLarge(host: checked.authority)
        case CURLE_RECV_ERROR where why.contains("Too large response header"):
            return .headerTooLarge(host: checked.authority)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return .transport(detail: "the connection to \(checked.authority) broke (\(why))")
        case CURLE_ABORTED_BY_CALLBACK:
            return .transport(detail: "the request was cancelled")
        case CURLE_BAD_CONTENT_ENCODING:
            return .transport(detail: "the response from \(checked.authority) could not be decompressed")
        default:
            return .transport(detail: why)
        }
    }
}
