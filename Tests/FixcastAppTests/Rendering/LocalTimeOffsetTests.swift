import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastRendering
@testable import FixcastTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The display follows the time zone's rules for each instant it shows, not an offset read once.
/// These tests set `TZ` for the process (and put it back); the suite runs its tests one at a time.
@Suite("LocalTimeOffset", .serialized, .scratch)
struct LocalTimeOffsetTests {
    /// Runs `body` with `TZ` set to `zone`, then restores the previous `TZ`.
    func withTimeZone<T>(_ zone: String, _ body: () throws -> T) rethrows -> T {
        let previous = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
            tzset()
        }
        return try body()
    }

    func utc(_ text: String) throws -> Date { try #require(UTCTime.parse(text)) }

    @Test("Berlin in March: an hour before the change is CET, an hour after is CEST")
    func marchChange() throws {
        // 2026-03-29 01:00 UTC: clocks go from 02:00 CET to 03:00 CEST.
        let before = try utc("2026-03-29T00:30:00Z")
        let after = try utc("2026-03-29T01:30:00Z")
        withTimeZone("Europe/Berlin") {
            #expect(LocalTimeOffset.offset(at: before) == 3600)
            #expect(LocalTimeOffset.offset(at: after) == 7200)
            #expect(DisplayTime.clock(before, LocalTimeOffset.system) == "01:30")
            #expect(DisplayTime.clock(after, LocalTimeOffset.system) == "03:30")
        }
    }

    @Test("Berlin in October: the same rule gives CEST before the change and CET after it")
    func octoberChange() throws {
        // 2026-10-25 01:00 UTC: clocks go from 03:00 CEST back to 02:00 CET.
        let before = try utc("2026-10-25T00:30:00Z")
        let after = try utc("2026-10-25T01:30:00Z")
        withTimeZone("Europe/Berlin") {
            #expect(LocalTimeOffset.offset(at: before) == 7200)
            #expect(LocalTimeOffset.offset(at: after) == 3600)
            #expect(DisplayTime.clock(before, LocalTimeOffset.system) == "02:30")
            #expect(DisplayTime.clock(after, LocalTimeOffset.system) == "02:30")
        }
    }

    @Test("a reading's sunrise in July is shown in summer time even when rendered in winter")
    func sunriseUsesItsOwnOffset() throws {
        let sunrise = try utc("2026-07-01T02:50:00Z")  // 04:50 CEST
        let options = DisplayOptions(settings: Settings())
        withTimeZone("Europe/Berlin") {
            #expect(DisplayTime.clock(sunrise, options.utcOffset) == "04:50")
            // A fixed offset read in winter (the old behaviour) was an hour off.
            #expect(DisplayTime.clock(sunrise, .fixed(3600)) == "03:50")
        }
    }

    /// The machine's zone changed under a running process (`timedatectl set-timezone`; here `TZ`, which
    /// glibc likewise reads only once): the next minute's display follows it.
    @Test("a zone changed while fixcast runs is followed from the next minute")
    func aChangedZoneIsReadAgain() throws {
        let summer = try utc("2026-07-01T12:00:00Z")
        let previous = getenv("TZ").map { String(cString: $0) }
        defer {
            if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
            tzset()
        }
        setenv("TZ", "Europe/Berlin", 1)
        tzset()
        #expect(LocalTimeOffset.offset(at: summer) == 7200)
        setenv("TZ", "America/New_York", 1)  // no tzset: what the C library alone would never notice
        LocalTimeOffset.forgetZoneRead()
        #expect(LocalTimeOffset.offset(at: summer) == -4 * 3600)
    }

    @Test func fixedRulesCompareByOffset() {
        #expect(DisplayOptions(utcOffsetS: 3600) == DisplayOptions(utcOffsetS: 3600))
        #expect(DisplayOptions(utcOffsetS: 3600) != DisplayOptions(utcOffsetS: 7200))
        #expect(UTCOffsetRule.fixed(-18000).seconds(at: Date()) == -18000)
    }
}
