import FixcastText
import FoundationEssentials

/// Decides what `mqtt test` puts back on the availability topic after its `online`: what a stopped
/// `run` left (`offline`, or whatever was kept), nothing at all where nothing was kept (an empty
/// retained message clears the topic), and nothing over a running `run`'s `online`.
public struct AvailabilityRestore: Sendable, Hashable {
    /// What the topic held before the test.
    public enum Found: Sendable, Hashable {
        /// Nothing was kept.
        case nothing
        /// This payload was kept.
        case payload([UInt8])
        /// It could not be read (not granted, or larger than `MQTTLink.keptPayloadBytes`).
        case unreadable
    }

    public var found: Found

    public init(found: Found) {
        self.found = found
    }

    /// What the topic held, from all the test saw: `before` (what came within the short wait after
    /// SUBACK), a retained message that came later (`keptLate`: a slow broker), and whether the test's
    /// own `online` came back to it (`echoed`). Nothing seen is "nothing kept" only when the test can
    /// read the topic: a broker that grants the subscription but withholds the messages (mosquitto with
    /// a write-only ACL does) sends neither, and clearing the topic then would erase a running `run`'s
    /// `online`.
    public static func found(before: Found, keptLate: [UInt8]?, echoed: Bool) -> Found {
        if let keptLate, before == .nothing { return .payload(keptLate) }
        if before == .nothing, !echoed { return .unreadable }
        return before
    }

    /// The payload to publish, retained, after the test's `online`; nil: leave `online`.
    public var payload: String? {
        switch found {
        case .nothing: return ""
        case .payload(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            return text == MQTTTopics.online || Array(text.utf8) != bytes ? nil : text
        case .unreadable: return nil
        }
    }

    /// The end of the success sentence: what became of the topic.
    public var clause: String {
        switch found {
        case .nothing: return ", then cleared it again (nothing was kept there before)"
        case .payload(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            if text == MQTTTopics.online { return " (a running fixcast had it \"online\" already)" }
            guard payload != nil else { return "; what was kept there before is not text, so \"online\" stays" }
            return ", then put back \"\(TerminalText.echo(text))\" as it was"
        case .unreadable:
            return "; what was kept there before could not be read, so \"online\" stays there"
        }
    }
}
