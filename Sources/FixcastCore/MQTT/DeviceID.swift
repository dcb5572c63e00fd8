/// The name one fixcast goes by on a broker (`mqtt.device_id`): the middle of every topic and of
/// every reading's `id`, so it must be a single topic level that no wildcard or slash can split.
public enum DeviceID {
    /// Longer ids only make topics longer; 64 is ample for a host name or a fleet number.
    public static let maxLength = 64

    /// Why `id` is not acceptable as `mqtt.device_id` ("must …"); nil when it is (empty = host name).
    public static func problem(_ id: String) -> String? {
        if id.isEmpty { return nil }
        guard id.count <= maxLength, id.allSatisfy(isAllowed) else {
            return "must be 1 to \(maxLength) characters from a-z, 0-9, _ and -"
        }
        return nil
    }

    /// The host name, lower case, reduced to [a-z0-9_-] (other characters become `-`, runs of them
    /// one `-`); "fixcast" when nothing is left.
    public static func fromHostName(_ hostName: String) -> String {
        var out = ""
        // The first label only: "pi-van.local" is "pi-van".
        for ch in hostName.lowercased().prefix(while: { $0 != "." }) {
            if isAllowed(ch) {
                out.append(ch)
            } else if out.last != "-" {
                out.append("-")
            }
        }
        while out.hasPrefix("-") { out.removeFirst() }
        while out.hasSuffix("-") { out.removeLast() }
        let trimmed = String(out.prefix(maxLength))
        return trimmed.isEmpty ? "fixcast" : trimmed
    }

    /// The configured id, else the one made from the host name.
    public static func resolve(configured: String, hostName: String?) -> String {
        configured.isEmpty ? fromHostName(hostName ?? "") : configured
    }

    /// A reading's `id` (CONTRACT.md): the device and the store's row.
    public static func readingID(device: String, row: Int64) -> String { "\(device):\(row)" }

    static func isAllowed(_ ch: Character) -> Bool {
        guard let a = ch.asciiValue else { return false }
        return (a >= 0x61 && a <= 0x7A) || (a >= 0x30 && a <= 0x39) || a == 0x5F || a == 0x2D
    }
}
