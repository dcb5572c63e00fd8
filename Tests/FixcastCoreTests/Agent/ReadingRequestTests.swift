import FixcastCore
import FoundationEssentials
import Testing

@Suite struct ReadingRequestTests {
    typealias F = PolicyFixture

    @Test func aLiveOrFixedPositionNeedsNoNote() {
        #expect(ReadingRequest.notes(for: F.fix(F.berlin, at: F.t0), fixLostSince: F.t0, at: F.at(5)) == [])
        #expect(ReadingRequest.notes(for: .manual(F.berlin, at: F.t0), fixLostSince: nil, at: F.at(5)) == [])
    }

    @Test func aLastKnownPositionSaysWhyAndHowOld() {
        let p = Position(coordinate: F.berlin, obtainedAt: F.at(-90), source: .lastKnown)
        #expect(
            ReadingRequest.notes(for: p, fixLostSince: nil, at: F.at(10))
                == [
                    ReadingIssue(
                        component: .gps,
                        message: "gps: no fix yet; the reading is for the last known position (1 min old).")
                ])
        #expect(
            ReadingRequest.notes(for: p, fixLostSince: F.at(-30), at: F.at(10))
                == [
                    ReadingIssue(
                        component: .gps,
                        message:
                            "gps: no fix since 2027-01-15T07:59:30Z; the reading is for the last known position (1 min old)."
                    )
                ])
    }
}
