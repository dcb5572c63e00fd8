/// Every setting fixcast has, with the defaults of CONTRACT.md. A config file, `FIXCAST_*`
/// environment variables and command-line options each override the one before.
public struct Settings: Sendable, Hashable {
    public struct GPS: Sendable, Hashable {
        public var host = "127.0.0.1"
        public var port = GPSDAddress.defaultPort
        /// Seconds to wait for one fix (the seed's 8 s: long enough for a warm receiver, short enough to answer).
        public var fixTimeoutS = 8.0
        /// Retries after a timeout; "if there is still no fix after them, the problem isn't time".
        public var fixRetries = 2
        /// A fix implying a faster jump from the last accepted one is held until later fixes agree
        /// (`FixPlausibility`). 600 m/s is above any airliner's ground speed (~300 m/s with a jet
        /// stream behind it), so only a receiver's glitch or a device swap exceeds it.
        public var maxSpeedMps = FixPlausibility.defaultMaxSpeedMps
        public init() {}
    }

    public struct Trigger: Sendable, Hashable {
        /// Weather is fetched again beyond this distance from the last fetch point.
        public var moveKm = 5.0
        public var periodicMin = 30.0
        /// A resume counts only after this long asleep (the seed's foreground gate).
        public var resumeMinAwayS = 30.0
        public init() {}
    }

    public struct Weather: Sendable, Hashable {
        public var provider: WeatherProviderID = .openMeteo
        /// Empty: the provider's public HTTPS endpoint.
        public var baseURL = ""
        public var apiKey = ""
        public var cacheMin = 10.0
        /// Never zero: a forced refresh must not burst the shared API limit.
        public var forcedCacheMin = 1.0
        public init() {}
    }

    public enum PlacesProvider: String, Sendable, Hashable, CaseIterable {
        case nominatim, offline
    }

    public struct Places: Sendable, Hashable {
        public var provider: PlacesProvider = .nominatim
        public var baseURL = ""
        public var searchURL = ""
        public var language = "en"
        public init() {}
    }

    public struct Storage: Sendable, Hashable {
        /// Empty: `$XDG_DATA_HOME/fixcast/fixcast.sqlite`.
        public var path = ""
        public var trackIntervalS = 10.0
        public var trackDistanceM = 50.0
        public init() {}
    }

    public struct Display: Sendable, Hashable {
        public var units: UnitSystem = .metric
        public var lang: Language = .en
        public init() {}
    }

    /// `[alerts]` (CONTRACT.md): official weather alerts where the position is.
    public struct Alerts: Sendable, Hashable {
        public var enabled = true
        public var source: AlertSourceSetting = .auto
        /// Empty: https://api.weather.gov
        public var nwsBaseURL = ""
        /// Empty: https://api.met.no
        public var metAlertsBaseURL = ""
        /// Empty: https://feeds.meteoalarm.org (`MeteoAlarmFeeds.defaultBaseURL`)
        public var meteoAlarmBaseURL = ""
        /// Empty: https://api.weather.gc.ca (MSC GeoMet's OGC API)
        public var ecccBaseURL = ""
        /// MET Norway's stated minimum interval for alerts; never below 1.
        public var checkMin = 10.0
        /// Run via /bin/sh -c once per new alert, the alert's JSON on stdin; empty: none.
        public var command = ""
        public init() {}
    }

    /// `[report]` (CONTRACT.md): how trips are cut.
    public struct Report: Sendable, Hashable {
        /// A gap this long (minutes) without track points starts a new trip: a fuel stop stays
        /// one trip, the drive home after work is another.
        public var tripGapMin = 30.0
        public init() {}
    }

    /// `[mqtt]` (CONTRACT.md "MQTT"): where readings are published and how.
    public struct MQTT: Sendable, Hashable {
        public var enabled = false
        public var host = "127.0.0.1"
        public var port = 1883
        public var tls = false
        /// Empty with `tls`: the system CAs.
        public var caFile = ""
        public var username = ""
        /// A secret: never printed, logged, stored or passed in argv (prefer `FIXCAST_MQTT_PASSWORD`).
        public var password = ""
        /// Empty: the host name, lower case, reduced to [a-z0-9_-] (`DeviceID.fromHostName`).
        public var deviceID = ""
        public var topicPrefix = "fixcast"
        /// Empty: no Home Assistant discovery.
        public var discoveryPrefix = "homeassistant"
        public var qos = 1
        /// Readings waiting for the broker beyond this many: the oldest are dropped (and counted).
        public var outboxMax = 100_000
        public init() {}
    }

    /// `[ahead]` (CONTRACT.md "Weather ahead"): the forecast where the traveller will be.
    public struct Ahead: Sendable, Hashable {
        public var enabled = true
        public var provider: AheadProvider = .openMeteo
        /// Empty: Open-Meteo's public endpoint (the path /v1/forecast is appended).
        public var baseURL = ""
        public var hours = 3.0
        public var stepMin = 15.0
        public var minStepKm = 5.0
        public var refreshMin = 15.0
        /// Empty: no route; the course is followed.
        public var route = ""
        /// Where `route` was set when the config file or the environment set it (nil: `--route` or
        /// none), so that a route that cannot be followed names the line to mend.
        public var routeOrigin: ConfigOrigin?
        public var offRouteM = 500.0
        public var rainMmH = 0.2
        public init() {}
    }

    public var gps = GPS()
    public var trigger = Trigger()
    public var weather = Weather()
    public var places = Places()
    public var storage = Storage()
    public var display = Display()
    public var alerts = Alerts()
    public var report = Report()
    public var mqtt = MQTT()
    public var ahead = Ahead()

    public init() {}
}
