import FixcastCore
import FoundationEssentials
import Testing

@Suite struct LastKnownSaveGateTests {
    typealias F = PolicyFixture

    @Test func atMostEveryTenSeconds() {
        var g = LastKnownSaveGate()
        #expect(g.intervalS == 10)
        let saved = stride(from: 0.0, through: 25, by: 0.5).filter { g.shouldSave(at: F.at($0)) }
        #expect(saved == [0, 10, 20])
    }

    @Test func aClockThatSteppedBackSavesAndRestartsFromThere() {
        var g = LastKnownSaveGate(intervalS: 10)
        let answers = [100.0, 50, 55, 60].map { g.shouldSave(at: F.at($0)) }
        #expect(answers == [true, true, false, true])
        #expect(g.lastSavedAt == F.at(60))
    }
}
