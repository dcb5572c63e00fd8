import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// `line --watch` wakes at `StatusLineOutput.nextChange` and at no other time but a stored reading: the
/// line must read the same until then, whatever the output and the format show.
@Suite struct StatusLineNextChangeTests {
    typealias F = DisplayFixture
    let options = DisplayOptions(utcOffsetS: 0)

    /// A reading with an alert that expires 10 min after it and rain 45 min ahead.
    func reading() -> Reading {
        var r = F.reading()
        r.alerts = AlertReport(
            source: .nws, covered: true, fetchedAt: F.fetched, stale: false,
            active: [
                Alert(id: "a", event: "Gale", severity: .severe, expires: F.fetched.addingTimeInterval(600)),
                Alert(id: "b", event: "Fog", severity: .minor),
            ])
        r.ahead = AheadForecast(
            basis: .route, madeAt: F.fetched, from: AheadForecast.Origin(coordinate: F.berlin, fixTime: nil),
            speedMps: 20, speedSource: .gps, samples: [],
            rain: AheadForecast.Rain(inMin: 45, atKm: 63, place: "Kyritz", mmH: 1.2))
        return r
    }

    func text(_ output: StatusLineOutput, _ format: String, _ r: Reading?, at now: Date) -> String {
        output.render(StatusLine(reading: r, format: format, now: now, options: options, periodicMin: 30))
    }

    /// Walked wake by wake over three hours, the line never changes between two wakes (checked every
    /// 7 s), and it does change at the wakes that the output shows.
    @Test(arguments: [
        (StatusLineOutput.plain, StatusLine.defaultFormat), (.plain, "%l %a"), (.plain, "%r|%A"), (.plain, "%%a %%r"),
        (.waybar, StatusLine.defaultFormat), (.i3blocks, "%A %r"),
    ])
    func theLineReadsTheSameUntilTheNextWake(_ output: StatusLineOutput, _ format: String) {
        let r = reading()
        var now = r.time.addingTimeInterval(5)
        let end = r.time.addingTimeInterval(3 * 3600)
        var wakes = 0
        var changedAtWakes = 0
        while now < end {
            let next = output.nextChange(of: r, format: format, now: now, periodicMin: 30) ?? end
            #expect(next > now)
            let shown = text(output, format, r, at: now)
            var t = now
            while t < min(next, end) {
                #expect(
                    text(output, format, r, at: t) == shown, "\(output) \(format) at +\(t.timeIntervalSince(r.time)) s")
                t = t.addingTimeInterval(7)
            }
            if next < end, text(output, format, r, at: next) != shown { changedAtWakes += 1 }
            wakes += 1
            now = next
        }
        #expect(changedAtWakes > 0, "\(output) \(format)")
        #expect(changedAtWakes * 2 >= wakes - 1, "most wakes are for a change: \(changedAtWakes) of \(wakes)")
    }

    /// Only what the line shows wakes it: the default plain line only when it turns stale; i3blocks'
    /// when the severe alert expires too (its colour), waybar's when the rain passes too (its class).
    @Test func theDefaultLineWakesOnlyForWhatCanChangeIt() {
        let r = reading()
        func wakes(_ output: StatusLineOutput, _ format: String = StatusLine.defaultFormat) -> [Double] {
            var now = r.time
            var wakes: [Double] = []
            while let next = output.nextChange(of: r, format: format, now: now, periodicMin: 30) {
                wakes.append(next.timeIntervalSince(r.time))
                now = next
            }
            return wakes
        }
        #expect(wakes(.plain) == [3601])
        #expect(wakes(.i3blocks) == [601, 3601])
        #expect(wakes(.plain, "%r").prefix(3) == [31, 91, 151])
        #expect(wakes(.plain, "%r").last == 3601)
        #expect(wakes(.plain, "%A") == [601, 3601])
    }

    /// With the age shown, a wake a minute (a day, past two days); none for a reading without a fix
    /// (it says "no fix" until a reading comes) or no reading.
    @Test func theAgeWakesEachMinuteAndNoFixNever() {
        var r = F.reading()
        r.alerts = nil
        #expect(
            StatusLineOutput.plain.nextChange(of: r, format: "%a", now: r.time.addingTimeInterval(125), periodicMin: 30)
                == r.time.addingTimeInterval(181))
        let old = r.time.addingTimeInterval(50 * 3600)
        #expect(
            StatusLineOutput.plain.nextChange(of: r, format: "%a", now: old, periodicMin: 30)
                == r.time.addingTimeInterval(72 * 3600 + 1))
        #expect(StatusLineOutput.waybar.nextChange(of: nil, format: "%a", now: r.time, periodicMin: 30) == nil)
        #expect(
            StatusLineOutput.waybar.nextChange(of: F.reading(position: nil), format: "%a", now: r.time, periodicMin: 30)
                == nil)
    }

    /// Walks the line from `start` to `end` wake by wake (checked every `step` s between): it reads the
    /// same until each wake. Returns the offsets from `start` of the wakes at which it changed.
    func changesWalked(
        _ output: StatusLineOutput, _ format: String, _ r: Reading, from start: Date, to end: Date, step: Double = 29
    ) -> [Double] {
        var now = start
        var changes: [Double] = []
        while now < end, let next = output.nextChange(of: r, format: format, now: now, periodicMin: 30) {
            let shown = text(output, format, r, at: now)
            var t = now
            while t < min(next, end) {
                #expect(text(output, format, r, at: t) == shown, "\(format) at +\(t.timeIntervalSince(start)) s")
                t = t.addingTimeInterval(step)
            }
            guard next <= end else { break }
            if text(output, format, r, at: next) != shown { changes.append(next.timeIntervalSince(start)) }
            now = next
        }
        return changes
    }

    /// `%S`/`%s` are the shown day's sunrise and sunset: the line wakes when the weather's next day
    /// begins (its own time zone, or mean solar time without one) and then shows that day's.
    @Test func sunTimesWakeAtTheWeathersMidnight() throws {
        var r = F.reading()
        r.alerts = nil
        // Without a time zone: Berlin's mean solar midnight is 23:06:20.7Z (13.4138° east), 11 h 5 min
        // 58.7 s after the reading; the line also turns stale an hour after it (`~`).
        let midnight = 11 * 3600 + 5 * 60 + 58.688
        let solar = changesWalked(.plain, "%S %s", r, from: r.time, to: r.time.addingTimeInterval(36 * 3600))
        try #require(solar.count == 3, "\(solar)")
        #expect(solar[0] == 3601)
        #expect(abs(solar[1] - midnight - 1) < 0.01 && abs(solar[2] - midnight - 86_400 - 1) < 0.01, "\(solar)")
        // With the provider's zone (UTC+1): 23:00Z.
        r.weather?.utcOffsetS = 3600
        let zoned = changesWalked(.plain, "%s", r, from: r.time, to: r.time.addingTimeInterval(20 * 3600))
        #expect(zoned == [3601, 11 * 3600 - 22 + 1], "\(zoned)")
        // A format without them does not wake at midnight.
        #expect(changesWalked(.plain, "%t", r, from: r.time, to: r.time.addingTimeInterval(20 * 3600)) == [3601])
    }

    /// A reading stamped more than a minute ahead of the clock is stale (`~`) until the clock comes
    /// within the minute: the line wakes then, not at the next stored reading.
    @Test func aReadingAheadOfTheClockWakesWhenItIsNoLongerAhead() {
        var r = F.reading()
        r.alerts = nil
        let start = r.time.addingTimeInterval(-2 * 3600)
        #expect(text(.plain, "%t", r, at: start).hasPrefix("~"))
        let changes = changesWalked(.plain, "%t", r, from: start, to: r.time.addingTimeInterval(600))
        #expect(changes == [2 * 3600 - 60 + 1], "\(changes)")
        #expect(!text(.plain, "%t", r, at: start.addingTimeInterval(changes[0])).hasPrefix("~"))
    }

    /// i3blocks' persistent block takes each line as its whole text: `--watch` prints the full text alone.
    @Test func aPersistentI3blocksLineIsOneLine() {
        let line = StatusLine(
            reading: reading(), now: F.fetched.addingTimeInterval(5), options: options, periodicMin: 30)
        #expect(StatusLineOutput.i3blocks.render(line).split(separator: "\n").count == 3)
        #expect(StatusLineOutput.i3blocks.render(line, persistent: true) == line.text + "\n")
    }
}
