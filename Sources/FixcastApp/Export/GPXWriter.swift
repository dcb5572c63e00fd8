import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// GPX 1.1 (https://www.topografix.com/GPX/1/1/): readings as `wpt` (name = the place, the
/// weather under `extensions` in fixcast's namespace), then the track as one `trk` whose
/// `trkseg` breaks wherever the receiver went quiet for more than `segmentGap`.
struct GPXWriter: ExportWriter {
    /// The namespace of fixcast's extension elements (an identifier, not a page to fetch).
    static let namespace = "https://fixcast.invalid/xmlns/gpx/1"
    /// Five minutes without a point starts a new segment: a stop with the engine off, a tunnel,
    /// or fixcast not running; joining across it would draw a straight line that was never driven.
    static let segmentGap: Double = 300

    let language: Language
    var includesTrack: Bool { true }
    private var lastPointTime: Date?
    private var trackOpen = false

    init(language: Language) { self.language = language }

    mutating func begin(_ out: ExportSink) throws(ExportError) {
        try out.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="fixcast" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xmlns:fixcast="\(Self.namespace)" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">

            """)
    }

    mutating func reading(_ r: Reading, at time: Date, _ out: ExportSink) throws(ExportError) {
        guard let p = r.position else { return }  // a waypoint needs a position
        var s = "<wpt lat=\"\(ExportText.number(p.coordinate.lat))\" lon=\"\(ExportText.number(p.coordinate.lon))\">"
        if let alt = p.altitudeM { s += "<ele>\(ExportText.number(alt))</ele>" }
        // The receiver's fix time, as the track's points have (a replayed log's waypoints sit on its
        // track, not on the day it was replayed); a position given by hand goes by the reading's own.
        s += "<time>\(UTCTime.format(time))</time>"
        if let name = r.place?.name { s += "<name>\(ExportText.xml(name))</name>" }
        if let desc = summary(r) { s += "<desc>\(ExportText.xml(desc))</desc>" }
        s += "<type>\(r.trigger.rawValue)</type>"
        if let mode = p.mode { s += "<fix>\(mode.rawValue)</fix>" }
        if let sats = p.satellitesUsed { s += "<sat>\(sats)</sat>" }
        s += "<extensions>"
        s += element("trigger", r.trigger.rawValue)
        s += element("position_source", p.source.rawValue)
        if let place = r.place {
            s += element("place_region", place.region)
            s += element("place_country", place.country)
            s += element("place_country_code", place.countryCode)
            s += element("place_source", place.source.rawValue)
        }
        if let w = r.weather {
            let c = w.current
            s += element("provider", w.provider.rawValue)
            s += element("fetched_at", UTCTime.format(w.fetchedAt))
            s += element("cached", w.cached ? "true" : "false")
            s += element("stale", w.stale ? "true" : "false")
            // CONTRACT.md `derived`: one element per value fixcast computed (the JSON's `weather.derived`).
            for value in w.derived { s += element("derived", value.rawValue) }
            s += number("temperature_c", c.temperatureC)
            s += number("feels_like_c", c.feelsLikeC)
            s += number("humidity_pct", c.humidityPct)
            s += number("dew_point_c", c.dewPointC)
            s += number("pressure_hpa", c.pressureHpa)
            s += number("wind_speed_mps", c.windSpeedMps)
            s += number("wind_gust_mps", c.windGustMps)
            s += number("wind_dir_deg", c.windDirDeg)
            s += number("precipitation_mm", c.precipitationMm)
            s += number("cloud_cover_pct", c.cloudCoverPct)
            s += element("weather_code", c.weatherCode.map { String($0) })
            s += element("description", ExportText.description(w, language: language))
            s += number("today_min_c", w.today?.minC)
            s += number("today_max_c", w.today?.maxC)
        }
        if let a = r.alerts {
            s += element("alerts_covered", a.covered ? "true" : "false")
            if a.covered {
                s += element("alerts_count", String(a.active.count))
                s += element("alerts_max_severity", a.maxSeverity?.rawValue)
                for alert in a.active {
                    s +=
                        "<fixcast:alert severity=\"\(alert.severity.rawValue)\">\(ExportText.xml(alert.event))</fixcast:alert>"
                }
            }
        }
        s += AheadExportFields.gpxExtension(r.ahead)
        for issue in r.errors {
            s +=
                "<fixcast:error component=\"\(issue.component.rawValue)\">\(ExportText.xml(issue.message))</fixcast:error>"
        }
        s += "</extensions></wpt>\n"
        try out.write(s)
    }

    mutating func trackPoint(_ fix: Fix, at time: Date, _ out: ExportSink) throws(ExportError) {
        var s = ""
        if !trackOpen {
            s += "<trk><name>fixcast track</name><trkseg>\n"
            trackOpen = true
        } else if let last = lastPointTime, time.timeIntervalSince(last) > Self.segmentGap {
            s += "</trkseg><trkseg>\n"
        }
        lastPointTime = time
        s += "<trkpt lat=\"\(ExportText.number(fix.coordinate.lat))\" lon=\"\(ExportText.number(fix.coordinate.lon))\">"
        if let alt = fix.altitudeM { s += "<ele>\(ExportText.number(alt))</ele>" }
        s += "<time>\(UTCTime.format(time))</time></trkpt>\n"
        try out.write(s)
    }

    mutating func end(_ out: ExportSink) throws(ExportError) {
        try out.write(trackOpen ? "</trkseg></trk>\n</gpx>\n" : "</gpx>\n")
    }

    private func element(_ name: String, _ value: String?) -> String {
        guard let value else { return "" }
        return "<fixcast:\(name)>\(ExportText.xml(value))</fixcast:\(name)>"
    }

    private func number(_ name: String, _ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return "<fixcast:\(name)>\(ExportText.number(value))</fixcast:\(name)>"
    }

    /// "3.1 °C, Overcast" for map tools that show only `desc`.
    private func summary(_ r: Reading) -> String? {
        guard let w = r.weather else { return nil }
        var parts: [String] = []
        if let t = w.current.temperatureC {
            parts.append("\(ExportText.number(DecimalRounding.rounded(t, places: 1))) °C")
        }
        if let d = ExportText.description(w, language: language) { parts.append(d) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
