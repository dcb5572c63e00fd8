import FoundationEssentials
import FixcastCore
import FixcastAdapters

/// The adapters one command runs on, built from the settings. The store is optional: when it
/// cannot be opened the command still works and says so (nothing is lost that could be shown).
public struct Services: Sendable {
    public let clock: any WallClock
    public let store: SQLiteStore?
    public let storeIssue: ReadingIssue?
    public let http: CurlHTTPClient
    public let weather: WeatherService
    public let places: PlaceService
    public let readings: ReadingMaker

    public init(settings: Settings, clock: any WallClock = SystemClock()) throws(WeatherError) {
        self.clock = clock
        var store: SQLiteStore?
        var storeIssue: ReadingIssue?
        do {
            store = try SQLiteStore(path: settings.storage.path)
        } catch {
            storeIssue = ReadingIssue(error)
        }
        self.store = store
        self.storeIssue = storeIssue
        let http = CurlHTTPClient()
        self.http = http
        let fetcher = try WeatherProviders.make(settings: settings.weather, http: http, store: store)
        weather = WeatherService(fetcher: fetcher, cache: store, settings: settings, clock: clock)
        places = PlaceService.make(
            settings: settings.places, http: http, cache: store, sharedLimit: store)
        readings = ReadingMaker(weather: weather, places: places, store: store, clock: clock)
    }
}
