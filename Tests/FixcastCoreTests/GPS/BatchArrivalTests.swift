import FixcastCore
import Foundation
import Testing

@Suite struct BatchArrivalTests {
    static let readAt = Date(timeIntervalSince1970: 1_800_000_100)
    /// Receiver times of a 1 Hz receiver: one a second, the last at 12:00:09 in receiver time.
    static func oneHertz(_ count: Int, lastAt last: Double = 1_700_000_009) -> [Date?] {
        (0..<count).map { Date(timeIntervalSince1970: last - Double(count - 1 - $0)) }
    }

    @Test func tenGatheredFixesKeepTheSecondsTheyCameAt() {
        let times = Self.oneHertz(10)
        let arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-10))
        let stamps = times.map { arrival.receivedAt(receiverTime: $0) }
        #expect(stamps.last == Self.readAt, "the last fix came at the read")
        #expect(stamps.first == Self.readAt.addingTimeInterval(-9), "the first 9 s before it")
        for (a, b) in zip(stamps, stamps.dropFirst()) { #expect(b.timeIntervalSince(a) == 1) }
    }

    @Test func oneFixIsStampedWithTheRead() {
        let times = Self.oneHertz(1)
        let arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-1))
        #expect(arrival.receivedAt(receiverTime: times[0]) == Self.readAt)
    }

    @Test func aSpanLongerThanTheWaitIsNotBelieved() {
        // A log replayed at 50 epochs a second: 10 s of receiver time read 0.2 s after the previous read.
        let times = Self.oneHertz(11)
        let arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-0.2))
        #expect(arrival.anchor == nil)
        for time in times { #expect(arrival.receivedAt(receiverTime: time) == Self.readAt) }
    }

    @Test func theToleranceCoversSchedulingJitterOnly() {
        let times = Self.oneHertz(11)  // 10 s of receiver time
        let justInside = BatchArrival(
            fixTimes: times, readAt: Self.readAt,
            previousReadAt: Self.readAt.addingTimeInterval(-(10 - BatchArrival.toleranceS)))
        #expect(justInside.anchor != nil)
        let outside = BatchArrival(
            fixTimes: times, readAt: Self.readAt,
            previousReadAt: Self.readAt.addingTimeInterval(-(9.7 - BatchArrival.toleranceS)))
        #expect(outside.anchor == nil)
    }

    @Test func timesRunningBackwardsAreNotBelieved() {
        var times = Self.oneHertz(5)
        times.swapAt(1, 3)
        let arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-10))
        #expect(arrival.anchor == nil)
        #expect(arrival.receivedAt(receiverTime: times[0]) == Self.readAt)
    }

    @Test func aFixWithoutATimeIsStampedLikeTheFixBeforeIt() {
        var times = Self.oneHertz(5)
        times[2] = nil
        var arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-10))
        #expect(arrival.anchor == times[4])
        let stamps = times.map { arrival.next(receiverTime: $0) }
        let back: [Double] = [-4, -3, -3, -1, 0]
        #expect(
            stamps == back.map { Self.readAt.addingTimeInterval($0) },
            "in order, the timeless one beside its predecessor")
    }

    @Test func aLeadingFixWithoutATimeTakesTheReadsEarliestStamp() {
        // The first fix after gpsd learns the date comes from GGA alone, without one.
        let times: [Date?] = [nil] + Self.oneHertz(3)
        let arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-4))
        #expect(arrival.receivedAt(receiverTime: nil, previous: nil) == Self.readAt.addingTimeInterval(-2))
    }

    @Test func aReadOfTimelessFixesIsStampedWithTheRead() {
        let times: [Date?] = [nil, nil, nil]
        let arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-10))
        #expect(arrival.anchor == nil)
        #expect(arrival.receivedAt(receiverTime: nil, previous: nil) == Self.readAt)
        #expect(arrival.receivedAt(receiverTime: nil, previous: Self.readAt.addingTimeInterval(-5)) == Self.readAt)
    }

    @Test func withoutAPreviousReadOrWithAClockThatSteppedBackNothingIsBackdated() {
        let times = Self.oneHertz(3)
        let unknown = BatchArrival(fixTimes: times, readAt: Self.readAt, previousReadAt: nil)
        #expect(unknown.anchor == nil)
        let stepped = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(60))
        #expect(stepped.anchor == nil)
        #expect(stepped.receivedAt(receiverTime: times[0]) == Self.readAt)
    }

    @Test func aReadWithoutFixesHasNoAnchor() {
        let arrival = BatchArrival(
            fixTimes: [Date?](), readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-10))
        #expect(arrival.anchor == nil)
        #expect(arrival.receivedAt(receiverTime: nil) == Self.readAt)
    }

    @Test func duplicatedEpochsShareTheirStamp() {
        // gpsd can send one epoch twice (GGA, then RMC): equal times are not "backwards".
        let t = Date(timeIntervalSince1970: 1_700_000_000)
        let times: [Date?] = [t, t, t.addingTimeInterval(1), t.addingTimeInterval(1)]
        let arrival = BatchArrival(
            fixTimes: times, readAt: Self.readAt, previousReadAt: Self.readAt.addingTimeInterval(-2))
        #expect(arrival.receivedAt(receiverTime: times[0]) == Self.readAt.addingTimeInterval(-1))
        #expect(arrival.receivedAt(receiverTime: times[1]) == Self.readAt.addingTimeInterval(-1))
        #expect(arrival.receivedAt(receiverTime: times[3]) == Self.readAt)
    }
}
