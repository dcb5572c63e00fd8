import FixcastCore
import FoundationEssentials

/// How an `AheadForecast` maps onto its rows (`ahead_forecasts`, `ahead_samples`, `ahead_alerts`)
/// and back.
///
/// Reading back, the store is data from outside too (an older fixcast, another tool, a person with
/// sqlite3): a time outside 1970–2200 or an integer that is no integer (`Int(checked:)`) is unknown,
/// a number outside its physical range (`WeatherValueRanges`) is unknown, and a forecast or sample
/// without a believable time or position is left out rather than shown as a fact.
enum AheadRow {
    static let forecastColumns = [
        "made_at", "basis", "off_route", "from_lat", "from_lon", "from_fix_time", "speed_mps", "speed_source",
        "route_name", "route_remaining_km", "rain_in_min", "rain_at_km", "rain_place", "rain_mm_h",
        "min_temperature_c", "max_gust_mps", "max_precipitation_mm_h",
    ]

    static let sampleColumns = [
        "minutes", "eta", "distance_km", "lat", "lon", "place", "temperature_c", "precipitation_mm_h",
        "precipitation_probability_pct", "weather_code", "wind_speed_mps", "wind_gust_mps", "wind_dir_deg",
        "headwind_mps", "crosswind_mps",
    ]

    static let alertColumns = ["alert_id", "event", "severity", "in_min", "at_km", "place"]

    static func insertSQL(_ table: String, _ columns: [String]) -> String {
        let placeholders = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))"
    }

    /// Children carry the forecast's id and their place in it first.
    static func childInsertSQL(_ table: String, _ columns: [String]) -> String {
        insertSQL(table, ["forecast_id", "seq"] + columns)
    }

    static func selectSQL(_ table: String, _ columns: [String], where condition: String) -> String {
        "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE \(condition)"
    }

    // MARK: Writing

    static func values(of f: AheadForecast) -> [SQLiteValue] {
        [
            .of(f.madeAt), .text(f.basis.rawValue), .of(f.offRoute), .double(f.from.coordinate.lat),
            .double(f.from.coordinate.lon), .of(f.from.fixTime), .of(f.speedMps), .of(f.speedSource?.rawValue),
            .of(f.route?.name), .of(f.route?.remainingKm), .of(f.rain?.inMin), .of(f.rain?.atKm), .of(f.rain?.place),
            .of(f.rain?.mmH), .of(f.worst.minTemperatureC), .of(f.worst.maxGustMps), .of(f.worst.maxPrecipitationMmH),
        ]
    }

    static func values(of s: AheadForecast.Sample) -> [SQLiteValue] {
        [
            .of(s.minutes), .of(s.eta), .of(s.distanceKm), .double(s.coordinate.lat), .double(s.coordinate.lon),
            .of(s.place),
        ] + values(of: s.conditions)
    }

    /// A sample's weather columns, after its place (`sampleColumns` order).
    static func values(of c: AheadConditions) -> [SQLiteValue] {
        [
            .of(c.temperatureC), .of(c.precipitationMmH), .of(c.precipitationProbabilityPct), .of(c.weatherCode),
            .of(c.windSpeedMps), .of(c.windGustMps), .of(c.windDirDeg), .of(c.headwindMps), .of(c.crosswindMps),
        ]
    }

    static func values(of a: AheadForecast.AlertAhead) -> [SQLiteValue] {
        [.text(a.id), .text(a.event), .text(a.severity), .of(a.inMin), .of(a.atKm), .of(a.place)]
    }

    /// `f` as it reads back from its rows, times included. A time is stored as seconds since 1970, and
    /// `Date` keeps seconds since 2001: at today's times the 1970 count has one bit less below the
    /// point, so about half of the times a clock gives (a fraction past the second) come back a bit
    /// off; converted once, a time stays put. Finding a forecast already stored compares this form.
    static func asStored(_ f: AheadForecast) -> AheadForecast {
        var out = f
        out.madeAt = stored(f.madeAt)
        out.from.fixTime = f.from.fixTime.map(stored)
        for i in out.samples.indices { out.samples[i].eta = stored(f.samples[i].eta) }
        return out
    }

    /// `date` as the store keeps it (seconds since 1970) and reads it back.
    static func stored(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970) }

    // MARK: Reading back

    /// The forecast's own row (columns in `forecastColumns` order); nil when it has no believable
    /// time, basis or origin. Samples and alerts are added by the caller.
    static func forecast(_ stmt: SQLiteStatement) -> AheadForecast? {
        guard let madeAt = date(stmt, 0), let basis = stmt.text(1).flatMap(AheadBasis.init(rawValue:)),
            let lat = stmt.number(3), let lon = stmt.number(4), let from = Coordinate(lat: lat, lon: lon)
        else { return nil }
        var route: AheadForecast.Route?
        if stmt.text(8) != nil || !stmt.isNull(9) {
            // A route without a believable remaining length keeps its name; its length is then 0 km.
            route = AheadForecast.Route(name: stmt.text(8), remainingKm: distanceKm(stmt.number(9)) ?? 0)
        }
        var rain: AheadForecast.Rain?
        if let inMin = minutes(stmt.number(10)), let atKm = distanceKm(stmt.number(11)),
            let mmH = checked(stmt.number(13), WeatherValueRanges.precipitation)
        {
            rain = AheadForecast.Rain(inMin: inMin, atKm: atKm, place: stmt.text(12), mmH: mmH)
        }
        return AheadForecast(
            basis: basis, offRoute: stmt.int(2).map { $0 != 0 } ?? false, madeAt: madeAt,
            from: AheadForecast.Origin(coordinate: from, fixTime: date(stmt, 5)),
            speedMps: checked(stmt.number(6), travelSpeed),
            speedSource: stmt.text(7).flatMap(AheadForecast.SpeedSource.init(rawValue:)), route: route, samples: [],
            rain: rain,
            worst: AheadForecast.Worst(
                minTemperatureC: checked(stmt.number(14), WeatherValueRanges.temperature),
                maxGustMps: checked(stmt.number(15), WeatherValueRanges.gust),
                maxPrecipitationMmH: checked(stmt.number(16), WeatherValueRanges.precipitation)))
    }

    /// One sample (columns in `sampleColumns` order); nil without a believable ETA, lead or place.
    static func sample(_ stmt: SQLiteStatement) -> AheadForecast.Sample? {
        guard let minutes = minutes(stmt.number(0)), let eta = date(stmt, 1),
            let distance = distanceKm(stmt.number(2)), let lat = stmt.number(3), let lon = stmt.number(4),
            let coordinate = Coordinate(lat: lat, lon: lon)
        else { return nil }
        return AheadForecast.Sample(
            minutes: minutes, eta: eta, distanceKm: distance, coordinate: coordinate, place: stmt.text(5),
            conditions: AheadConditions(
                temperatureC: checked(stmt.number(6), WeatherValueRanges.temperature),
                precipitationMmH: checked(stmt.number(7), WeatherValueRanges.precipitation),
                precipitationProbabilityPct: checked(stmt.number(8), percent),
                weatherCode: weatherCode(stmt.number(9)),
                windSpeedMps: checked(stmt.number(10), WeatherValueRanges.wind),
                windGustMps: checked(stmt.number(11), WeatherValueRanges.gust),
                windDirDeg: checked(stmt.number(12), direction),
                headwindMps: checked(stmt.number(13), windComponent),
                crosswindMps: checked(stmt.number(14), windComponent)))
    }

    /// One alert ahead (columns in `alertColumns` order); nil without its texts or a believable lead.
    static func alert(_ stmt: SQLiteStatement) -> AheadForecast.AlertAhead? {
        guard let id = stmt.text(0), let event = stmt.text(1), let severity = stmt.text(2),
            let inMin = minutes(stmt.number(3)), let atKm = distanceKm(stmt.number(4))
        else { return nil }
        return AheadForecast.AlertAhead(
            id: id, event: event, severity: severity, inMin: inMin, atKm: atKm, place: stmt.text(5))
    }

    /// Leads ahead: `ahead.hours` is at most 12; two days leaves room and stops 1e300 minutes.
    static let leadMinutes = 0...(48 * 60)
    /// Distances along the way: no trip ahead is longer than the Earth is round.
    static let distance = 0.0...40_075
    /// Travel speeds: an airliner's ground speed is under 300 m/s.
    static let travelSpeed = 0.0...300
    static let percent = 0.0...100
    static let direction = 0.0...360
    /// A head- or crosswind is a part of a gust, so no larger than one in either direction.
    static let windComponent = -WeatherValueRanges.gust.upper...WeatherValueRanges.gust.upper

    static func checked(_ v: Double?, _ range: ClosedRange<Double>) -> Double? {
        guard let v, v.isFinite, range.contains(v) else { return nil }
        return v
    }

    static func checked(_ v: Double?, _ range: WeatherValueRanges.Range) -> Double? {
        checked(v, range.lower...range.upper)
    }

    /// A stored time: a number of seconds inside 1970–2200 (`PlausibleTime`), else unknown.
    static func date(_ stmt: SQLiteStatement, _ column: Int32) -> Date? {
        stmt.number(column).flatMap(PlausibleTime.date)
    }

    static func minutes(_ v: Double?) -> Int? {
        guard let v, let m = Int(checked: v), leadMinutes.contains(m) else { return nil }
        return m
    }

    static func distanceKm(_ v: Double?) -> Double? { checked(v, distance) }

    static func weatherCode(_ v: Double?) -> Int? {
        guard let v, let code = Int(checked: v), WMOCode.description(code, language: .en) != nil else { return nil }
        return code
    }
}
