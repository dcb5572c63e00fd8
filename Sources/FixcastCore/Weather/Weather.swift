import FoundationEssentials

/// The weather providers fixcast speaks to (`weather.provider`).
public enum WeatherProviderID: String, Sendable, Hashable, CaseIterable {
    case openMeteo = "open-meteo"
    case openWeatherMap = "openweathermap"
    case metNorway = "metno"
}

/// Current conditions, always in SI/metric units; nil is "unknown", never a made-up zero.
public struct CurrentConditions: Sendable, Hashable {
    public var temperatureC: Double?
    public var feelsLikeC: Double?
    public var humidityPct: Double?
    public var dewPointC: Double?
    public var pressureHpa: Double?
    public var windSpeedMps: Double?
    public var windGustMps: Double?
    public var windDirDeg: Double?
    public var precipitationMm: Double?
    public var cloudCoverPct: Double?
    /// WMO weather interpretation code (Open-Meteo's scale); other providers are mapped onto it.
    public var weatherCode: Int?

    public init(
        temperatureC: Double? = nil, feelsLikeC: Double? = nil, humidityPct: Double? = nil, dewPointC: Double? = nil,
        pressureHpa: Double? = nil, windSpeedMps: Double? = nil, windGustMps: Double? = nil, windDirDeg: Double? = nil,
        precipitationMm: Double? = nil, cloudCoverPct: Double? = nil, weatherCode: Int? = nil
    ) {
        self.temperatureC = temperatureC
        self.feelsLikeC = feelsLikeC
        self.humidityPct = humidityPct
        self.dewPointC = dewPointC
        self.pressureHpa = pressureHpa
        self.windSpeedMps = windSpeedMps
        self.windGustMps = windGustMps
        self.windDirDeg = windDirDeg
        self.precipitationMm = precipitationMm
        self.cloudCoverPct = cloudCoverPct
        self.weatherCode = weatherCode
    }
}

/// Today's range and daylight.
public struct TodaySummary: Sendable, Hashable {
    public var minC: Double?
    public var maxC: Double?
    public var sunrise: Date?
    public var sunset: Date?
    /// Set when the sun neither rises nor sets today (then `sunrise` and `sunset` are nil).
    public var daylight: PolarDaylight?
    /// Set when `minC` and `maxC` cover today only from this time on (`DailyForecast.from`).
    public var from: Date?

    public init(
        minC: Double? = nil, maxC: Double? = nil, sunrise: Date? = nil, sunset: Date? = nil,
        daylight: PolarDaylight? = nil, from: Date? = nil
    ) {
        self.minC = minC
        self.maxC = maxC
        self.sunrise = sunrise
        self.sunset = sunset
        self.daylight = daylight
        self.from = from
    }
}

/// A day without sunrise or sunset (`today.daylight`): the sun stays up, or stays down.
public enum PolarDaylight: String, Sendable, Hashable, CaseIterable {
    case polarDay = "polar_day"
    case polarNight = "polar_night"
}

/// A value fixcast computed because the provider gave none (`weather.derived`, CONTRACT.md); the raw
/// value is the reading JSON's field name.
public enum DerivedValue: String, Sendable, Hashable, CaseIterable {
    case dewPoint = "dew_point_c"
    case feelsLike = "feels_like_c"
    case sunrise
    case sunset
}

/// One day of the forecast; `date` is the local calendar date at the position (`YYYY-MM-DD`).
public struct DailyForecast: Sendable, Hashable {
    public var date: String
    public var minC: Double?
    public var maxC: Double?
    public var weatherCode: Int?
    public var precipitationMm: Double?
    /// Set when the forecast covers the day only from this time on: a provider that gives no past
    /// hours (MET Norway) has today from the current hour, so its range and rain are the rest of the
    /// day's, and are said to be (`from` in the JSON, "from 18:00" on the screen), not passed off as
    /// the whole day's.
    public var from: Date?

    public init(
        date: String, minC: Double? = nil, maxC: Double? = nil, weatherCode: Int? = nil, precipitationMm: Double? = nil,
        from: Date? = nil
    ) {
        self.date = date
        self.minC = minC
        self.maxC = maxC
        self.weatherCode = weatherCode
        self.precipitationMm = precipitationMm
        self.from = from
    }
}

/// A warning issued by the provider's source (where the provider has them).
public struct WeatherAlert: Sendable, Hashable {
    public var title: String
    public var severity: String?
    public var starts: Date?
    public var ends: Date?
    public var source: String?

    public init(title: String, severity: String? = nil, starts: Date? = nil, ends: Date? = nil, source: String? = nil) {
        self.title = title
        self.severity = severity
        self.starts = starts
        self.ends = ends
        self.source = source
    }
}

/// The weather for one position as fetched from one provider, plus how fresh it is.
///
/// `cached` and `stale` are about how this copy reached the reading: served from the store inside
/// the cache lifetime (`cached`), or served because a fresh fetch failed or is backing off (`stale`).
/// They are never hidden: the contract says fixcast must not lie about the age of its data.
public struct WeatherReport: Sendable, Hashable {
    public var provider: WeatherProviderID
    public var fetchedAt: Date
    /// Where the weather was fetched for (the cache and the movement trigger measure from here).
    public var coordinate: Coordinate
    public var cached: Bool
    public var stale: Bool
    public var current: CurrentConditions
    public var today: TodaySummary?
    public var daily: [DailyForecast]
    public var alerts: [WeatherAlert]
    /// Values the provider sent that were dropped as unbelievable or unreadable (`WeatherValueRanges`);
    /// the reading lists each in `errors`. Not stored with the cached report: its values are already nil.
    public var valueProblems: [WeatherValueProblem] = []
    /// The values `WeatherDerivation` computed, in `DerivedValue` order; empty when the provider gave all.
    public var derived: [DerivedValue] = []
    /// Seconds east of UTC of the calendar the report's dates are in (its `daily` rows, `today`): the
    /// time zone the provider answered in, or the one fixcast chose for it; nil when not known. It
    /// says which day a stored report is shown on (`WeatherDayShift`). Kept with the cached report;
    /// not part of the reading JSON.
    public var utcOffsetS: Int?

    /// ±18 h: every real UTC offset is within −12 h and +14 h.
    public static let maxUTCOffsetS = 18 * 3600

    /// `seconds` as a report's `utcOffsetS`, or nil when it is no offset. A range test, not `abs`: the
    /// absolute value of `Int.min` (an API can send -9223372036854775808) does not exist, and traps.
    public static func utcOffset(_ seconds: Int?) -> Int? {
        seconds.flatMap { (-maxUTCOffsetS...maxUTCOffsetS).contains($0) ? $0 : nil }
    }

    public init(
        provider: WeatherProviderID, fetchedAt: Date, coordinate: Coordinate, cached: Bool = false, stale: Bool = false,
        current: CurrentConditions, today: TodaySummary? = nil, daily: [DailyForecast] = [], alerts: [WeatherAlert] = []
    ) {
        self.provider = provider
        self.fetchedAt = fetchedAt
        self.coordinate = coordinate
        self.cached = cached
        self.stale = stale
        self.current = current
        self.today = today
        self.daily = daily
        self.alerts = alerts
    }
}
