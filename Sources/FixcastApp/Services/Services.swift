import FixcastAdapters
import FixcastCore
import FoundationEssentials

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
    public let alerts: AlertService
    /// `alerts.command`, ready to run once per new alert (does nothing when the key is empty).
    /// Set anew by `run` on the live screen, to tell its failures on the status line.
    public var alertCommand: AlertCommandRunner
    /// Told what each of `run`'s alert checks found (nil: nothing could be had), and when: `run`
    /// hangs the MQTT publisher's `alert` topic on it.
    public var onAlertsChecked: (@Sendable (AlertReport?, Date) -> Void)?
    /// The weather ahead; nil when `ahead.enabled` is false, `ahead.provider` is none, or the route
    /// file cannot be followed (then `aheadRouteError` says why).
    public let ahead: AheadService?
    public let aheadRouteError: AheadError?

    public init(settings: Settings, environment: [String: String], clock: any WallClock = SystemClock())
        throws(WeatherError)
    {
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
        // One mapping of the bundled place table for the place names, the alerts' country and the
        // samples ahead: each mapping's touched pages count in the process's RSS on their own.
        let offline = OfflinePlaces()
        places = PlaceService.make(
            settings: settings.places, http: http, cache: store, sharedLimit: store, offline: offline, state: store,
            clock: clock)
        alertCommand = AlertCommandRunner(command: settings.alerts.command, environment: environment)
        alerts = AlertService.make(
            settings: settings.alerts, http: http, countries: offline, state: store, clock: clock)
        var ahead: AheadService?
        var aheadRouteError: AheadError?
        if settings.ahead.enabled, settings.ahead.provider != .none {
            do {
                let route = try AheadService.loadRoute(settings.ahead.route, setAt: settings.ahead.routeOrigin)
                ahead = AheadService(
                    settings: settings.ahead, route: route, http: http, store: store, places: offline, clock: clock,
                    alerts: settings.alerts.enabled ? alerts : nil, maxPlausibleMps: settings.gps.maxSpeedMps,
                    cache: WeatherCachePolicy(settings: settings))
            } catch {
                aheadRouteError = error
            }
        }
        self.ahead = ahead
        self.aheadRouteError = aheadRouteError
        let deviceID = DeviceID.resolve(configured: settings.mqtt.deviceID, hostName: HostName.current())
        self.deviceID = deviceID
        let plan = ReadingStorePlan(
            deviceID: deviceID, outboxMax: settings.mqtt.enabled ? settings.mqtt.outboxMax : nil)
        readings = ReadingMaker(
            weather: weather, places: places, store: store, clock: clock,
            alerts: settings.alerts.enabled ? alerts : nil,
            storePlan: plan)
    }
}
