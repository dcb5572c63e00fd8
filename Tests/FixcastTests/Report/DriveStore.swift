import FixcastCore
import Foundation

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// A real SQLite store holding the bundled drive (Reno → Lake Tahoe, a Garmin's own NMEA, 2005):
/// every RMC fix with the GGA altitude of the same second as the track, and a reading every 10
/// minutes of fix time named from the bundled GeoNames table.
///
/// Filled through the store API rather than a gpsfake replay (AgentReplayTests does that, slowly).
/// The readings' weather is made up for the test and says so: the temperature follows the
/// standard lapse rate (6.5 °C per km of altitude, from 24 °C at 1,300 m), so it varies along the
/// climb to the lake; 0.4 mm of rain above 1,800 m; one wind advisory over the middle half hour.
enum DriveStore {
    struct Built {
        var path: String
        var readings: [Reading]
        var fixes: [Fix]
    }

    static let nmea = TestPaths.fixture("tracks/reno_tahoe_gga_rmc.nmea")

    /// The drive's fixes, by fix time (RMC time and date, GGA altitude).
    static func fixes() throws -> [Fix] {
        let text = try String(contentsOfFile: nmea, encoding: .utf8)
        var altitudeByTime: [String: Double] = [:]
        var fixes: [Fix] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if f[0] == "$GPGGA", f.count > 9, let alt = Double(f[9]) { altitudeByTime[f[1]] = alt }
            guard f[0] == "$GPRMC", f.count > 9, f[2] == "A", let lat = degrees(f[3], f[4]),
                let lon = degrees(f[5], f[6]),
                let time = time(f[1], f[9]), let c = Coordinate(lat: lat, lon: lon)
            else { continue }
            fixes.append(
                Fix(time: time, receivedAt: time, coordinate: c, mode: .threeD, altitudeM: altitudeByTime[f[1]]))
        }
        // GGA follows RMC for the same second: fill the altitudes in a second pass.
        for i in fixes.indices where fixes[i].altitudeM == nil {
            let hhmmss = hhmmss(fixes[i].time ?? fixes[i].receivedAt)
            fixes[i].altitudeM = altitudeByTime[hhmmss]
        }
        return fixes
    }

    static func degrees(_ value: String, _ hemisphere: String) -> Double? {
        guard let v = Double(value) else { return nil }
        let d = (v / 100).rounded(.towardZero)
        let deg = d + (v - d * 100) / 60
        return hemisphere == "S" || hemisphere == "W" ? -deg : deg
    }

    static func time(_ hhmmss: String, _ ddmmyy: String) -> Date? {
        let t = Array(hhmmss.utf8).map { Int($0) - 48 }
        let d = Array(ddmmyy.utf8).map { Int($0) - 48 }
        guard t.count >= 6, d.count == 6 else { return nil }
        let days = UTCTime.days(fromCivil: 2000 + d[4] * 10 + d[5], d[2] * 10 + d[3], d[0] * 10 + d[1])
        let seconds = (t[0] * 10 + t[1]) * 3600 + (t[2] * 10 + t[3]) * 60 + t[4] * 10 + t[5]
        return Date(timeIntervalSince1970: Double(days * 86_400 + seconds))
    }

    static func hhmmss(_ date: Date) -> String {
        let s = Int(date.timeIntervalSince1970) % 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return two(s / 3600) + two(s / 60 % 60) + two(s % 60)
    }

    static func temperature(altitudeM: Double?) -> Double {
        ((24 - 6.5 * ((altitudeM ?? 1300) - 1300) / 1000) * 10).rounded() / 10
    }

    static func build(gapSplit: Bool = false) async throws -> Built {
        let path = StoreTestData.temporaryStorePath("drive")
        let store = try SQLiteStore(path: path)
        let all = try fixes()
        try await store.appendTrackPoints(all)
        guard let first = all.first?.time, let last = all.last?.time else {
            return Built(path: path, readings: [], fixes: all)
        }
        let middle = first.addingTimeInterval(last.timeIntervalSince(first) / 2)
        let advisory = WeatherAlert(
            title: "Wind Advisory <test>", severity: "moderate", starts: middle, ends: middle.addingTimeInterval(1800),
            source: "test")
        var readings: [Reading] = []
        var next = first
        for fix in all {
            guard let t = fix.time, t >= next else { continue }
            next = t.addingTimeInterval(600)
            let place = try PlaceTestData.offline.nearestPlace(to: fix.coordinate)
            let alt = fix.altitudeM ?? 1300
            let weather = WeatherReport(
                provider: .openMeteo, fetchedAt: t, coordinate: fix.coordinate,
                current: CurrentConditions(
                    temperatureC: temperature(altitudeM: alt), precipitationMm: alt > 1800 ? 0.4 : 0,
                    weatherCode: alt > 1800 ? 61 : 2),
                alerts: abs(t.timeIntervalSince(middle)) < 900 ? [advisory] : [])
            let reading = Reading(
                time: t, trigger: readings.isEmpty ? .startup : .moved, position: Position(fix: fix), place: place,
                weather: weather)
            try await store.insertReading(reading)
            readings.append(reading)
        }
        return Built(path: path, readings: readings, fixes: all)
    }
}
