import FixcastCore
import FoundationEssentials
import Testing

/// What `mqtt test` puts back on the availability topic after its `online`.
@Suite struct AvailabilityRestoreTests {
    @Test func nothingKeptIsClearedAgain() {
        let r = AvailabilityRestore(found: .nothing)
        #expect(r.payload == "")
        #expect(r.clause.contains("cleared it again"))
    }

    @Test func aStoppedRunsOfflineIsPutBack() {
        let r = AvailabilityRestore(found: .payload(Array("offline".utf8)))
        #expect(r.payload == "offline")
        #expect(r.clause == ", then put back \"offline\" as it was")
    }

    @Test func aRunningRunsOnlineIsLeft() {
        let r = AvailabilityRestore(found: .payload(Array("online".utf8)))
        #expect(r.payload == nil)
        #expect(r.clause.contains("a running fixcast"))
    }

    @Test func whatCannotBeReadOrIsNotTextIsNotTouched() {
        #expect(AvailabilityRestore(found: .unreadable).payload == nil)
        #expect(AvailabilityRestore(found: .unreadable).clause.contains("could not be read"))
        let binary = AvailabilityRestore(found: .payload([0xff, 0xfe, 0x00]))
        #expect(binary.payload == nil)
        #expect(binary.clause.contains("not text"))
        // Another program's text is put back as it was, and shown without its control characters.
        let other = AvailabilityRestore(found: .payload(Array("away\u{1b}[2J".utf8)))
        #expect(other.payload == "away\u{1b}[2J")
        #expect(!other.clause.contains("\u{1b}"))
    }

    /// Nothing seen is "nothing kept" only when the test's own `online` came back (it can read the
    /// topic); a retained message that came late is what was kept.
    @Test func whatWasKeptFromAllTheTestSaw() {
        let offline = Array("offline".utf8)
        #expect(AvailabilityRestore.found(before: .nothing, keptLate: nil, echoed: true) == .nothing)
        #expect(AvailabilityRestore.found(before: .nothing, keptLate: nil, echoed: false) == .unreadable)
        #expect(AvailabilityRestore.found(before: .nothing, keptLate: offline, echoed: false) == .payload(offline))
        #expect(AvailabilityRestore.found(before: .payload(offline), keptLate: nil, echoed: false) == .payload(offline))
        #expect(AvailabilityRestore.found(before: .unreadable, keptLate: offline, echoed: true) == .unreadable)
        #expect(AvailabilityRestore(found: .unreadable).payload == nil, "online stays")
    }
}
