import FoundationEssentials
import FixcastCore

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
    public let alerts: AlertService
    /// `alerts.command`, ready to run once per new alert (does nothing when the key is empty).
    public let alertCommand: AlertCommandRunner

    public init(context: CommandContext, clock: any WallClock = SystemClock()) throws(WeatherError) {
        self.clock = clock
        var store: SQLiteStore?
        var storeIssue: ReadingIssue?
        do {
            store = try SQLiteStore(path: context.settings.storage.path)
        } catch {
            storeIssue = ReadingIssue(error)
        }
        self.store = store
        self.storeIssue = storeIssue
        let http = CurlHTTPClient()
        self.http = http
        let fetcher = try WeatherProviders.make(settings: context.settings.weather, http: http, store: store)
        weather = WeatherService(fetcher: fetcher, cache: store, settings: context.settings, clock: clock)
        places = PlaceService.make(
            settings: context.settings.places, http: http, cache: store, sharedLimit: store)
        alertCommand = AlertCommandRunner(command: context.settings.alerts.command, environment: context.environment)
        alerts = AlertService.make(settings: context.settings.alerts, http: http, countries: OfflinePlaces(), state: store, clock: clock)
        readings = ReadingMaker(
            weather: weather, places: places, store: store, clock: clock, alerts: context.settings.alerts.enabled ? alerts : nil)
    }
}
