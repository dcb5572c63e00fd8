import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Offline names are reused from the store within 1 km, so a warm `fixcast now --offline` does not read
/// and index the bundled table (bench/now.sh: ~70 ms and ~17 MB) for a name it already knows.
@Suite(.scratch)
struct PlaceServiceOfflineCacheTests {
    static let cologne = Coordinate(lat: 50.9373, lon: 6.9592)!

    /// An offline table that cannot load: any answer it gives must have come from the cache.
    static let nowhere = DataFiles(
        environment: ["FIXCAST_DATA_DIR": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent2"], executablePath: nil)
    static var tableIsMissing: Bool {
        if case .failure = OfflinePlaces.load(nowhere) { return true }
        return false
    }

    @Test func theFirstOfflineNameIsSavedAndReusedWithinOneKilometre() async throws {
        let cache = InMemoryPlaceCache()
        let places = PlaceService(reverse: nil, searcher: nil, offline: PlaceTestData.offline, cache: cache)
        let first = await places.place(at: Self.cologne, offline: true)
        #expect(first.place?.source == .offline)
        #expect(await cache.saves == 1)
        let near = await places.place(at: Self.cologne.movedEast(metres: 500), offline: true)
        #expect(near.place == first.place)
        #expect(await cache.saves == 1, "the stored name answered; nothing new to save")
    }

    @Test(.enabled(if: tableIsMissing)) func aStoredOfflineNameNeedsNoTable() async throws {
        let cache = InMemoryPlaceCache()
        let koeln = Place(
            name: "Köln", region: "North Rhine-Westphalia", country: "Germany", countryCode: "DE", source: .offline)
        try await cache.savePlace(koeln, at: Self.cologne, language: PlaceService.offlineCacheKey)
        let places = PlaceService(
            reverse: nil, searcher: nil, offline: OfflinePlaces(dataFiles: Self.nowhere), cache: cache)
        #expect(
            await places.place(at: Self.cologne.movedEast(metres: 800), offline: true) == PlaceOutcome(place: koeln))
        // Beyond 1 km the table is needed, and here it is missing: an issue, not a stale name.
        let far = await places.place(at: Self.cologne.movedEast(metres: 1500), offline: true)
        #expect(far.place == nil)
        #expect(far.issue != nil)
    }

    @Test func aNominatimNameIsNotReusedAsAnOfflineOne() async throws {
        let cache = InMemoryPlaceCache()
        let online = Place(
            name: "Cologne", region: "North Rhine-Westphalia", country: "Germany", countryCode: "DE", source: .nominatim
        )
        try await cache.savePlace(online, at: Self.cologne)
        let places = PlaceService(reverse: nil, searcher: nil, offline: PlaceTestData.offline, cache: cache)
        let outcome = await places.place(at: Self.cologne, offline: true)
        #expect(outcome.place?.source == .offline)
        #expect(outcome.place?.name == "Köln")
    }
}
