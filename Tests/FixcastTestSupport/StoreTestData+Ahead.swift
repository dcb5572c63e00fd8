import FixcastAdapters
import FixcastCore
import Foundation

/// Ahead forecasts with every field filled, at whole seconds, for the store, export and line tests.
extension StoreTestData {
    /// A forecast made at `t0 + offset` from (lat, lon), with `count` samples `stepMin` apart heading
    /// east along the latitude at `speedMps`, rain from the third sample on.
    static func aheadForecast(
        at offset: TimeInterval = 0, lat: Double = 52.52, lon: Double = 13.4138, count: Int = 4,
        stepMin: Int = 15, speedMps: Double = 20, temperatureC: Double = 2.5, rainMmH: Double = 1.2
    ) -> AheadForecast {
        let made = t0.addingTimeInterval(offset)
        let samples = (0..<count).map { i -> AheadForecast.Sample in
            let minutes = (i + 1) * stepMin
            let km = speedMps * Double(minutes) * 60 / 1000
            // East along the latitude: 1° of longitude is 111.32 km × cos(lat).
            let dLon = km / (111.32 * cos(lat * .pi / 180))
            let rains = i >= 2
            return AheadForecast.Sample(
                minutes: minutes, eta: made.addingTimeInterval(Double(minutes * 60)), distanceKm: km,
                coordinate: Coordinate(lat: lat, lon: lon + dLon)!, place: "Place \(i)",
                conditions: AheadConditions(
                    temperatureC: temperatureC - Double(i) * 0.5, precipitationMmH: rains ? rainMmH : 0,
                    precipitationProbabilityPct: rains ? 80 : 10, weatherCode: rains ? 61 : 3, windSpeedMps: 6.1,
                    windGustMps: 11 + Double(i), windDirDeg: 260, headwindMps: 4.9, crosswindMps: -3.6))
        }
        let rain = samples.first { ($0.precipitationMmH ?? 0) >= 0.2 }.map {
            AheadForecast.Rain(inMin: $0.minutes, atKm: $0.distanceKm, place: $0.place, mmH: $0.precipitationMmH!)
        }
        return AheadForecast(
            basis: .route, offRoute: false, madeAt: made,
            from: AheadForecast.Origin(
                coordinate: Coordinate(lat: lat, lon: lon)!, fixTime: made.addingTimeInterval(-1)),
            speedMps: speedMps, speedSource: .history,
            route: AheadForecast.Route(name: "Berlin - Hamburg", remainingKm: 231.4), samples: samples, rain: rain,
            worst: AheadForecast.Worst(
                minTemperatureC: samples.compactMap(\.temperatureC).min(),
                maxGustMps: samples.compactMap(\.windGustMps).max(),
                maxPrecipitationMmH: samples.compactMap(\.precipitationMmH).max()),
            alerts: [
                AheadForecast.AlertAhead(
                    id: "urn:oid:2.49.0.1.578.0.1", event: "Wind", severity: "moderate", inMin: 60, atKm: 85.2,
                    place: "Kyritz")
            ])
    }

    /// `reading(at:)` carrying `ahead`.
    static func reading(at offset: TimeInterval, ahead: AheadForecast?) -> Reading {
        var r = reading(at: offset)
        r.ahead = ahead
        return r
    }
}

/// A drive east along 52.52° N at 20 m/s with a reading every 15 min (9 in all), each carrying a
/// forecast made from its own position whose samples fall exactly on the later readings' places and
/// times; the met temperature wanders, the forecast's is a little off, and rain is forecast from the
/// third sample on while only the last reading meets rain. The track runs under the whole drive.
enum AheadDrive {
    static let count = 9
    static let stepS = 900.0
    static let lat = 52.52
    static let lon0 = 13.4138

    static func lon(_ k: Int) -> Double {
        lon0 + 20 * Double(k) * stepS / 1000 / (111.32 * cos(lat * .pi / 180))
    }

    static func metTemperature(_ k: Int) -> Double { 3 + sin(Double(k)) }

    static func reading(_ k: Int) -> Reading {
        var r = StoreTestData.reading(at: Double(k) * stepS, lat: lat, lon: lon(k), placeName: "Stop \(k)")
        r.weather?.current.temperatureC = metTemperature(k)
        r.weather?.current.precipitationMm = k == count - 1 ? 2.0 : 0
        r.ahead = StoreTestData.aheadForecast(
            at: Double(k) * stepS, lat: lat, lon: lon(k), temperatureC: 3.5 + 0.2 * Double(k))
        return r
    }

    /// Fills `store` with the drive: readings 0…8 and a track point every 30 s from 1 min before the first.
    static func fill(_ store: SQLiteStore) async throws {
        for k in 0..<count { try await store.insertReading(reading(k)) }
        var fixes: [Fix] = []
        var s = -60.0
        while s <= Double(count - 1) * stepS + 60 {
            let km = 20 * s / 1000
            fixes.append(
                StoreTestData.fix(at: s, lat: lat, lon: lon0 + km / (111.32 * cos(lat * .pi / 180))))
            s += 30
        }
        try await store.appendTrackPoints(fixes)
    }
}
