import FixcastCore
import Foundation
import Testing

/// The one Double-to-integer conversion (issue 23 item 3): nil or clamped where `Int(_:)` would trap.
@Suite struct CheckedIntegerTests {
    @Test func absurdValuesAreNilNotATrap() {
        for v in [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, 1e19, -1e19, 9_223_372_036_854_775_808.0] {
            #expect(Int(checked: v) == nil, "\(v)")
        }
        #expect(Int(checked: -9_223_372_036_854_775_808.0) == Int.min)
        #expect(Int(checked: 2.5) == 2)
        #expect(Int(checked: 2.5, rounding: .toNearestOrAwayFromZero) == 3)
        #expect(Int(checked: -2.5, rounding: .down) == -3)
        #expect(Int(checked: 1_800_000_000.9) == 1_800_000_000)
    }

    @Test func clampingKeepsInsideTheRange() {
        #expect(Int(clamping: .nan, to: 1...10) == 1)
        #expect(Int(clamping: .infinity, to: 1...10) == 10)
        #expect(Int(clamping: -.infinity, to: 1...10) == 1)
        #expect(Int(clamping: 1e300, to: 0...Int.max) == Int.max)
        #expect(Int(clamping: -1e300, to: Int.min...Int.max) == Int.min)
        #expect(Int(clamping: 4.6, to: 0...10, rounding: .up) == 5)
        #expect(Int(clamping: 4.6, to: 0...10) == 4)
    }

    @Test func aSaturatedSumHoldsAtTheEndsInsteadOfTrapping() {
        #expect(2.addingSaturated(3) == 5)
        #expect((-2).addingSaturated(-3) == -5)
        #expect(Int.max.addingSaturated(1) == Int.max)
        #expect((Int.max - 1).addingSaturated(Int.max) == Int.max)
        #expect(Int.min.addingSaturated(-1) == Int.min)
        #expect(Int.max.addingSaturated(Int.min) == -1)
        #expect(Int.max.addingSaturated(0) == Int.max)
    }

    @Test func plausibleTimesAre1970To2200() {
        #expect(PlausibleTime.date(1_800_000_000) == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(PlausibleTime.date(0) != nil)
        for v in [-1, PlausibleTime.latestSeconds, 1e300, -1e300, .infinity, .nan, 9.3e18] {
            #expect(PlausibleTime.date(v) == nil, "\(v)")
        }
        // Formatting an absurd date no longer traps: it is clamped to a four-digit year.
        #expect(UTCTime.format(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
        #expect(UTCTime.format(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00Z")
        #expect(DurationText.text(seconds: 1e300) == DurationText.text(seconds: .infinity))
    }
}
