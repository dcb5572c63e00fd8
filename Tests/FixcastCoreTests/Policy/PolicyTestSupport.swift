import FixcastCore
import Foundation

/// Shared fixtures for the policy tests: a fixed start time and coordinates a known distance apart.
enum PolicyFixture {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let berlin = Coordinate(lat: 52.52, lon: 13.405)!

    /// A coordinate `km` north of `from` (1° of latitude ≈ 111.195 km on the mean sphere).
    static func north(of from: Coordinate = berlin, km: Double) -> Coordinate {
        Coordinate(lat: from.lat + km / (GreatCircle.earthRadiusKm * Double.pi / 180), lon: from.lon)!
    }

    static func fix(_ c: Coordinate, at t: Date, sats: Int? = 8) -> Position {
        Position(coordinate: c, mode: .threeD, obtainedAt: t, source: .gps, satellitesUsed: sats)
    }

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// The monotonic clock's reading `seconds` after t0: on another origin than the wall clock (as
    /// on a real machine, where it counts from the boot), so a test that mixes the two fails.
    static func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(seconds: monotonicAtT0 + seconds) }

    /// Both clocks `seconds` after t0, as the loop passes them with each event.
    static func at(_ seconds: Double) -> ClockReading { ClockReading(monotonic: at(seconds), wall: at(seconds)) }

    /// The monotonic clock at t0: some hours after the boot.
    static let monotonicAtT0 = 12_345.0
}
