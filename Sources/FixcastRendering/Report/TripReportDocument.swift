import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

/// Builds the trip report: one self-contained SVG (map panel, weather profile, header, footer),
/// or an HTML page holding that SVG and a table of the readings.
///
/// Self-contained on purpose: no script, no external font, image, stylesheet or link, a generic
/// `font-family` only, so the file opens the same offline, in a mail client or years later, and a
/// place name from an API can do nothing but be text (everything is XML-escaped).
public enum TripReportDocument {
    public static let width = 960.0
    public static let height = 900.0
    static let mapPanel = PlaneRect(x: 20, y: 78, width: 920, height: 480)
    static let plot = PlaneRect(x: 78, y: 610, width: 800, height: 190)
    /// Douglas–Peucker tolerance in pixels: below one pixel a dropped point cannot be seen.
    static let simplifyTolerancePx = 0.7
    /// Colours are grouped into this many steps so runs of segments share one polyline; 48 steps
    /// are finer than a person tells apart along a 4-pixel line.
    static let colourSteps = 48.0

    // MARK: SVG

    /// The report as an SVG document (with its XML declaration).
    public static func svg(_ input: TripReportInput) -> String { document(input, html: false).text }

    /// The report as an HTML page: the SVG inline, then a table of the readings.
    public static func html(_ input: TripReportInput) -> String { document(input, html: true).text }

    /// The SVG or HTML report, and whether the base map's file had damaged records (they were left out;
    /// the caller says so once).
    public static func document(_ input: TripReportInput, html: Bool) -> (text: String, basemapDamaged: Bool) {
        let layout = Layout(input)
        let text =
            html ? htmlPage(layout) : "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement(layout)
        return (text, layout.basemapDamaged)
    }

    /// The title as SVG/HTML text: each place name isolated (`XMLText.isolated`), so a right-to-left
    /// name does not turn the arrow or the date around.
    ///
    /// `fitted` (the drawn title, 22 px bold from x = 20): the two names are cut alike ("…") until the
    /// title fits the page, so a long name no longer pushes the end place and the date off it. The
    /// document's `<title>` and label keep them whole.
    static func titleMarkup(_ l: Layout, fitted: Bool = false) -> String {
        let trip = l.input.tripNumber.map { "\(l.words.trip) \($0): " } ?? ""
        let date = " · " + UTCTime.formatDate(l.start)
        var start = l.startPlace
        var end = l.endPlace
        if fitted {
            // 22 px bold: about a tenth wider than the labels' regular weight.
            let room = width - 40
            while LabelPlacer.textWidth(trip + start + " → " + end + date, fontSize: 22 * 1.1) > room,
                start.count + end.count > 4
            {
                if start.count >= end.count {
                    start = String(start.dropLast(start.hasSuffix("…") ? 2 : 1)) + "…"
                } else {
                    end = String(end.dropLast(end.hasSuffix("…") ? 2 : 1)) + "…"
                }
            }
        }
        return XMLText.escape(trip) + XMLText.isolated(start) + " → " + XMLText.isolated(end) + XMLText.escape(date)
    }

    static func n(_ v: Double) -> String { NumberText.fixed(v, decimals: 1) }

    static func svgElement(_ l: Layout) -> String {
        var s = ""
        s.reserveCapacity(64 * 1024)
        let title = titleMarkup(l)
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
        s +=
            "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" role=\"img\" aria-label=\"\(title)\">\n"
        s += "<title>\(title)</title>\n"
        s += "<defs><linearGradient id=\"fixcast-temperature\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"0\">"
        for (i, c) in ViridisScale.anchors.enumerated() {
            let offset = Double(i) / Double(ViridisScale.anchors.count - 1)
            s += "<stop offset=\"\(NumberText.fixed(offset, decimals: 3))\" stop-color=\"\(c.hex)\"/>"
        }
        s += "</linearGradient></defs>\n"
        s += "<rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"#ffffff\"/>\n"
        header(l, &s)
        mapPanel(l, &s)
        profilePanel(l, &s)
        footer(l, &s)
        s += "</svg>\n"
        return s
    }

    static func header(_ l: Layout, _ s: inout String) {
        var facts = [
            l.display.distance(km: l.totalKm),
            DurationText.text(seconds: l.end.timeIntervalSince(l.start), language: l.input.language),
            l.words.readings(l.input.readings.count),
        ]
        if let range = l.temperatureLabels.text { facts.append(range) }
        facts.append(timeRange(l.start, l.end))
        s +=
            "<text class=\"title\" x=\"20\" y=\"36\" font-size=\"22\" font-weight=\"bold\" fill=\"#1b1f24\">\(titleMarkup(l, fitted: true))</text>\n"
        s +=
            "<text class=\"facts\" x=\"20\" y=\"60\" font-size=\"13\" fill=\"#444c56\">\(XMLText.escape(facts.joined(separator: "  ·  ")))</text>\n"
    }

    /// "2005-09-25 23:52 – 2005-09-26 02:56 UTC", or "… 23:52 – 23:58 UTC" on one day.
    static func timeRange(_ a: Date, _ b: Date) -> String {
        func minutes(_ d: Date) -> String { String(UTCTime.format(d).prefix(16)).replacing("T", with: " ") }
        let from = minutes(a)
        let to = minutes(b)
        let sameDay = from.prefix(10) == to.prefix(10)
        return from + " – " + (sameDay ? String(to.suffix(5)) : to) + " UTC"
    }

    static func halo(_ size: Double) -> String {
        "font-size=\"\(NumberText.fixed(size, decimals: 0))\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\""
    }

    /// "Alert: Blizzard Warning · extreme · 2026-01-05 14:00 – 18:00 UTC · NWS".
    static func alertLabel(_ period: TripAlertPeriod, _ l: Layout) -> String {
        var parts = [
            l.words.alert + ": " + period.alert.event, l.words.severity(period.alert.severity),
            timeRange(period.from, period.to),
        ]
        if let source = period.alert.source, !source.isEmpty { parts.append(source) }
        return parts.joined(separator: " · ")
    }

    static func tick(_ v: Double, step: Double) -> String {
        let decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2
        return NumberText.fixed(v, decimals: decimals)
    }

    static func footer(_ l: Layout, _ s: inout String) {
        let w = l.words
        var providers: [String] = []
        for r in l.input.readings {
            guard let p = r.provider else { continue }
            let name: String
            switch p {
            case .openMeteo: name = "Open-Meteo.com (CC BY 4.0)"
            case .openWeatherMap: name = "OpenWeather"
            case .metNorway: name = "MET Norway (CC BY 4.0)"
            }
            if !providers.contains(name) { providers.append(name) }
        }
        var places: [String] = []
        for r in l.input.readings {
            guard let src = r.placeSource else { continue }
            let name: String
            switch src {
            case .nominatim: name = "© OpenStreetMap contributors (ODbL)"
            case .offline, .search: name = "GeoNames (CC BY 4.0)"
            }
            if !places.contains(name) { places.append(name) }
        }
        if places.isEmpty { places = ["© OpenStreetMap contributors / GeoNames"] }
        let line1 =
            w.weatherData + ": " + (providers.isEmpty ? DisplayUnits.unknown : providers.joined(separator: ", "))
            + "  ·  "
            + w.places + ": " + places.joined(separator: ", ")
        var alertSources: [String] = []
        for period in l.alertPeriods where period.alert.official {
            let name: String
            switch period.alert.source {
            case AlertSourceID.nws.displayName?: name = "NWS (public domain)"
            case AlertSourceID.metalerts.displayName?: name = "MET Norway (CC BY 4.0)"
            case let other?: name = other
            case nil: continue
            }
            if !alertSources.contains(name) { alertSources.append(name) }
        }
        let alertCredit = alertSources.isEmpty ? "" : "  ·  " + w.alerts + ": " + alertSources.joined(separator: ", ")
        let basemapCredit = l.basemapSVG.isEmpty ? "" : "  ·  " + w.mapData + ": Natural Earth (public domain)"
        let line2 = w.map(l.projection) + basemapCredit + alertCredit + "  ·  fixcast " + FixcastInfo.version
        s +=
            "<line x1=\"20\" y1=\"\(n(height - 42))\" x2=\"\(n(width - 20))\" y2=\"\(n(height - 42))\" stroke=\"#d0d7de\"/>\n"
        s +=
            "<text class=\"attribution\" x=\"20\" y=\"\(n(height - 24))\" font-size=\"11\" fill=\"#57606a\">\(XMLText.escape(line1))</text>\n"
        s += "<text x=\"20\" y=\"\(n(height - 9))\" font-size=\"11\" fill=\"#57606a\">\(XMLText.escape(line2))</text>\n"
    }
}
