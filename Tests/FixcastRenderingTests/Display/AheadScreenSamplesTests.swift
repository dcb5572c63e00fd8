import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// The live screen's sample lines: in columns whatever the place names' lengths, within the terminal's
/// width, and a tailwind said as one, in every language.
@Suite struct AheadScreenSamplesTests {
    static let t0 = UTCTime.parse("2026-01-30T12:00:00Z")!

    /// Samples at Tahoe's places every 15 min; with `wide`, the third is 1 h 45 min and 156 km out in
    /// heavy rain and the second at -12 °C, so every column is at its widest.
    static func forecast(
        places: [String?], headwinds: [Double?], basis: AheadBasis = .route, wide: Bool = false
    ) -> AheadForecast {
        AheadForecast(
            basis: basis, madeAt: t0,
            from: AheadForecast.Origin(coordinate: Coordinate(lat: 39.2, lon: -120.0)!, fixTime: t0),
            speedMps: 20.8, speedSource: .history,
            samples: places.indices.map { k in
                let far = wide && k == 2
                return AheadForecast.Sample(
                    minutes: 15 * (k + 1) + (far ? 60 : 0), eta: t0.addingTimeInterval(Double(900 * (k + 1))),
                    distanceKm: 18.7 * Double(k + 1) + (far ? 100 : 0), coordinate: Coordinate(lat: 39.3, lon: -120.1)!,
                    place: places[k],
                    conditions: AheadConditions(
                        temperatureC: wide && k == 1 ? -12 : 17, precipitationMmH: far ? 12.5 : 0, weatherCode: 3,
                        headwindMps: headwinds[k]))
            })
    }

    /// Where `needle` starts in `line`, in columns.
    func column(of needle: String, in line: String) -> Int? {
        guard let r = line.range(of: needle) else { return nil }
        return TextColumns.width(String(line[..<r.lowerBound]))
    }

    @Test func theColumnsAfterThePlaceDoNotMoveWithItsLength() {
        let f = Self.forecast(
            places: ["Tahoe Vista", "Truckee", "Incline Village"], headwinds: [0.5, -0.4, 10.2], wide: true)
        let lines = AheadDisplay.screenLines(f, options: DisplayOptions(), width: 80)
        let samples = Array(lines.dropFirst())
        #expect(samples.count == 3, "\(lines)")
        for unit in ["°C", "mm/h", "m/s"] {
            let at = Set(samples.map { column(of: unit, in: $0) })
            #expect(at.count == 1 && at.first != nil, "\(unit): \(samples)")
        }
        // The lead and the distance flush right, as in fixcast ahead's table.
        #expect(Set(samples.map { column(of: " km", in: $0) }).count == 1, "\(samples)")
        #expect(samples[0].hasPrefix("      +15 min   18.7 km  ") && samples[2].hasPrefix("  +1 h 45 min  156.1 km"))
        #expect(samples[0].hasSuffix("against you  0.5 m/s") && samples[2].hasSuffix("against you 10.2 m/s"))
        #expect(samples.allSatisfy { TextColumns.width($0) <= 80 })
    }

    @Test func aTailwindIsBehindYouWithoutASignInEveryLanguage() {
        let f = Self.forecast(places: ["Tahoe Vista", "Truckee", "Verdi"], headwinds: [0.5, -0.4, -0.04])
        let en = AheadDisplay.screenLines(f, options: DisplayOptions(), width: 100)
        #expect(en[1].hasSuffix("against you 0.5 m/s"), "\(en)")
        #expect(en[2].hasSuffix("behind you  0.4 m/s"), "\(en)")
        #expect(en[3].hasSuffix("against you 0.0 m/s"), "a wind that rounds to nothing is neither: \(en)")
        #expect(!en.contains { $0.contains("-0.") || $0.contains("+0.") })
        let ru = AheadDisplay.screenLines(f, options: DisplayOptions(language: .ru), width: 100)
        #expect(ru[1].hasSuffix("встречный 0.5 m/s") && ru[2].hasSuffix("попутный  0.4 m/s"), "\(ru)")
        let zh = AheadDisplay.screenLines(f, options: DisplayOptions(language: .zh), width: 100)
        #expect(zh[1].hasSuffix("逆风 0.5 m/s") && zh[2].hasSuffix("顺风 0.4 m/s"), "\(zh)")
        // The words are the table's: its column is "against you" (встречный, 逆风) in each language.
        #expect(AheadDisplay.table(f, options: DisplayOptions(language: .ru))[0].contains("встречный"))
        #expect(AheadDisplay.table(f, options: DisplayOptions(language: .zh))[0].contains("逆风"))
    }

    @Test func aLongPlaceGivesWaySoTheLineKeepsItsWindWithin80Columns() {
        let long = "Place with a very long name that goes on and on and on"
        let f = Self.forecast(places: [long, "Truckee", nil], headwinds: [4.9, -2, nil])
        let samples = Array(AheadDisplay.screenLines(f, options: DisplayOptions(), width: 80).dropFirst())
        #expect(samples.allSatisfy { TextColumns.width($0) <= 80 }, "\(samples)")
        #expect(samples[0].contains("…") && samples[0].hasSuffix("against you 4.9 m/s"), "\(samples)")
        #expect(samples[1].hasSuffix("behind you  2.0 m/s"), "\(samples)")
        #expect(samples[2].contains(DisplayUnits.unknown) && samples[2].hasSuffix("mm/h"), "\(samples)")
        #expect(Set(samples.map { column(of: "°C", in: $0) }).count == 1, "\(samples)")
    }

    /// What a person sees at 80 columns (printed when a check fails).
    @Test func theBlockAsItLooks() {
        let f = Self.forecast(places: ["Tahoe Vista", "Truckee", "Incline Village"], headwinds: [0.5, -0.4, 10.2])
        let lines = AheadDisplay.screenLines(f, options: DisplayOptions(), width: 80)
        #expect(
            Array(lines.dropFirst()) == [
                "  +15 min  18.7 km  Tahoe Vista      17 °C  0.0 mm/h  against you  0.5 m/s",
                "  +30 min  37.4 km  Truckee          17 °C  0.0 mm/h  behind you   0.4 m/s",
                "  +45 min  56.1 km  Incline Village  17 °C  0.0 mm/h  against you 10.2 m/s",
            ], "\(lines)")
    }

    @Test func stayingHereHasNoDistanceColumn() {
        let f = Self.forecast(
            places: ["Truckee", "Truckee", "Truckee"], headwinds: [nil, nil, nil], basis: .stationary)
        let samples = Array(AheadDisplay.screenLines(f, options: DisplayOptions(), width: 80).dropFirst())
        #expect(samples.count == 3 && !samples.contains { $0.contains(" km") }, "\(samples)")
        #expect(samples[0].hasPrefix("  +15 min  Truckee  17 °C"), "\(samples)")
    }
}
