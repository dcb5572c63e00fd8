import FixcastAdapters
import FixcastApp
import FixcastCore
import Foundation
import Testing

/// Readings and fixes with every field filled, at whole seconds (the JSON keeps whole seconds).
enum StoreTestData {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func reading(
        at offset: TimeInterval = 0, lat: Double = 52.52, lon: Double = 13.4138, placeName: String = "Berlin",
        trigger: Trigger = .moved
    ) -> Reading {
        let time = t0.addingTimeInterval(offset)
        let coordinate = Coordinate(lat: lat, lon: lon)!
        let position = Position(
            coordinate: coordinate, altitudeM: 34.5, speedMps: 27.78, trackDeg: 90.25, mode: .threeD,
            fixTime: time.addingTimeInterval(-1), obtainedAt: time.addingTimeInterval(-3), source: .gps,
            horizontalErrorM: 4.5, satellitesUsed: 9)
        let weather = WeatherReport(
            provider: .openMeteo, fetchedAt: time.addingTimeInterval(-60), coordinate: coordinate, cached: true,
            stale: false,
            current: CurrentConditions(
                temperatureC: 3.1, feelsLikeC: -0.4, humidityPct: 81, dewPointC: 0.1, pressureHpa: 1013.2,
                windSpeedMps: 4.2, windGustMps: 9.0, windDirDeg: 250, precipitationMm: 0.0, cloudCoverPct: 75,
                weatherCode: 3),
            today: TodaySummary(
                minC: -1.0, maxC: 5.0, sunrise: time.addingTimeInterval(-20_000),
                sunset: time.addingTimeInterval(10_000)),
            daily: [DailyForecast(date: "2027-01-15", minC: -1, maxC: 5, weatherCode: 3, precipitationMm: 0.2)],
            alerts: [
                WeatherAlert(
                    title: "Wind", severity: "minor", starts: time, ends: time.addingTimeInterval(3600), source: "DWD")
            ])
        return Reading(
            time: time, trigger: trigger, position: position,
            place: Place(name: placeName, region: "Berlin", country: "Germany", countryCode: "de", source: .nominatim),
            weather: weather, errors: [ReadingIssue(component: .place, message: "place: slow, \"quoted\"")])
    }

    static func fix(at offset: TimeInterval, lat: Double = 52.5, lon: Double = 13.4, alt: Double? = 40) -> Fix {
        Fix(
            time: t0.addingTimeInterval(offset - 0.5), receivedAt: t0.addingTimeInterval(offset),
            coordinate: Coordinate(lat: lat, lon: lon)!, mode: .threeD, altitudeM: alt, speedMps: 12.5, trackDeg: 180)
    }

    static func temporaryStorePath(_ label: String = "store") -> String {
        TestPaths.temporaryDirectory(label).appendingPathComponent("nested/dir/fixcast.sqlite").path
    }

    /// Zeroes the page of the store at `db` that `pageQuery` names (a dbstat query giving one page
    /// number): a damaged store that SQLite still opens.
    static func zeroPage(_ db: String, _ pageQuery: String) throws {
        let page = Int(try sqlite3(db, pageQuery)) ?? 0
        let pageSize = Int(try sqlite3(db, "PRAGMA page_size")) ?? 4096
        #expect(page > 1)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        handle.write(Data(repeating: 0, count: pageSize))
        try handle.close()
    }

    /// Runs sqlite3's CLI on `path` and returns its output.
    static func sqlite3(_ path: String, _ sql: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [path, sql]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
