import FixcastCore
import FoundationEssentials
import Testing

/// `AgentStatus` keeps its reading behind one shared reference (the reducer copies and compares the
/// status at every event); equality must still be by value.
@Suite struct AgentStatusTests {
    typealias A = AgentFixture

    static let here = A.position(A.fix(PolicyFixture.berlin, at: 0))

    @Test func equalReadingsInSeparateStatusesCompareEqual() {
        let a = AgentStatus(reading: A.reading(.startup, at: Self.here, time: 0))
        let b = AgentStatus(reading: A.reading(.startup, at: Self.here, time: 0))
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    @Test func aDifferentReadingMakesADifferentStatus() {
        let a = AgentStatus(reading: A.reading(.startup, at: Self.here, time: 0))
        var b = a
        #expect(a == b)
        b.reading = A.reading(.moved, at: Self.here, time: 60)
        #expect(a != b)
        #expect(b.reading?.trigger == .moved)
        #expect(a.reading?.trigger == .startup)  // the copy kept its own reading
        b.reading = nil
        #expect(b.reading == nil)
        #expect(b != a)
    }
}
