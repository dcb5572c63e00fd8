import Foundation
import Testing

@testable import FixcastCore

/// A kept forecast outlives itself once the last of its samples' arrival times has passed.
@Suite struct AheadForecastOutlivedTests {
    let made = UTCTime.parse("2026-12-04T12:00:00Z")!
    let here = Coordinate(lat: 52.52, lon: 13.41)!

    func forecast(minutes: [Int]) -> AheadForecast {
        AheadForecast(
            basis: .course, madeAt: made, from: .init(coordinate: here, fixTime: made), speedMps: 20,
            speedSource: .history,
            samples: minutes.map { m in
                AheadForecast.Sample(
                    minutes: m, eta: made.addingTimeInterval(Double(m) * 60), distanceKm: Double(m) * 1.2,
                    coordinate: here)
            })
    }

    @Test func itCoversUntilItsLastSamplesArrival() {
        let f = forecast(minutes: [15, 30, 45, 60])
        #expect(!f.isOutlived(at: made))
        #expect(!f.isOutlived(at: made.addingTimeInterval(59 * 60)))
        #expect(!f.isOutlived(at: made.addingTimeInterval(60 * 60)), "the last arrival itself is still covered")
        #expect(f.isOutlived(at: made.addingTimeInterval(60 * 60 + 1)))
    }

    @Test func theLatestArrivalCountsWhateverTheOrder() {
        let f = forecast(minutes: [60, 15])
        #expect(!f.isOutlived(at: made.addingTimeInterval(30 * 60)))
    }

    @Test func aForecastWithoutSamplesClaimsNoTime() {
        #expect(!forecast(minutes: []).isOutlived(at: made.addingTimeInterval(86_400)))
    }
}
