import FixcastCore
import FoundationEssentials
import Testing

/// The loop makes an `AgentEvent` for every report of gpsd and the reducer answers each with an
/// array of `AgentEffect`s: a case that carried a `Reading` inline would make every event and every
/// effect as wide as a reading. Those cases are `indirect`, so both stay the size of a fix.
@Suite struct AgentMessageSizeTests {
    @Test func anEventIsNoWiderThanAFixAndItsTime() {
        #expect(MemoryLayout<AgentEvent>.size <= MemoryLayout<GPSEvent>.size + MemoryLayout<ClockReading>.size + 8)
        #expect(MemoryLayout<Reading>.size > 2 * MemoryLayout<AgentEvent>.size)
    }

    @Test func anEffectIsNoWiderThanAFix() {
        #expect(MemoryLayout<AgentEffect>.size <= MemoryLayout<Fix>.size + 8)
        #expect(MemoryLayout<Reading>.size > 2 * MemoryLayout<AgentEffect>.size)
    }

    @Test func aBoxedReadingComesOutAsItWentIn() {
        let reading = AgentFixture.reading(.startup, at: AgentStatusTests.here, time: 0)
        guard case .printReading(let out) = AgentEffect.printReading(reading) else {
            Issue.record("not a printReading")
            return
        }
        #expect(out == reading)
        let at = ClockReading(monotonic: PolicyFixture.at(0), wall: PolicyFixture.at(0))
        #expect(AgentEvent.readingFinished(reading, at: at) == .readingFinished(out, at: at))
        #expect(AgentEvent.readingFinished(reading, at: at) != .storedReadingLoaded(reading))
    }
}
