import FixcastText
import FoundationEssentials

/// One stored track point as the report uses it: when (fix time, else receive time) and where.
public struct TripTrackPoint: Sendable, Hashable {
    public var time: Date
    public var coordinate: Coordinate
    public init(time: Date, coordinate: Coordinate) {
        self.time = time
        self.coordinate = coordinate
    }
}

/// One reading as the report draws it: a marker, a label, a profile sample and a table row.
public struct TripReading: Sendable, Hashable {
    public var time: Date
    public var coordinate: Coordinate?
    public var placeName: String?
    public var placeSource: PlaceSource?
    public var provider: WeatherProviderID?
    public var temperatureC: Double?
    public var precipitationMm: Double?
    public var weatherCode: Int?
    /// Official and provider alerts listed with this reading (`TripAlert.of`).
    public var alerts: [TripAlert]

    public init(
        time: Date, coordinate: Coordinate?, placeName: String? = nil, placeSource: PlaceSource? = nil,
        provider: WeatherProviderID? = nil, temperatureC: Double? = nil, precipitationMm: Double? = nil,
        weatherCode: Int? = nil, alerts: [TripAlert] = []
    ) {
        self.time = time
        self.coordinate = coordinate
        self.placeName = placeName
        self.placeSource = placeSource
        self.provider = provider
        self.temperatureC = temperatureC
        self.precipitationMm = precipitationMm
        self.weatherCode = weatherCode
        self.alerts = alerts
    }

    /// The report's view of a stored reading: at its time in the trip (`at`, which the store works
    /// out; else `Reading.tripTime`, else its own time), with only plausible weather numbers, by the
    /// ranges a reading is stored with (`WeatherValueRanges`: a glitch of 900 °C is not drawn as a fact,
    /// and a 62 °C the exports show is not left out here).
    public init(_ reading: Reading, at tripTime: Date? = nil) {
        let c = reading.weather?.current
        self.init(
            time: tripTime ?? reading.tripTime ?? reading.time, coordinate: reading.position?.coordinate,
            placeName: reading.place?.name, placeSource: reading.place?.source, provider: reading.weather?.provider,
            temperatureC: c?.temperatureC.flatMap { WeatherValueRanges.temperature.contains($0) ? $0 : nil },
            precipitationMm: c?.precipitationMm.flatMap { WeatherValueRanges.precipitation.contains($0) ? $0 : nil },
            weatherCode: c?.weatherCode, alerts: TripAlert.of(reading))
    }
}

/// One line of `fixcast trips`: a trip's extent, length, places, readings and temperature range.
public struct TripSummary: Sendable, Hashable {
    public var number: Int
    public var start: Date
    public var end: Date
    public var distanceKm: Double
    public var startPlace: String?
    public var endPlace: String?
    public var readings: Int
    public var minC: Double?
    public var maxC: Double?
    /// The checks of the trip's ahead forecasts against what its readings met.
    public var aheadChecks: AheadCheck.Summary

    public init(
        number: Int, start: Date, end: Date, distanceKm: Double, startPlace: String?, endPlace: String?, readings: Int,
        minC: Double?, maxC: Double?, aheadChecks: AheadCheck.Summary = .none
    ) {
        self.aheadChecks = aheadChecks
        self.number = number
        self.start = start
        self.end = end
        self.distanceKm = distanceKm
        self.startPlace = startPlace
        self.endPlace = endPlace
        self.readings = readings
        self.minC = minC
        self.maxC = maxC
    }

    public var durationS: Double { end.timeIntervalSince(start) }

    /// CONTRACT.md `trips --json`: `{"trip", "start", "end", "distance_km", "duration_s",
    /// "start_place", "end_place", "readings", "min_c", "max_c", "ahead_checks"}`.
    public func json() -> JSONValue {
        .object([
            ("trip", .int(number)),
            ("start", .string(UTCTime.format(start))),
            ("end", .string(UTCTime.format(end))),
            ("distance_km", .double((distanceKm * 100).rounded() / 100)),
            ("duration_s", Int(checked: durationS, rounding: .toNearestOrAwayFromZero).map { .int($0) } ?? .null),
            ("start_place", .string(startPlace)),
            ("end_place", .string(endPlace)),
            ("readings", .int(readings)),
            ("min_c", .number(minC)),
            ("max_c", .number(maxC)),
            ("ahead_checks", aheadChecks.json),
        ])
    }
}

/// Durations as people read them: "2 h 05 min", "14 min", "40 s".
public enum DurationText {
    /// `45 s`, `12 min`, `3 h 05 min`, with the units' short words in `language` (the report's header).
    public static func text(seconds: Double, language: Language = .en) -> String {
        guard seconds >= 0, let s = Int(checked: seconds, rounding: .toNearestOrAwayFromZero) else {
            return DisplayUnits.unknown
        }
        let (sec, min, hour) = (
            language.pick("s", "с", "秒"), language.pick("min", "мин", "分钟"), language.pick("h", "ч", "小时")
        )
        if s < 60 { return "\(s) \(sec)" }
        let m = s / 60
        if m < 60 { return "\(m) \(min)" }
        let mm = m % 60
        return "\(m / 60) \(hour) " + (mm < 10 ? "0" : "") + "\(mm) \(min)"
    }
}
