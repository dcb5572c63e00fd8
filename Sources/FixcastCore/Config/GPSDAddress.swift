import FixcastText
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
        guard let bare = HostAddress.bare(host) else { throw .badHost(option: option, text: host) }
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
            guard HostAddress.isIPv6(host) else { throw .badHost(option: option, text: text) }
        } else {
            let colons = t.filter { $0 == ":" }.count
            if colons > 1 {
                // A bare IPv6 address cannot carry a port: the last group would be ambiguous.
                guard HostAddress.isIPv6(t[...]) else { throw .badHost(option: option, text: text) }
                host = t[...]
            } else if let colon = t.firstIndex(of: ":") {
                host = t[..<colon]
                portText = t[t.index(after: colon)...]
            } else {
                host = t[...]
            }
            guard colons > 1 || HostAddress.isHostName(host) else { throw .badHost(option: option, text: text) }
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
    public var description: String { HostAddress.display(host: host, port: port) }

    /// DNS's limit on a full host name, in characters.
    public static let maxHostLength = HostAddress.maxLength
}

/// Why a gpsd address was refused; the CLI turns it into exit 2 (component: config).
public enum GPSDAddressError: UserFacingError, Hashable {
    case empty(option: String)
    case badHost(option: String, text: String)
    case badPort(option: String, text: String)

    public var component: Component { .config }

    public var message: String { "config: \(option) \(reason)" }

    /// The option or config key whose value was refused.
    public var option: String {
        switch self {
        case .empty(let o), .badHost(let o, _), .badPort(let o, _): return o
        }
    }

    /// What is wrong and what to write instead, after the option's name; the command line puts it
    /// after "fixcast: --gpsd:" as it does for every bad option.
    public var reason: String {
        switch self {
        case .empty:
            return "needs HOST[:PORT], for example 127.0.0.1:2947."
        case .badHost(_, let t):
            return
                "\"\(TerminalText.echo(t))\" is not a host name (at most 253 characters) or address; use HOST[:PORT], for example 127.0.0.1:2947 or [::1]:2947."
        case .badPort(_, let t):
            return
                "\"\(TerminalText.echo(t))\" has no valid port; use a number from 1 to 65535, for example 127.0.0.1:2947."
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
