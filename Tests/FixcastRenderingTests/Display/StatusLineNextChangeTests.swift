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

    /// i3blocks' persistent block takes each line as its whole text: `--watch` prints the full text alone.
    @Test func aPersistentI3blocksLineIsOneLine() {
        let line = StatusLine(
            reading: reading(), now: F.fetched.addingTimeInterval(5), options: options, periodicMin: 30)
        #expect(StatusLineOutput.i3blocks.render(line).split(separator: "\n").count == 3)
        #expect(StatusLineOutput.i3blocks.render(line, persistent: true) == line.text + "\n")
    }
}
