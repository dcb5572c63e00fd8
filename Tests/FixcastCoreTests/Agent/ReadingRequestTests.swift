import FixcastCore
import FoundationEssentials
import Testing

/// The one last-known note (issue 19.7): `now`, `run`, `forecast`, `alerts` and `ahead` all say it
/// through `ReadingRequest.lastKnownNote`; only the reason differs.
@Suite struct ReadingRequestTests {
    typealias F = PolicyFixture

    @Test func aLiveOrFixedPositionNeedsNoNote() {
        #expect(ReadingRequest.lastKnownNote(for: F.fix(F.berlin, at: F.t0), because: .noFixYet, at: F.at(5)) == nil)
        #expect(
            ReadingRequest.lastKnownNote(for: .manual(F.berlin, at: F.t0), because: .fixLostSince(F.t0), at: F.at(5))
                == nil)
    }

    /// Stored while the clock read 3 h ahead: "0 s old" would be a lie; the note says so instead.
    @Test func aLastKnownPositionStampedAheadOfTheClockSaysSo() {
        let p = Position(coordinate: F.berlin, obtainedAt: F.at(3 * 3600), source: .lastKnown)
        #expect(
            ReadingRequest.lastKnownNote(for: p, because: .noFixYet, at: F.at(0))?.message
                == "gps: no fix yet; using the last known position from 2027-01-15T11:00:00Z, a time ahead of the system clock."
        )
    }

    @Test(arguments: [
        (
            ReadingRequest.LastKnownReason.fixWait(.noFix(attempts: 3, timeoutS: 8), address: "h:1"),
            "gps: no fix after 3 tries of 8 s; using the last known position from 2027-01-15T05:00:00Z, 3 h old."
        ),
        (
            .fixWait(.unreachable, address: "h:1"),
            "gps: gpsd at h:1 is not answering; using the last known position from 2027-01-15T05:00:00Z, 3 h old."
        ),
        (
            .fixWait(.connectionLost(attempts: 1, timeoutS: 1.5), address: "h:1"),
            "gps: gpsd at h:1 went away and no fix came within 1 try of 1.5 s; using the last known position from 2027-01-15T05:00:00Z, 3 h old."
        ),
        (
            .fixLostSince(PolicyFixture.at(-30)),
            "gps: no fix since 2027-01-15T07:59:30Z; using the last known position from 2027-01-15T05:00:00Z, 3 h old."
        ),
        (.noFixYet, "gps: no fix yet; using the last known position from 2027-01-15T05:00:00Z, 3 h old."),
    ])
    func aLastKnownPositionSaysWhyWhenAndHowOld(reason: ReadingRequest.LastKnownReason, message: String) {
        let p = Position(coordinate: F.berlin, obtainedAt: F.at(-3 * 3600), source: .lastKnown)
        #expect(
            ReadingRequest.lastKnownNote(for: p, because: reason, at: F.at(0))
                == ReadingIssue(component: .gps, message: message))
    }

    @Test func theAgeIsGPSErrorsAgeRule() {
        let p = Position(coordinate: F.berlin, obtainedAt: F.at(-90), source: .lastKnown)
        #expect(
            ReadingRequest.lastKnownNote(for: p, because: .noFixYet, at: F.at(10))?.message
                == "gps: no fix yet; using the last known position from 2027-01-15T07:58:30Z, 1 min old.")
    }
}
