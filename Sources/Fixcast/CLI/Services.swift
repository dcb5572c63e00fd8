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
    /// `var`, so `run` can hang the MQTT publisher's wake-up on it (`readings.onStored`).
    public var readings: ReadingMaker
    /// `mqtt.device_id`, else the host name made into one: the middle of every reading's `id`.
    public let deviceID: String

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
        let deviceID = DeviceID.resolve(configured: context.settings.mqtt.deviceID, hostName: HostName.current())
        self.deviceID = deviceID
        let plan = ReadingStorePlan(
            deviceID: deviceID, outboxMax: context.settings.mqtt.enabled ? context.settings.mqtt.outboxMax : nil)
        readings = ReadingMaker(weather: weather, places: places, store: store, clock: clock, storePlan: plan)
    }
}
