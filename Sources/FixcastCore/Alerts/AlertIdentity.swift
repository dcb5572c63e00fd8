import FoundationEssentials

/// Decides which of an answer's messages with one `id` is the alert (CONTRACT.md's identity rule,
/// issue 24): one id is one alert. The most recently `sent` wins (it is the update); when the times
/// do not tell (missing or equal), the most severe wins, so that a feed listing an id twice can never
/// make `alerts.command` run for the milder copy; when those tie too, the first listed stays.
public enum AlertIdentity {
    /// One decoded message: the alert and its CAP `sent` time (nil when the feed gives none).
    public struct Message: Sendable, Hashable {
        public var alert: Alert
        public var sent: Date?

        public init(alert: Alert, sent: Date?) {
            self.alert = alert
            self.sent = sent
        }
    }

    /// One alert per id, in the order each id was first listed.
    public static func onePerID(_ messages: [Message]) -> [Alert] {
        var order: [String] = []
        var winners: [String: Message] = [:]
        for message in messages {
            let id = message.alert.id
            guard let held = winners[id] else {
                order.append(id)
                winners[id] = message
                continue
            }
            if replaces(held, with: message) { winners[id] = message }
        }
        return order.compactMap { winners[$0]?.alert }
    }

    static func replaces(_ held: Message, with candidate: Message) -> Bool {
        if let a = held.sent, let b = candidate.sent, a != b { return b > a }
        return candidate.alert.severity > held.alert.severity
    }
}
