import FixcastText

/// One GET request. Headers are sent as given; the client adds User-Agent and Accept-Encoding.
public struct HTTPRequest: Sendable, Hashable {
    public var url: String
    public var headers: [String: String]

    public init(url: String, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }
}

/// A complete response (bodies are capped, so holding them whole is safe).
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header names in lower case; a repeated header keeps its last value.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var effectiveURL: String

    public init(status: Int, headers: [String: String], body: [UInt8], effectiveURL: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Retry-After` as the back-off should read it: an HTTP-date is turned into the seconds it is after
    /// the answer's own `Date` (the wait the server meant, on its clock, as `Expires` is read:
    /// `ServerExpiry`), so a local clock minutes off neither stretches the wait nor cuts it short;
    /// seconds, or a date without a usable `Date`, verbatim (`RetryBackoff.retryAfterSeconds`).
    public var retryAfter: String? {
        guard let value = header("retry-after") else { return nil }
        guard let until = HTTPDate.parse(value), let sent = header("date").flatMap(HTTPDate.parse) else { return value }
        return String(Int(clamping: max(0, until.timeIntervalSince(sent)), to: 0...Int.max, rounding: .up))
    }
}

/// Why a transfer failed before any HTTP status could be judged. Providers wrap these into their own
/// layer's error; each case's text is the tail of a sentence ("… <host> could not be resolved").
public enum HTTPError: Error, Sendable, Hashable {
    case invalidURL(String)
    /// `http://` to a host that is not loopback (CONTRACT.md: plain HTTP for loopback only).
    case insecureURL(String)
    case dnsFailure(host: String)
    case connectionRefused(host: String)
    case timedOut(host: String, seconds: Int)
    case tls(host: String, detail: String)
    case bodyTooLarge(limitBytes: Int)
    case tooManyRedirects(limit: Int)
    /// A redirect to another origin (scheme, host or port), not followed (`RedirectRule`). Both URLs
    /// as `RedirectRule.shown` writes them: no query (it can hold a key or the position), no user info.
    case redirectRefused(from: String, to: String)
    case transport(detail: String)
    /// The server's response header was more than libcurl takes (one line over 100 KB, or all of
    /// them over 300 KB): a broken or hostile server, not a memory shortage here.
    case headerTooLarge(host: String)
    /// libcurl could not be loaded (it is opened at the first request, not linked).
    case libraryMissing(MissingLibrary)

    /// What went wrong, for the middle of a sentence.
    public var reason: String {
        switch self {
        case .invalidURL(let u): return "the URL \(u) is not valid"
        case .insecureURL(let u): return "the URL \(u) is plain http:// to a host that is not loopback (use https://)"
        case .dnsFailure(let h): return "the host \(h) could not be resolved"
        case .connectionRefused(let h): return "\(h) refused the connection"
        case .timedOut(let h, let s): return "\(h) did not answer within \(s) s"
        case .tls(let h, let d): return "the TLS connection to \(h) failed (\(d))"
        case .bodyTooLarge(let l): return "the response was larger than \(ByteSize.phrase(l))"
        case .tooManyRedirects(let l): return "the server redirected more than \(l) times"
        case .redirectRefused(let from, let to):
            return "\(from) redirected to \(to), another scheme, host or port, which fixcast does not follow"
        case .transport(let d): return "the transfer failed (\(d))"
        case .headerTooLarge(let h):
            return "the response header from \(h) is too large (over libcurl's limit of 100 KB a line, 300 KB in all)"
        case .libraryMissing(let library): return library.clause
        }
    }

    /// What a person can do about it, for the end of the sentence; `setting` is the config key of the
    /// service's URL (`weather.base_url`). Nothing here promises a retry: `run` asks again by itself,
    /// the one-shot commands do not.
    /// nil where `reason` says what to do already (a missing library: "install it with …").
    public func advice(setting: String) -> String? {
        switch self {
        case .invalidURL, .insecureURL, .tooManyRedirects, .redirectRefused, .headerTooLarge, .bodyTooLarge:
            return "check \(setting)"
        case .dnsFailure:
            return "check the network and its DNS, and \(setting) if set"
        case .connectionRefused, .timedOut, .transport:
            return "check the network, and \(setting) if set, then try again"
        case .tls:
            return "check the system clock and the CA certificates (ca-certificates), or \(setting)"
        case .libraryMissing:
            return nil
        }
    }

    /// `reason` (through `clause`, which tidies outside text) and, after "; ", the advice.
    public func explained(setting: String, clause: (String) -> String = { $0 }) -> String {
        let why = clause(reason)
        return advice(setting: setting).map { "\(why); \($0)" } ?? why
    }
}

/// Something that can make a GET; the libcurl client in production, the same client against a
/// loopback fixture server in tests.
public protocol HTTPFetching: Sendable {
    func get(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}
