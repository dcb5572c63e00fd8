import FixcastText
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
    /// One message when an alert first applies and one with `"ended": true` when it ends; QoS 1, not retained.
    public var alert: String { "\(base)/alert" }
    /// The ahead sensors' values (`AheadSensors`), retained; only with ahead on.
    public var ahead: String { "\(base)/ahead" }

    public func discoveryConfig(component: String, object: String) -> String {
        "\(discoveryPrefix)/\(component)/\(device)/\(object)/config"
    }

    public static let online = "online"
    public static let offline = "offline"

    /// The longest prefix, in characters and in UTF-8 bytes: a real one is a word or two, and the
    /// cap keeps every full topic (prefix, device id, discovery component and object) far inside
    /// MQTT's 65,535 bytes.
    public static let maxPrefixCharacters = 200
    public static let maxPrefixBytes = 1_000

    /// Why `prefix` cannot start a topic ("must …"); nil when it can. It must be an MQTT string
    /// (`MQTTStringRule`: no control character, C1 included); wildcards (`+`, `#`) are forbidden in
    /// topic names a client publishes to; a topic beginning with `$` belongs to the broker (`$SYS`,
    /// `$share/…`: MQTT 3.1.1 §4.7.2), which drops what a client publishes there, so no subscriber
    /// would ever see a reading; and a leading or trailing `/` or an empty level would make a topic
    /// no subscriber expects.
    public static func prefixProblem(_ prefix: String) -> String? {
        if prefix.count > maxPrefixCharacters || prefix.utf8.count > maxPrefixBytes {
            return
                "must be at most \(maxPrefixCharacters) characters and \(maxPrefixBytes) bytes, not \(prefix.count) characters (\(prefix.utf8.count) bytes)"
        }
        if let reason = MQTTStringRule.problem(prefix) { return reason }
        if prefix.hasPrefix("$") {
            return
                "must not begin with $ (topics such as $SYS and $share belong to the broker, and nothing published there reaches a subscriber), not \"\(TerminalText.echo(prefix))\""
        }
        let levels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard !prefix.contains(where: { $0 == "+" || $0 == "#" }), levels.allSatisfy({ !$0.isEmpty }) else {
            return
                "must be topic levels separated by / (no +, #, control characters, empty level, or leading or trailing /), not \"\(TerminalText.echo(prefix))\""
        }
        return nil
    }
}
