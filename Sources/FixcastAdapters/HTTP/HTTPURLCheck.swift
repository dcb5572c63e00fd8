internal import CCurl
import FixcastCore

/// Decides whether a URL may be fetched at all, before any byte is sent (CONTRACT.md): `https://`
/// anywhere, plain `http://` only to a loopback host (tests and local mirrors), nothing else.
///
/// Parsing uses libcurl's own URL parser, so the host judged here is the host the transfer will reach.
enum HTTPURLCheck {
    struct Checked {
        var scheme: String
        var host: String
        /// The URL's port, or the scheme's default (80, 443) when it names none.
        var port: Int
        /// `host[:port]` for messages ("127.0.0.1:8080 refused the connection").
        var authority: String

        /// Whether `other` is the same origin (scheme, host and port): the only place a redirect may lead.
        func isSameOrigin(as other: Checked) -> Bool {
            scheme == other.scheme && host == other.host && port == other.port
        }
    }

    static func check(_ url: String) throws(HTTPError) -> Checked {
        var schemePointer: UnsafeMutablePointer<CChar>?
        var hostPointer: UnsafeMutablePointer<CChar>?
        var port = 0
        let rc = ccurl_url_origin(url, &schemePointer, &hostPointer, &port)
        defer {
            ccurl_free(schemePointer)
            ccurl_free(hostPointer)
        }
        guard rc == 0, let schemePointer, let hostPointer else { throw .invalidURL(url) }
        let scheme = String(cString: schemePointer).lowercased()
        let host = String(cString: hostPointer).lowercased()
        let checked = Checked(scheme: scheme, host: host, port: port, authority: authority(of: url) ?? host)
        switch scheme {
        case "https": return checked
        case "http":
            guard isLoopback(host: host) else { throw .insecureURL(url) }
            return checked
        default: throw .invalidURL(url)
        }
    }

    /// 127.0.0.0/8, `localhost` and `[::1]` (libcurl keeps an IPv6 literal's brackets).
    static func isLoopback(host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "[::1]" || h == "::1" { return true }
        let octets = h.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { part in
            guard let v = Int(part), part.count <= 3 else { return false }
            return (0...255).contains(v)
        }
    }

    /// The `host[:port]` part of a URL, without user info.
    static func authority(of url: String) -> String? {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let rest: Substring = parts[1]
        let end: Substring.Index = rest.firstIndex(where: { c in c == "/" || c == "?" || c == "#" }) ?? rest.endIndex
        var authority: Substring = rest[..<end]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return authority.isEmpty ? nil : String(authority)
    }
}
