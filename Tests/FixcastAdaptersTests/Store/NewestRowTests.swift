import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// "The newest" is the row stored last, not the one with the latest time: a Pi without a real-time
/// clock, or a clock that ran ahead and was set right, stamps rows ahead of the ones that follow, and
/// choosing by time kept showing the old row (`line`, `status`) and made the caches miss.
@Suite(.scratch)
struct NewestRowTests {
    @Test func theReadingStoredLastIsTheLastOneEvenWhenAnEarlierOneIsStampedAhead() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("newest-reading"))
        let ahead = StoreTestData.reading(at: 3 * 3_600, lat: 55.68, lon: 12.57, placeName: "Copenhagen")
        let now = StoreTestData.reading(at: 0, lat: 48.14, lon: 11.58, placeName: "Munich")
        try await store.insertReading(ahead)
        try await store.insertReading(now)
        #expect(try await store.lastReading()?.place?.name == "Munich")
    }

    @Test func theForecastStoredLastIsTheLastOne() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("newest-ahead"))
        _ = try await store.storeAheadForecast(StoreTestData.aheadForecast(at: 3 * 3_600, temperatureC: 9))
        _ = try await store.storeAheadForecast(StoreTestData.aheadForecast(at: 0, temperatureC: 1))
        #expect(try await store.lastAheadForecast()?.samples.first?.temperatureC == 1)
    }
}
