/// The topics one device publishes to (CONTRACT.md "MQTT"): everything under
/// `<topic_prefix>/<device_id>/`, and Home Assistant's discovery configs under
/// `<discovery_prefix>/<component>/<device_id>/<object>/config`. One place, so no topic is spelt twice.
public struct MQTTTopics: Sendable, Hashable {
    public let prefix: String
    public let device: String
    /// Empty: no discovery.
    public let discoveryPrefix: String

    public init(prefix: String, device: String, discoveryPrefix: String) {
        self.prefix = prefix
        self.device = device
        self.discoveryPrefix = discoveryPrefix
    }

    public var base: String { "\(prefix)/\(device)" }
    /// Each reading, QoS 1, not retained.
    public var reading: String { "\(base)/reading" }
    /// The latest reading, retained.
    public var state: String { "\(base)/state" }
    /// `online` / `offline`, retained; `offline` is also the last will.
    public var availability: String { "\(base)/availability" }
    /// OwnTracks `_type: location`, retained.
    public var owntracks: String { "\(base)/owntracks" }

    public func discoveryConfig(component: String, object: String) -> String {
        "\(discoveryPrefix)/\(component)/\(device)/\(object)/config"
    }

    public static let online = "online"
    public static let offline = "offline"

    /// Why `prefix` cannot start a topic ("must …"); nil when it can. Wildcards (`+`, `#`) are
    /// forbidden in topic names a client publishes to, and a leading or trailing `/` or an empty
    /// level would make a topic no subscriber expects.
    public static func prefixProblem(_ prefix: String) -> String? {
        let levels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard prefix.count <= 200,
            !prefix.contains(where: { $0 == "+" || $0 == "#" || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }),
            levels.allSatisfy({ !$0.isEmpty })
        else {
            return "must be topic levels separated by / (no +, #, control characters, empty level, or leading or trailing /), not \"\(prefix)\""
        }
        return nil
    }
}
