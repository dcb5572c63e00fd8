/// The one rule for a host a setting names (`gps.host`, `--gpsd`, `mqtt.host`) and the one way a
/// message writes `host:port`.
///
/// A host is a DNS name or IPv4 address of at most 253 characters (DNS's limit) made of letters,
/// digits, `.`, `-` and `_`, not starting with `-` (it would read as an option to a tool that is
/// handed it) or `.`; or an IPv6 address, bare or in brackets. Anything else is refused where the
/// setting is read, so it fails with exit 2 naming the key, not later as a confusing connection error.
/// An IPv6 zone (`fe80::1%eth0`) is an interface name: letters, digits, `_`, `.` and `-` only.
public enum HostAddress {
    /// DNS's limit on a full host name, in characters.
    public static let maxLength = 253

    /// `host` without IPv6 brackets when it is acceptable (`[::1]` → `::1`), else nil.
    public static func bare(_ host: String) -> String? {
        let inside = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return isHostName(inside) || isIPv6(inside) ? inside : nil
    }

    /// Whether `host` is acceptable (see the type's rule).
    public static func isValid(_ host: String) -> Bool { bare(host) != nil }

    /// `127.0.0.1:2947`, `[::1]:1883`: an IPv6 address in brackets, so the port cannot be taken
    /// for its last group (RFC 3986's authority form). A host already in brackets is kept as it is.
    public static func display(host: String, port: Int) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    static func isHostName<S: StringProtocol>(_ s: S) -> Bool {
        guard !s.isEmpty, s.utf8.count <= maxLength, s.first != "-", s.first != "." else { return false }
        return s.allSatisfy { c in
            c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-" || c == "_")
        }
    }

    static func isIPv6<S: StringProtocol>(_ s: S) -> Bool {
        // Hex groups and colons, an optional embedded IPv4 tail and an optional %zone.
        let main = s.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
        guard let addr = main.first, addr.count >= 2, addr.utf8.count <= 45, addr.contains(":") else { return false }
        if main.count == 2 {
            let zone = main[1]
            guard !zone.isEmpty, zone.utf8.count <= 64,
                zone.allSatisfy({ c in c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "." || c == "-") })
            else { return false }
        }
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
                        octets.allSatisfy({
                            !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && (Int($0) ?? 256) <= 255
                        })
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
