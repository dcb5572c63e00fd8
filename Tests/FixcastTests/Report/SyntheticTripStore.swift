import FixcastCore
import Foundation

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// A real SQLite store holding one made-up drive along a great circle from `from` to `to`: a fix
/// every `stepS` seconds and a reading at evenly spaced fixes, one per given temperature, each
/// reading carrying `alerts` as an official source's answer. Made for the report's shapes that
/// the bundled Reno → Tahoe drive does not have: a dead-straight road, the antimeridian, the pole.
struct SyntheticTripStore {
    let directory: URL
    let path: String
    let fixes: [Fix]
    let readings: [Reading]

    static let t0 = Date(timeIntervalSince1970: 1_780_000_000)

    /// The point a fraction `f` of the way from `a` to `b` along their great circle.
    static func along(_ a: Coordinate, _ b: Coordinate, _ f: Double) -> Coordinate {
        func vector(_ c: Coordinate) -> (Double, Double, Double) {
            let phi = c.lat * .pi / 180
            let lambda = c.lon * .pi / 180
            return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
        }
        let u = vector(a)
        let v = vector(b)
        let omega = acos(max(-1, min(1, u.0 * v.0 + u.1 * v.1 + u.2 * v.2)))
        let (wa, wb) = omega < 1e-12 ? (1 - f, f) : (sin((1 - f) * omega) / sin(omega), sin(f * omega) / sin(omega))
        let x = wa * u.0 + wb * v.0
        let y = wa * u.1 + wb * v.1
        let z = wa * u.2 + wb * v.2
        return Coordinate(lat: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, lon: atan2(y, x) * 180 / .pi)!
    }

    init(
        label: String, from: Coordinate, to: Coordinate, points: Int, stepS: Double = 1, temperaturesC: [Double],
        alerts: AlertReport? = nil
    ) async throws {
        directory = TestPaths.temporaryDirectory(label)
        path = directory.appendingPathComponent("fixcast.sqlite").path
        let store = try SQLiteStore(path: path)
        var fixes: [Fix] = []
        for i in 0..<points {
            let t = Self.t0.addingTimeInterval(Double(i) * stepS)
            fixes.append(
                Fix(
                    time: t, receivedAt: t, coordinate: Self.along(from, to, Double(i) / Double(points - 1)),
                    mode: .threeD))
        }
        try await store.appendTrackPoints(fixes)
        var readings: [Reading] = []
        for (k, temperature) in temperaturesC.enumerated() {
            let fix = fixes[k * (points - 1) / max(1, temperaturesC.count - 1)]
            guard let t = fix.time else { continue }
            let weather = WeatherReport(
                provider: .openMeteo, fetchedAt: t, coordinate: fix.coordinate,
                current: CurrentConditions(temperatureC: temperature, precipitationMm: 0, weatherCode: 3))
            let reading = Reading(
                time: t, trigger: k == 0 ? .startup : .moved, position: Position(fix: fix),
                place: Place(name: "Place \(k)", source: .offline), weather: weather, alerts: alerts)
            try await store.insertReading(reading)
            readings.append(reading)
        }
        self.fixes = fixes
        self.readings = readings
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
