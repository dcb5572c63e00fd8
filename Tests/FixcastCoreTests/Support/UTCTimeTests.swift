import FoundationEssentials
import Testing

@testable import FixcastCore

@Suite struct UTCTimeTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (951_782_400.0, "2000-02-29T00:00:00Z"),
        (1_769_774_422.0, "2026-01-30T12:00:22Z"),
        (-86_401.0, "1969-12-30T23:59:59Z"),
        (4_102_444_799.0, "2099-12-31T23:59:59Z"),
    ])
    func formatsAndParsesBack(_ seconds: Double, _ text: String) {
        let d = Date(timeIntervalSince1970: seconds)
        #expect(UTCTime.format(d) == text)
        #expect(UTCTime.parse(text) == d)
    }

    /// A provider's local time (Open-Meteo's hours, sunrise and sunset): the offset is taken off a time
    /// without a zone, and never off one with its own (it was taken off "+05:30" a second time).
    @Test func aLocalTimeLosesTheOffsetOnlyWithoutAZoneOfItsOwn() {
        let ist = 19_800
        #expect(UTCTime.parse("2026-01-30T12:00", localOffsetS: ist) == UTCTime.parse("2026-01-30T06:30:00Z"))
        #expect(UTCTime.parse("2026-01-30T12:00+05:30", localOffsetS: ist) == UTCTime.parse("2026-01-30T06:30:00Z"))
        #expect(UTCTime.parse("2026-01-30T12:00Z", localOffsetS: ist) == UTCTime.parse("2026-01-30T12:00:00Z"))
        #expect(UTCTime.parse("2026-01-30T12:00-0330", localOffsetS: ist) == UTCTime.parse("2026-01-30T15:30:00Z"))
        #expect(UTCTime.parse("2026-01-30T12:00+5", localOffsetS: ist) == nil)
    }

    @Test func acceptsOffsetsFractionsAndDates() {
        #expect(UTCTime.parse("2026-01-30T14:00:22+02:00") == UTCTime.parse("2026-01-30T12:00:22Z"))
        #expect(UTCTime.parse("2026-01-30T07:00:22-0500") == UTCTime.parse("2026-01-30T12:00:22Z"))
        #expect(UTCTime.parse("2026-01-30T12:00") == UTCTime.parse("2026-01-30T12:00:00Z"))
        #expect(UTCTime.parse("2026-01-30") == UTCTime.parse("2026-01-30T00:00:00Z"))
        let frac = UTCTime.parse("2026-01-30T12:00:22.250Z")
        #expect(frac.map { $0.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) } == 0.25)
    }

    @Test(arguments: [
        "", "2026", "2026-13-01", "2026-02-30", "2025-02-29", "2026-01-30T25:00", "2026-01-30T12:00Zx",
        "2026-01-30T12:00:22+5", "yesterday", "2026-01-30T12:00:22.",
    ])
    func rejects(_ text: String) {
        #expect(UTCTime.parse(text) == nil)
    }

    @Test func leapYears() {
        #expect(UTCTime.parse("2024-02-29") != nil)
        #expect(UTCTime.parse("2100-02-29") == nil)
        #expect(UTCTime.parse("2000-02-29") != nil)
    }
}
