/// Where gpsd listens: `--gpsd HOST[:PORT]` or `gps.host` / `gps.port`.
///
/// Accepts a host name or IPv4 address with an optional port (`127.0.0.1`, `pi.local:2948`), and an
/// IPv6 address in brackets (`[::1]:2947`) or bare without a port (`::1`). The port defaults to
/// gpsd's registered 2947. Anything else is refused here, at the border, so the CLI can exit 2 naming
/// the option instead of failing later with a confusing connection error.
public struct GPSDAddress: Sendable, Hashable, CustomStringConvertible {
    /// gpsd's IANA-registered port.
    public static let defaultPort = 2947
    /// The daemon on this machine, as CONTRACT.md's default.
    public static let local = GPSDAddress(uncheckedHost: "127.0.0.1", port: defaultPort)

    public let host: String
    public let port: Int

    private init(uncheckedHost host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// A checked address from separate values (config `gps.host` and `gps.port`).
    public init(host: String, port: Int, option: String = "gps.host") throws(GPSDAddressError) {
        guard (1...65_535).contains(port) else { throw .badPort(option: option, text: "\(host):\(port)") }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard Self.isHostName(bare) || Self.isIPv6(bare) else { throw .badHost(option: option, text: host) }
        self.init(uncheckedHost: bare, port: port)
    }

    /// Parses `HOST[:PORT]`; `option` is named in the error (`--gpsd`, or the config key).
    public init(parsing text: String, option: String = "--gpsd") throws(GPSDAddressError) {
        let t = text.trimmingASCIISpaces()
        guard !t.isEmpty else { throw .empty(option: option) }
        // A host name is at most 253 characters (DNS); "[v6]:65535" adds a few.
        guard t.utf8.count <= Self.maxHostLength + 8 else { throw .badHost(option: option, text: text) }
        var host: Substring
        var portText: Substring?
        if t.hasPrefix("[") {
            guard let close = t.firstIndex(of: "]") else { throw .badHost(option: option, text: text) }
            host = t[t.index(after: t.startIndex)..<close]
            let rest = t[t.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw .badHost(option: option, text: text) }
                portText = rest.dropFirst()
            }
            guard Self.isIPv6(host) else { throw .badHost(option: option, text: text) }
        } else {
            let colons = t.filter { $0 == ":" }.count
            if colons > 1 {
                // A bare IPv6 address cannot carry a port: the last group would be ambiguous.
                guard Self.isIPv6(t[...]) else { throw .badHost(option: option, text: text) }
                host = t[...]
            } else if let colon = t.firstIndex(of: ":") {
                host = t[..<colon]
                portText = t[t.index(after: colon)...]
            } else {
                host = t[...]
            }
            guard colons > 1 || Self.isHostName(host) else { throw .badHost(option: option, text: text) }
        }
        var port = Self.defaultPort
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                let p = Int(portText), (1...65_535).contains(p)
            else { throw .badPort(option: option, text: text) }
            port = p
        }
        self.init(uncheckedHost: String(host), port: port)
    }

    /// `127.0.0.1:2947`, `[::1]:2947`: what messages and `status --json` show.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// DNS's limit on a full host name, in characters.
    public static let maxHostLength = 253

    /// Whether `text` could be `gps.host`: a host name or IPv4 address of at most 253 characters,
    /// or an IPv6 address (bare or in brackets).
    public static func isValidHost(_ text: String) -> Bool {
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        return isHostName(bare) || isIPv6(bare)
    }

    static func isHostName<S: StringProtocol>(_ s: S) -> Bool {
        guard !s.isEmpty, s.utf8.count <= maxHostLength, s.first != "-", s.first != "." else { return false }
        return s.allSatisfy { c in
            c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-" || c == "_")
        }
    }

    static func isIPv6<S: StringProtocol>(_ s: S) -> Bool {
        // Hex groups and colons, an optional embedded IPv4 tail and an optional %zone.
        let main = s.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        guard let addr = main.first, addr.count >= 2, addr.utf8.count <= 45, addr.contains(":") else { return false }
        if main.count == 2, main[1].isEmpty || main[1].utf8.count > 64 { return false }
        guard addr.allSatisfy({ c in c.isASCII && (c.isHexDigit || c == ":" || c == ".") }) else { return false }
        // RFC 4291 text form: 8 groups of 1–4 hex digits, one "::" standing for one or more zero
        // groups, the last two groups optionally an IPv4 address. ":::" or "1::2::3" is not one.
        let halves = addr.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return false }
        var groups = 0
        for (h, half) in halves.enumerated() where !half.isEmpty {
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (i, part) in parts.enumerated() {
                let isLast = h == halves.count - 1 && i == parts.count - 1
                if isLast, part.contains(".") {
                    let octets = part.split(separator: ".", omittingEmptySubsequences: false)
                    guard octets.count == 4,
                        octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && (Int($0) ?? 256) <= 255 })
                    else { return false }
                    groups += 2
                } else {
                    guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit) else { return false }
                    groups += 1
                }
            }
        }
        return halves.count == 2 ? groups <= 7 : groups == 8
    }
}

/// Why a gpsd address was refused; the CLI turns it into exit 2 (component: config).
public enum GPSDAddressError: UserFacingError, Hashable {
    case empty(option: String)
    case badHost(option: String, text: String)
    case badPort(option: String, text: String)

    public var component: Component { .config }

    public var message: String {
        switch self {
        case .empty(let o):
            return "config: \(o) needs HOST[:PORT], for example 127.0.0.1:2947."
        case .badHost(let o, let t):
            return
                "config: \(o) \"\(TerminalText.echo(t))\" is not a host name (at most 253 characters) or address; use HOST[:PORT], for example 127.0.0.1:2947 or [::1]:2947."
        case .badPort(let o, let t):
            return "config: \(o) \"\(TerminalText.echo(t))\" has no valid port; use a number from 1 to 65535, for example 127.0.0.1:2947."
        }
    }
}

extension String {
    fileprivate func trimmingASCIISpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
