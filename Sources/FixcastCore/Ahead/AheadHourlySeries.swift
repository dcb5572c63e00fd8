import FoundationEssentials

/// One location's hourly forecast, in SI units, times in UTC (the response's local times with its
/// own `utc_offset_seconds` taken off). A nil value is one the provider did not give or gave out of
/// range; it stays unknown.
public struct AheadHourlySeries: Sendable, Equatable {
    /// The hours, ascending.
    public var times: [Date]
    public var temperatureC: [Double?]
    /// Open-Meteo's `precipitation`: the sum over the hour before each time, so mm in that hour = mm/h.
    public var precipitationMmH: [Double?]
    public var precipitationProbabilityPct: [Double?]
    public var weatherCode: [Int?]
    public var windSpeedMps: [Double?]
    public var windGustMps: [Double?]
    /// Where the wind comes FROM, degrees (meteorological).
    public var windDirDeg: [Double?]

    public init(
        times: [Date], temperatureC: [Double?], precipitationMmH: [Double?], precipitationProbabilityPct: [Double?],
        weatherCode: [Int?], windSpeedMps: [Double?], windGustMps: [Double?], windDirDeg: [Double?]
    ) {
        self.times = times
        self.temperatureC = temperatureC
        self.precipitationMmH = precipitationMmH
        self.precipitationProbabilityPct = precipitationProbabilityPct
        self.weatherCode = weatherCode
        self.windSpeedMps = windSpeedMps
        self.windGustMps = windGustMps
        self.windDirDeg = windDirDeg
    }
}

/// The forecast at one sample's ETA, and the wind against the direction of travel there: the one
/// list of a sample's weather values (`AheadForecast.Sample.conditions`; JSON, store, exports and
/// MQTT read them from here).
public struct AheadConditions: Sendable, Equatable, Hashable {
    public var temperatureC: Double?
    public var precipitationMmH: Double?
    public var precipitationProbabilityPct: Double?
    public var weatherCode: Int?
    public var windSpeedMps: Double?
    public var windGustMps: Double?
    public var windDirDeg: Double?
    /// Positive when the wind blows against the direction of travel.
    public var headwindMps: Double?
    /// Positive when the wind comes from the left of the direction of travel.
    public var crosswindMps: Double?

    /// Every value unknown (a sample the forecast did not reach).
    public init() {}

    public init(
        temperatureC: Double? = nil, precipitationMmH: Double? = nil, precipitationProbabilityPct: Double? = nil,
        weatherCode: Int? = nil, windSpeedMps: Double? = nil, windGustMps: Double? = nil, windDirDeg: Double? = nil,
        headwindMps: Double? = nil, crosswindMps: Double? = nil
    ) {
        self.temperatureC = temperatureC
        self.precipitationMmH = precipitationMmH
        self.precipitationProbabilityPct = precipitationProbabilityPct
        self.weatherCode = weatherCode
        self.windSpeedMps = windSpeedMps
        self.windGustMps = windGustMps
        self.windDirDeg = windDirDeg
        self.headwindMps = headwindMps
        self.crosswindMps = crosswindMps
    }
}

extension AheadHourlySeries {
    /// The values at `eta`: temperature, gust and wind linear in time between the hours around it,
    /// the wind through its u/v components (350° and 10° make 0°, not 180°: a direction is not a
    /// number on a line); precipitation, its probability and the weather code from the hour that
    /// holds the ETA — Open-Meteo's values at hour T are about the hour before T, so the entry at the
    /// first hour at or after the ETA. nil when the ETA is outside the series (no value is made up).
    /// `travelBearingDeg` nil (stationary): no headwind or crosswind.
    public func conditions(at eta: Date, travelBearingDeg: Double?) -> AheadConditions? {
        guard let first = times.first, let last = times.last, eta >= first, eta <= last else { return nil }
        // holding: the first hour ≥ eta; before: the last hour ≤ eta.
        var holding = times.count - 1
        var lo = 0
        var hi = times.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if times[mid] >= eta {
                holding = mid
                hi = mid - 1
            } else {
                lo = mid + 1
            }
        }
        let exact = times[holding] == eta
        let before = exact ? holding : holding - 1
        let after = holding
        let span = times[after].timeIntervalSince(times[before])
        let f = span > 0 ? eta.timeIntervalSince(times[before]) / span : 0

        func linear(_ column: [Double?]) -> Double? {
            guard let a = column[before], let b = column[after] else { return nil }
            return a + (b - a) * f
        }

        var out = AheadConditions()
        out.temperatureC = linear(temperatureC)
        out.windGustMps = linear(windGustMps)
        out.precipitationMmH = precipitationMmH[holding]
        out.precipitationProbabilityPct = precipitationProbabilityPct[holding]
        out.weatherCode = weatherCode[holding]
        if let s0 = windSpeedMps[before], let d0 = windDirDeg[before], let s1 = windSpeedMps[after],
            let d1 = windDirDeg[after]
        {
            let a = WindVector(speedMps: s0, fromDeg: d0)
            let b = WindVector(speedMps: s1, fromDeg: d1)
            let w = WindVector(u: a.u + (b.u - a.u) * f, v: a.v + (b.v - a.v) * f)
            out.windSpeedMps = w.speedMps
            out.windDirDeg = w.fromDeg
            if let bearing = travelBearingDeg {
                out.headwindMps = w.headwindMps(travelBearingDeg: bearing)
                out.crosswindMps = w.crosswindMps(travelBearingDeg: bearing)
            }
        }
        return out
    }
}

/// A wind as the vector it blows along: `u` towards the east, `v` towards the north (m/s).
struct WindVector {
    var u: Double
    var v: Double

    init(u: Double, v: Double) {
        self.u = u
        self.v = v
    }

    /// From a speed and the direction it comes FROM (meteorological): it blows the opposite way.
    init(speedMps: Double, fromDeg: Double) {
        let r = fromDeg * Double.pi / 180
        u = -speedMps * Elementary.sin(r)
        v = -speedMps * Elementary.cos(r)
    }

    var speedMps: Double { (u * u + v * v).squareRoot() }

    /// nil for a calm (no direction).
    var fromDeg: Double? {
        guard speedMps > 1e-9 else { return nil }
        return CompassDegrees.folded(Elementary.atan2(-u, -v) * 180 / Double.pi)
    }

    /// The wind's component against the direction of travel (minus its component along it).
    func headwindMps(travelBearingDeg: Double) -> Double {
        let r = travelBearingDeg * Double.pi / 180
        return -(u * Elementary.sin(r) + v * Elementary.cos(r))
    }

    /// The wind's component towards the traveller's right, i.e. coming from the left.
    func crosswindMps(travelBearingDeg: Double) -> Double {
        let r = travelBearingDeg * Double.pi / 180
        return u * Elementary.cos(r) - v * Elementary.sin(r)
    }
}
