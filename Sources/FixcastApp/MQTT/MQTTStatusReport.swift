import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// The `mqtt` part of `fixcast status` (CONTRACT.md: `{"enabled", "connected", "broker", "outbox",
/// "error"}`), read from the store: the outbox depth, and the link as the running `fixcast run`
/// last recorded it (`MQTTLinkRecord`; none when no run is alive, so not connected).
public struct MQTTStatusReport: Sendable, Hashable {
    public var enabled: Bool
    public var broker: String
    public var connected = false
    public var outbox: Int?
    public var dropped = 0
    public var error: String?

    public init(settings: Settings.MQTT) {
        enabled = settings.enabled
        broker = MQTTEndpoint(settings: settings).display
    }

    public mutating func read(from store: any OutboxStore & StateStore) async {
        outbox = try? await store.outboxDepth()
        dropped = (try? await store.outboxDropped()) ?? 0
        if let record = await MQTTLinkRecord.read(from: store) {
            connected = record.connected
            error = record.error
        }
    }

    public var json: JSONValue {
        .object([
            ("enabled", .bool(enabled)),
            ("connected", .bool(connected)),
            ("broker", .string(broker)),
            ("outbox", .number(outbox)),
            ("error", .string(error)),
        ])
    }

    /// The human line: `mqtt      127.0.0.1:1883: connected, 0 readings waiting`.
    public var line: String {
        guard enabled else { return "mqtt      off (mqtt.enabled = false)" }
        var text = "mqtt      \(broker): \(connected ? "connected" : "not connected")"
        text += ", \(CountedNoun.phrase(outbox ?? 0, "reading")) waiting"
        if dropped > 0 { text += ", \(dropped) dropped (outbox full)" }
        if let error { text += "; \(error)" }
        return text
    }
}
