import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Suite(.scratch) struct CacheStoreTests {
    let berlin = Coordinate(lat: 52.52, lon: 13.405)!

    func store() throws -> SQLiteStore {
        try SQLiteStore(path: StoreTestData.temporaryStorePath(), readOnly: false, clock: ManualClock(StoreTestData.t0))
    }

    @Test func lastKnownPositionRoundTripsMarkedLastKnown() async throws {
        let s = try store()
        #expect(try await s.lastKnownPosition() == nil)
        let fix = StoreTestData.fix(at: 0)
        var position = Position(fix: fix)
        position.horizontalErrorM = 3.5
        position.satellitesUsed = 7
        try await s.saveLastKnownPosition(Position(fix: StoreTestData.fix(at: -100, lat: 10, lon: 10)))
        try await s.saveLastKnownPosition(position)
        var expected = position
        expected.source = .lastKnown
        #expect(try await s.lastKnownPosition() == expected)
    }

    @Test func lastKnownPositionSurvivesReopening() async throws {
        let path = StoreTestData.temporaryStorePath()
        try await SQLiteStore(path: path).saveLastKnownPosition(Position(fix: StoreTestData.fix(at: 0)))
        let reopened = try SQLiteStore(path: path)
        #expect(try await reopened.lastKnownPosition()?.coordinate == Coordinate(lat: 52.5, lon: 13.4))
    }

    func report(_ provider: WeatherProviderID, at c: Coordinate, fetched offset: TimeInterval, temp: Double)
        -> WeatherReport
    {
        WeatherReport(
            provider: provider, fetchedAt: StoreTestData.t0.addingTimeInterval(offset), coordinate: c,
            current: CurrentConditions(temperatureC: temp, weatherCode: 2),
            daily: [DailyForecast(date: "2027-01-15", minC: 1, maxC: 2)])
    }

    @Test func weatherNearbyIsFoundAndFarAwayIsNot() async throws {
        let s = try store()
        let r = report(.openMeteo, at: berlin, fetched: 0, temp: 3.5)
        try await s.saveWeather(r)
        // 0.9 km north: inside 1 km.
        let near = Coordinate(lat: 52.52 + 0.9 / 111.2, lon: 13.405)!
        #expect(try await s.latestWeather(provider: .openMeteo, near: near, withinKm: 1) == r)
        // 1.2 km north: outside 1 km, inside the box prefilter's margin.
        let far = Coordinate(lat: 52.52 + 1.2 / 111.2, lon: 13.405)!
        #expect(try await s.latestWeather(provider: .openMeteo, near: far, withinKm: 1) == nil)
        // 1.1 km east (longitude degrees are short at 52°N).
        let east = Coordinate(lat: 52.52, lon: 13.405 + 1.1 / (111.2 * cos(52.52 * .pi / 180)))!
        #expect(try await s.latestWeather(provider: .openMeteo, near: east, withinKm: 1) == nil)
        #expect(try await s.latestWeather(provider: .openMeteo, near: east, withinKm: 1.2) == r)
    }

    /// The report saved last wins, even when a clock set back since stamps it before the one it follows.
    @Test func weatherLookupIsPerProviderAndTheLastSavedWins() async throws {
        let s = try store()
        try await s.saveWeather(report(.openMeteo, at: berlin, fetched: 0, temp: 1))
        try await s.saveWeather(report(.openMeteo, at: berlin, fetched: 600, temp: 2))
        try await s.saveWeather(report(.openMeteo, at: berlin, fetched: 300, temp: 3))
        try await s.saveWeather(report(.metNorway, at: berlin, fetched: 900, temp: 4))
        #expect(try await s.latestWeather(provider: .openMeteo, near: berlin, withinKm: 5)?.current.temperatureC == 3)
        #expect(try await s.latestWeather(provider: .metNorway, near: berlin, withinKm: 5)?.current.temperatureC == 4)
        #expect(try await s.latestWeather(provider: .openWeatherMap, near: berlin, withinKm: 5) == nil)
    }

    @Test func weatherAcrossTheAntimeridianIsFound() async throws {
        let s = try store()
        let west = Coordinate(lat: -16.5, lon: 179.99)!
        try await s.saveWeather(report(.openMeteo, at: west, fetched: 0, temp: 28))
        let east = Coordinate(lat: -16.5, lon: -179.99)!  // about 2.1 km away across the date line
        #expect(try await s.latestWeather(provider: .openMeteo, near: east, withinKm: 5)?.current.temperatureC == 28)
        #expect(try await s.latestWeather(provider: .openMeteo, near: east, withinKm: 1) == nil)
    }

    @Test func weatherNearAPoleIsFound() async throws {
        let s = try store()
        let a = Coordinate(lat: 89.99, lon: 0)!
        try await s.saveWeather(report(.openMeteo, at: a, fetched: 0, temp: -30))
        let b = Coordinate(lat: 89.99, lon: 180)!  // about 2.2 km away over the pole
        #expect(try await s.latestWeather(provider: .openMeteo, near: b, withinKm: 5)?.current.temperatureC == -30)
    }

    @Test func placeLookupPicksTheNearestFromTheSource() async throws {
        let s = try store()
        try await s.savePlace(Place(name: "Mitte", source: .nominatim), at: Coordinate(lat: 52.5200, lon: 13.4050)!)
        try await s.savePlace(
            Place(name: "Kreuzberg", region: "Berlin", country: "Germany", countryCode: "DE", source: .nominatim),
            at: Coordinate(lat: 52.4990, lon: 13.4030)!)
        try await s.savePlace(
            Place(name: "Offline Berlin", source: .offline), at: Coordinate(lat: 52.5000, lon: 13.4030)!)
        let here = Coordinate(lat: 52.5000, lon: 13.4030)!
        let found = try await s.cachedPlace(near: here, withinKm: 5, source: .nominatim)
        #expect(
            found
                == Place(name: "Kreuzberg", region: "Berlin", country: "Germany", countryCode: "DE", source: .nominatim)
        )
        #expect(try await s.cachedPlace(near: here, withinKm: 5, source: .offline)?.name == "Offline Berlin")
        #expect(try await s.cachedPlace(near: here, withinKm: 0.05, source: .nominatim) == nil)
        #expect(try await s.cachedPlace(near: here, withinKm: 5, source: .search) == nil)
    }

    /// Nominatim's "no place here" is kept apart from names (no name lookup finds it), by language and
    /// by when it was said.
    @Test func noPlaceHereIsKeptApartFromNames() async throws {
        let s = try store()
        let sea = Coordinate(lat: 54.5, lon: 7.0)!
        let before = StoreTestData.t0.addingTimeInterval(-60)
        #expect(try await !s.knowsNoPlace(near: sea, withinKm: 1, language: "en", since: before))
        try await s.saveNoPlace(at: sea, language: "en")
        #expect(try await s.knowsNoPlace(near: sea.movedEast(metres: 500), withinKm: 1, language: "en", since: before))
        #expect(
            try await !s.knowsNoPlace(near: sea.movedEast(metres: 5000), withinKm: 1, language: "en", since: before))
        #expect(try await !s.knowsNoPlace(near: sea, withinKm: 1, language: "de", since: before))
        #expect(
            try await !s.knowsNoPlace(
                near: sea, withinKm: 1, language: "en", since: StoreTestData.t0.addingTimeInterval(60)))
        for source in [PlaceSource.nominatim, .offline, .search] {
            #expect(try await s.cachedPlace(near: sea, withinKm: 1, source: source, language: nil) == nil)
        }
    }

    /// A name is served in the language it was asked in: after `places.language` changed from en to ru,
    /// Köln's English name was served for ever within a kilometre of where it was asked. A name saved
    /// without a language (before the column, or the bundled table's) is not served for one.
    @Test func placeNamesAreServedInTheLanguageTheyWereAskedIn() async throws {
        let s = try store()
        let cologne = Coordinate(lat: 50.9373, lon: 6.9592)!
        try await s.savePlace(Place(name: "Cologne", source: .nominatim), at: cologne, language: "en")
        try await s.savePlace(Place(name: "Кёльн", source: .nominatim), at: cologne, language: "ru")
        try await s.savePlace(Place(name: "Köln (before)", source: .nominatim), at: cologne)
        #expect(
            try await s.cachedPlace(near: cologne, withinKm: 1, source: .nominatim, language: "en")?.name == "Cologne")
        #expect(
            try await s.cachedPlace(near: cologne, withinKm: 1, source: .nominatim, language: "ru")?.name == "Кёльн")
        #expect(try await s.cachedPlace(near: cologne, withinKm: 1, source: .nominatim, language: "de") == nil)
        #expect(
            try await s.cachedPlace(near: cologne, withinKm: 1, source: .nominatim) != nil, "no language asked: any")
    }

    @Test func stateSetsReplacesAndDeletes() async throws {
        let s = try store()
        #expect(try await s.state("backoff.open-meteo") == nil)
        try await s.setState("backoff.open-meteo", "2027-01-15T10:00:00Z")
        try await s.setState("backoff.open-meteo", "2027-01-15T11:00:00Z")
        try await s.setState("other", "")
        #expect(try await s.state("backoff.open-meteo") == "2027-01-15T11:00:00Z")
        #expect(try await s.state("other") == "")
        try await s.setState("backoff.open-meteo", nil)
        #expect(try await s.state("backoff.open-meteo") == nil)
    }

    @Test func storeConformsToEveryStoreProtocol() async throws {
        let s = try store()
        let lk: any LastKnownPositionStore = s
        let wc: any WeatherCacheStore = s
        let pc: any PlaceCacheStore = s
        let st: any StateStore = s
        try await st.setState("k", "v")
        #expect(try await st.state("k") == "v")
        #expect(try await lk.lastKnownPosition() == nil)
        #expect(try await wc.latestWeather(provider: .openMeteo, near: berlin, withinKm: 1) == nil)
        #expect(try await pc.cachedPlace(near: berlin, withinKm: 1, source: .nominatim) == nil)
    }

    /// A family of keys by its beginning, and nothing that merely sorts near it.
    @Test func statesByPrefixAreExactlyThatFamily() async throws {
        let s = try store()
        for key in ["a.b?x", "a.b?y", "a.b?", "a.b", "a.c", "a.b!", "a.b?\u{10FFFF}z", "b"] {
            try await s.setState(key, "v:" + key)
        }
        let family = try await s.stateHeads(prefix: "a.b?", length: 100)
        #expect(family.keys.sorted() == ["a.b?", "a.b?x", "a.b?y", "a.b?\u{10FFFF}z"])
        #expect(family["a.b?x"] == "v:a.b?x")
        #expect(try await s.stateHeads(prefix: "zz", length: 100).isEmpty)
        #expect(try await s.stateHeads(prefix: "", length: 100).count == 8)
        // Only the head of each value: a record's time, not its body.
        try await s.setState("a.b?x", "héllo" + String(repeating: "x", count: 100_000))
        #expect(try await s.stateHeads(prefix: "a.b?x", length: 5) == ["a.b?x": "héllo"])
    }
}

@Suite(.scratch) struct NearbyBoxTests {
    @Test func anOrdinaryBoxIsWithinLongitudes() {
        let box = NearbyBox(center: Coordinate(lat: 0, lon: 10)!, km: 11)
        #expect(box.minLat == -0.1 && box.maxLat == 0.1)
        guard case .within(let a, let b) = box.lon else {
            Issue.record("expected .within, got \(String(describing: box.lon))")
            return
        }
        #expect(abs(a - 9.9) < 1e-5 && abs(b - 10.1) < 1e-5)
    }

    @Test func aBoxOverTheAntimeridianWraps() {
        let box = NearbyBox(center: Coordinate(lat: 0, lon: 179.95)!, km: 11)
        guard case .wrapping(let a, let b) = box.lon else {
            Issue.record("expected .wrapping")
            return
        }
        #expect(abs(a - 179.85) < 1e-5 && abs(b - -179.95) < 1e-5)
        let west = NearbyBox(center: Coordinate(lat: 0, lon: -179.95)!, km: 11)
        guard case .wrapping(let c, let d) = west.lon else {
            Issue.record("expected .wrapping")
            return
        }
        #expect(abs(c - 179.95) < 1e-5 && abs(d - -179.85) < 1e-5)
    }

    @Test func aBoxTouchingAPoleTakesEveryLongitude() {
        #expect(NearbyBox(center: Coordinate(lat: 89.99, lon: 0)!, km: 5).lon == nil)
        #expect(NearbyBox(center: Coordinate(lat: -89.99, lon: 0)!, km: 5).lon == nil)
        #expect(NearbyBox(center: Coordinate(lat: 0, lon: 0)!, km: 30_000).lon == nil)
    }

    /// The box never leaves out a point the exact distance would accept.
    @Test(arguments: [0.0, 45.0, 60.0, 75.0, 85.0, -70.0])
    func theBoxHoldsTheWholeCircle(lat: Double) {
        let center = Coordinate(lat: lat, lon: 20)!
        let km = 5.0
        let box = NearbyBox(center: center, km: km)
        for bearing in stride(from: 0.0, to: 360.0, by: 5.0) {
            let p = destination(center, km: km * 0.999, bearingDeg: bearing)
            #expect(p.lat >= box.minLat && p.lat <= box.maxLat)
            if case .within(let a, let b) = box.lon {
                #expect(p.lon >= a && p.lon <= b, "bearing \(bearing) at lat \(lat)")
            }
        }
    }

    private func destination(_ c: Coordinate, km: Double, bearingDeg: Double) -> Coordinate {
        let r = km / GreatCircle.earthRadiusKm
        let th = bearingDeg * .pi / 180
        let p1 = c.lat * .pi / 180
        let l1 = c.lon * .pi / 180
        let p2 = asin(sin(p1) * cos(r) + cos(p1) * sin(r) * cos(th))
        let l2 = l1 + atan2(sin(th) * sin(r) * cos(p1), cos(r) - sin(p1) * sin(p2))
        return Coordinate(lat: p2 * 180 / .pi, lon: l2 * 180 / .pi)!
    }
}
