import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

/// What one report draws: the trip's track (by fix time), its readings, and how to show them.
public struct TripReportInput: Sendable {
    public var points: [TripTrackPoint]
    public var readings: [TripReading]
    public var units: UnitSystem
    public var language: Language
    /// The trip's number in `fixcast trips`, when the report is of one trip (not a --since/--until range).
    public var tripNumber: Int?
    /// The coast, lakes and borders drawn under the track; nil: none (the map is drawn without them).
    public var basemap: BasemapImage?
    /// The forecast made about an hour before, against what each reading met (`AheadCheck.hourBefore`),
    /// drawn on the profile; empty: no ahead forecast checked.
    public var aheadHourBefore: [AheadCheck.Pair]
    /// `report.trip_gap_min`: a gap this long between two points (a --since/--until range over two
    /// trips) is not drawn as driven, nor counted in the distance.
    public var gapMinutes: Double

    public init(
        points: [TripTrackPoint], readings: [TripReading], units: UnitSystem = .metric, language: Language = .en,
        tripNumber: Int? = nil, basemap: BasemapImage? = nil, aheadHourBefore: [AheadCheck.Pair] = [],
        gapMinutes: Double = TripSplitter.defaultGapMinutes
    ) {
        self.aheadHourBefore = aheadHourBefore
        self.gapMinutes = gapMinutes
        self.points = points
        self.readings = readings
        self.units = units
        self.language = language
        self.tripNumber = tripNumber
        self.basemap = basemap
    }
}

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

    // MARK: Model

    /// Everything measured once and drawn by the panels.
    struct Layout {
        let input: TripReportInput
        let words: ReportWords
        let display: DisplayUnits
        let projection: MapProjection
        let fit: PanelFit
        let pixels: [PlanePoint]
        let kept: [Int]
        /// The points that start a stretch after a gap of `gapMinutes` or more (never the first).
        let breaks: Set<Int>
        let cumulativeKm: [Double]
        let timeline: TemperatureTimeline
        let scale: TemperatureColorScale
        /// The readings' temperature range as the header and the legend write it.
        let temperatureLabels: TemperatureRangeLabels
        let readingIndex: [Int]  // nearest track point of each reading, by time
        /// The quantized colour step of each track point (nil: no temperature known).
        let colourStep: [Int?]
        let alertPeriods: [TripAlertPeriod]
        /// The base map's SVG (empty without one) and whether its file had damaged records.
        let basemapSVG: String
        let basemapDamaged: Bool
        let times: [Date]
        let start: Date
        let end: Date

        init(_ input: TripReportInput) {
            self.input = input
            words = ReportWords(input.language)
            display = DisplayUnits(input.units)
            let coordinates = input.points.map(\.coordinate)
            // Fitted to the track; readings without a track (none drawn) cannot widen the map.
            let projection = MapProjection.fitting(
                coordinates.isEmpty ? input.readings.compactMap(\.coordinate) : coordinates)
            self.projection = projection
            let projected = coordinates.map(projection.project)
            fit = PanelFit(
                points: projected.isEmpty ? input.readings.compactMap(\.coordinate).map(projection.project) : projected,
                panel: TripReportDocument.mapPanel, margin: 36, projection: projection)
            pixels = projected.map(fit.pixel)
            if let basemap = input.basemap {
                let found = basemap.lines(in: BasemapLayer.viewBoxes(fit))
                basemapSVG = BasemapLayer.svg(found.lines, fit: fit, clipID: "fixcast-map-clip")
                basemapDamaged = found.damaged
            } else {
                basemapSVG = ""
                basemapDamaged = false
            }
            let times = input.points.map(\.time)
            // Where a new trip would begin, by the trips' own rule (`TripSplitter`); never the first point.
            var splitting = TripSplitter.Splitting(gapMinutes: input.gapMinutes)
            var breaks = Set<Int>()
            for (i, t) in times.enumerated() where splitting.add(t.timeIntervalSince1970) && i > 0 { breaks.insert(i) }
            self.breaks = breaks
            cumulativeKm = TrackDistance.cumulativeKm(coordinates, breaks: breaks)
            let timeline = TemperatureTimeline(
                input.readings.compactMap { r in r.temperatureC.map { .init(time: r.time, value: $0) } })
            self.timeline = timeline
            let scale = TemperatureColorScale(temperaturesC: timeline.samples.map(\.value))
            self.scale = scale
            temperatureLabels = TemperatureRangeLabels(temperaturesC: timeline.samples.map(\.value), display: display)
            self.times = times
            let readingIndex = input.readings.map { Layout.nearestIndex(of: $0.time, in: times) }
            self.readingIndex = readingIndex
            let colourStep = times.map { t in
                timeline.value(at: t).map { v -> Int in
                    let f = scale.fraction(v)
                    return Int((max(0, min(1, f.isNaN ? 0 : f)) * TripReportDocument.colourSteps).rounded())
                }
            }
            self.colourStep = colourStep
            // Simplified within each stretch between readings and colour changes, so the profile has
            // every reading and the track changes colour where the temperature does.
            var anchors = readingIndex
            for i in colourStep.indices.dropFirst() where colourStep[i] != colourStep[i - 1] { anchors.append(i) }
            // Both ends of a gap stay, so the line breaks exactly there.
            for i in breaks { anchors += [i - 1, i] }
            kept = DouglasPeucker.simplify(
                pixels, tolerance: TripReportDocument.simplifyTolerancePx, keeping: anchors)
            alertPeriods = TripAlertPeriod.collect(input.readings)
            start = input.points.first?.time ?? input.readings.first?.time ?? Date(timeIntervalSince1970: 0)
            end = input.points.last?.time ?? input.readings.last?.time ?? start
        }

        static func nearestIndex(of time: Date, in times: [Date]) -> Int {
            guard !times.isEmpty else { return 0 }
            var lo = 0
            var hi = times.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if times[mid] <= time { lo = mid } else { hi = mid }
            }
            return abs(times[lo].timeIntervalSince(time)) <= abs(times[hi].timeIntervalSince(time)) ? lo : hi
        }

        var totalKm: Double { cumulativeKm.last ?? 0 }

        func km(at time: Date) -> Double {
            guard !cumulativeKm.isEmpty else { return 0 }
            return cumulativeKm[Layout.nearestIndex(of: time, in: times)]
        }

        func readingPixel(_ i: Int) -> PlanePoint? {
            if let c = input.readings[i].coordinate { return fit.pixel(c) }
            return pixels.isEmpty ? nil : pixels[readingIndex[i]]
        }

        /// The named places at the trip's ends: the first and last reading that has a name.
        var startPlace: String {
            input.readings.first { $0.placeName?.isEmpty == false }?.placeName ?? words.unknownPlace
        }
        var endPlace: String { input.readings.last { $0.placeName?.isEmpty == false }?.placeName ?? words.unknownPlace }

        func displayTemperature(_ c: Double) -> Double {
            input.units == .metric ? c : UnitConversion.fahrenheit(celsius: c)
        }
        func displayDistance(_ km: Double) -> Double { input.units == .metric ? km : UnitConversion.miles(km: km) }
        func displayPrecipitation(_ mm: Double) -> Double {
            input.units == .metric ? mm : UnitConversion.inches(millimetres: mm)
        }
        var distanceUnit: String { input.units == .metric ? "km" : "mi" }
        var precipitationUnit: String { input.units == .metric ? "mm" : "in" }
    }

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

    /// The readings' table is inset as the map panel is in the picture above it (its x over the picture's
    /// width, in % of the page's), so the table's edges line up with the map's at any page width.
    static let tableInsetPct = mapPanel.x / width * 100

    static func htmlPage(_ layout: Layout) -> String {
        let input = layout.input
        let w = layout.words
        let title = XMLText.escape(titleText(layout))
        var out = """
            <!DOCTYPE html>
            <html lang="\(input.language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>
            body { font-family: sans-serif; margin: 1.5em auto; max-width: 980px; color: #1b1f24; background: #ffffff; }
            svg { width: 100%; height: auto; display: block; }
            table { border-collapse: collapse; width: \(NumberText.fixed(100 - 2 * tableInsetPct, decimals: 3))%; margin: 1.5em \(NumberText.fixed(tableInsetPct, decimals: 3))% 0; font-size: 14px; }
            th, td { border-bottom: 1px solid #d0d7de; padding: 4px 8px; text-align: left; }
            th { background: #f3f5f7; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            span.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; border-radius: 2px; }
            </style>
            </head>
            <body>

            """
        out += svgElement(layout)
        out += "\n<table>\n<thead><tr><th>#</th><th>\(XMLText.escape(w.time))</th><th>\(XMLText.escape(w.place))</th>"
        out += "<th>\(XMLText.escape(w.temperature)) (\(layout.display.temperatureSymbol))</th>"
        out += "<th>\(XMLText.escape(w.precipitation)) (\(layout.precipitationUnit))</th>"
        out += "<th>\(XMLText.escape(w.weather))</th><th>\(XMLText.escape(w.position))</th></tr></thead>\n<tbody>\n"
        for (i, r) in input.readings.enumerated() {
            let temp = r.temperatureC.map { layout.display.temperatureNumber($0) } ?? DisplayUnits.unknown
            let precip =
                r.precipitationMm.map {
                    NumberText.fixed(layout.displayPrecipitation($0), decimals: input.units == .metric ? 1 : 2)
                } ?? DisplayUnits.unknown
            let weather =
                r.weatherCode.flatMap { WMOCode.description($0, language: input.language) } ?? DisplayUnits.unknown
            let alerts = r.alerts.map { $0.event + " (" + w.severity($0.severity) + ")" }.joined(separator: ", ")
            let position =
                r.coordinate.map {
                    NumberText.fixed($0.lat, decimals: 4) + ", " + NumberText.fixed($0.lon, decimals: 4)
                }
                ?? DisplayUnits.unknown
            let when = String(UTCTime.format(r.time).prefix(19)).replacing("T", with: " ")
            out += "<tr class=\"reading\"><td class=\"num\">\(i + 1)</td><td>\(XMLText.escape(when))</td>"
            out +=
                "<td>\(XMLText.escape(r.placeName ?? DisplayUnits.unknown))</td><td class=\"num\">\(XMLText.escape(temp))</td>"
            out += "<td class=\"num\">\(XMLText.escape(precip))</td>"
            out += "<td>\(XMLText.escape(weather + (alerts.isEmpty ? "" : " — " + w.alert + ": " + alerts)))</td>"
            out += "<td>\(XMLText.escape(position))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        out += alertTable(layout)
        out += "</body>\n</html>\n"
        return out
    }

    /// The trip's alerts, each once, most severe first: event, severity (in its colour), period, issuer.
    static func alertTable(_ l: Layout) -> String {
        guard !l.alertPeriods.isEmpty else { return "" }
        let w = l.words
        var out = "<table class=\"alerts\">\n<thead><tr><th>\(XMLText.escape(w.alerts))</th>"
        out += "<th>\(XMLText.escape(w.severityHeading))</th><th>\(XMLText.escape(w.period))</th>"
        out += "<th>\(XMLText.escape(w.issuedBy))</th></tr></thead>\n<tbody>\n"
        for period in l.alertPeriods {
            let colours = AlertColours(period.alert.severity)
            out += "<tr class=\"alert\"><td>\(XMLText.escape(period.alert.event))</td>"
            out +=
                "<td class=\"severity-\(period.alert.severity.rawValue)\"><span class=\"swatch\" style=\"background: \(colours.fill)\"></span>\(XMLText.escape(w.severity(period.alert.severity)))</td>"
            out += "<td>\(XMLText.escape(timeRange(period.from, period.to)))</td>"
            out += "<td>\(XMLText.escape(period.alert.source ?? DisplayUnits.unknown))</td></tr>\n"
        }
        out += "</tbody>\n</table>\n"
        return out
    }

    static func titleText(_ l: Layout) -> String {
        let trip = l.input.tripNumber.map { "\(l.words.trip) \($0): " } ?? ""
        return trip + l.startPlace + " → " + l.endPlace + " · " + UTCTime.formatDate(l.start)
    }

    static func n(_ v: Double) -> String { NumberText.fixed(v, decimals: 1) }

    static func svgElement(_ l: Layout) -> String {
        var s = ""
        s.reserveCapacity(64 * 1024)
        let title = XMLText.escape(titleText(l))
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
            "<text class=\"title\" x=\"20\" y=\"36\" font-size=\"22\" font-weight=\"bold\" fill=\"#1b1f24\">\(XMLText.escape(titleText(l)))</text>\n"
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

    static func mapPanel(_ l: Layout, _ s: inout String) {
        let p = mapPanel
        s += "<g class=\"map\">\n"
        s +=
            "<rect x=\"\(n(p.x))\" y=\"\(n(p.y))\" width=\"\(n(p.width))\" height=\"\(n(p.height))\" fill=\"#f1f4f7\" stroke=\"#c9d1d9\"/>\n"
        if !l.basemapSVG.isEmpty {
            s +=
                "<clipPath id=\"fixcast-map-clip\"><rect x=\"\(n(p.x))\" y=\"\(n(p.y))\" width=\"\(n(p.width))\" height=\"\(n(p.height))\"/></clipPath>\n"
            s += l.basemapSVG
        }
        // The track: a dark casing under the whole line, then runs of segments of one colour.
        if l.kept.count >= 2 {
            // One casing for each stretch between gaps.
            var stretch: [Int] = []
            func casing() {
                guard stretch.count >= 2 else { return }
                s +=
                    "<polyline class=\"casing\" fill=\"none\" stroke=\"#1b1f24\" stroke-opacity=\"0.55\" stroke-width=\"7\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\""
                for i in stretch { s += "\(n(l.pixels[i].x)),\(n(l.pixels[i].y)) " }
                s += "\"/>\n"
            }
            for i in l.kept {
                if l.breaks.contains(i) {
                    casing()
                    stretch = []
                }
                stretch.append(i)
            }
            casing()
            var run: [Int] = [l.kept[0]]
            var runColour: String?
            func flush() {
                guard run.count >= 2, let colour = runColour else { return }
                s +=
                    "<polyline class=\"track\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"4.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\""
                for i in run { s += "\(n(l.pixels[i].x)),\(n(l.pixels[i].y)) " }
                s += "\"/>\n"
            }
            for k in 1..<l.kept.count {
                let a = l.kept[k - 1]
                let b = l.kept[k]
                // A segment takes its first point's colour: the points where it changes are kept.
                let colour = l.colourStep[a].map { ViridisScale.color(at: Double($0) / colourSteps).hex } ?? "#8c959f"
                if l.breaks.contains(b) {
                    // Not driven: the gap between two stretches is left out.
                    flush()
                    run = [b]
                    runColour = nil
                    continue
                }
                if colour != runColour {
                    flush()
                    run = [a]
                    runColour = colour
                }
                run.append(b)
            }
            flush()
        }
        // Legend (bottom left) and scale bar (bottom right), each moved to another corner when the route
        // or its marks would be under it (`MapCorner`): placed first so labels avoid them.
        let route = l.kept.map { l.pixels[$0] }
        // Each reading's marker, once: for the corners here, and drawn and labelled below.
        let readingPixels = l.input.readings.indices.map { l.readingPixel($0) }
        var marks = readingPixels.compactMap { $0 }
        if let first = l.pixels.first, let last = l.pixels.last { marks += [first, last] }
        func legendAt(_ c: MapCorner) -> PlaneRect { c.box(width: 262, height: 52, margin: 10, in: p) }
        let legendCorner =
            MapCorner.least(
                [.bottomLeft, .topLeft, .topRight, .bottomRight], box: legendAt, route: route, marks: marks)
            ?? .bottomLeft
        let legendBox = legendAt(legendCorner)
        s +=
            "<g class=\"legend\"><rect x=\"\(n(legendBox.x))\" y=\"\(n(legendBox.y))\" width=\"\(n(legendBox.width))\" height=\"\(n(legendBox.height))\" rx=\"4\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#c9d1d9\"/>\n"
        let legendTitle = l.words.temperature + " (" + l.display.temperatureSymbol + ")"
        s +=
            "<text x=\"\(n(legendBox.x + 10))\" y=\"\(n(legendBox.y + 16))\" font-size=\"12\" fill=\"#1b1f24\">\(XMLText.escape(legendTitle))</text>\n"
        if l.timeline.isEmpty {
            s +=
                "<text x=\"\(n(legendBox.x + 10))\" y=\"\(n(legendBox.y + 38))\" font-size=\"12\" fill=\"#57606a\">\(XMLText.escape(l.words.noTemperature))</text>\n"
        } else {
            s +=
                "<rect x=\"\(n(legendBox.x + 10))\" y=\"\(n(legendBox.y + 22))\" width=\"160\" height=\"10\" fill=\"url(#fixcast-temperature)\" stroke=\"#57606a\" stroke-width=\"0.5\"/>\n"
            // The readings' range, as the header gives it, each value under its colour.
            let placed = l.temperatureLabels.onBar(l.scale)
            for (i, p) in placed.enumerated() {
                let cls = placed.count == 1 ? "legend-value" : i == 0 ? "legend-low" : "legend-high"
                s +=
                    "<text class=\"\(cls)\" x=\"\(n(legendBox.x + 10 + p.fraction * 160))\" y=\"\(n(legendBox.y + 45))\" font-size=\"11\" text-anchor=\"\(p.anchor)\" fill=\"#1b1f24\">\(XMLText.escape(p.label.text))</text>\n"
            }
            // Start and end marks explained beside the scale.
        }
        s +=
            "<circle cx=\"\(n(legendBox.x + 190))\" cy=\"\(n(legendBox.y + 20))\" r=\"5\" fill=\"#ffffff\" stroke=\"#1b1f24\" stroke-width=\"2.5\"/>"
        s +=
            "<text x=\"\(n(legendBox.x + 199))\" y=\"\(n(legendBox.y + 24))\" font-size=\"11\" fill=\"#1b1f24\">\(XMLText.escape(l.words.start))</text>\n"
        s +=
            "<rect x=\"\(n(legendBox.x + 185))\" y=\"\(n(legendBox.y + 33))\" width=\"10\" height=\"10\" fill=\"#1b1f24\"/>"
        s +=
            "<text x=\"\(n(legendBox.x + 199))\" y=\"\(n(legendBox.y + 42))\" font-size=\"11\" fill=\"#1b1f24\">\(XMLText.escape(l.words.end))</text></g>\n"
        var obstacles = [legendBox]
        // The scale bar is true at the track's middle latitude (Mercator's scale changes with latitude).
        let lats = l.input.points.map(\.coordinate.lat)
        let midLat = ((lats.min() ?? 0) + (lats.max() ?? 0)) / 2
        if let bar = ScaleBar(
            metresPerPixel: l.fit.groundMetresPerPixel(atLatitude: midLat), maxPixels: 150, units: l.input.units)
        {
            func barAt(_ c: MapCorner) -> PlaneRect { c.box(width: bar.pixels + 16, height: 34, margin: 12, in: p) }
            let free = [MapCorner.bottomRight, .topRight, .bottomLeft, .topLeft].filter { $0 != legendCorner }
            let box = barAt(MapCorner.least(free, box: barAt, route: route, marks: marks) ?? .bottomRight)
            let x1 = box.x + 8
            let y = box.y + 26
            obstacles.append(box)
            s +=
                "<g class=\"scale-bar\"><rect x=\"\(n(box.x))\" y=\"\(n(box.y))\" width=\"\(n(box.width))\" height=\"\(n(box.height))\" rx=\"4\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#c9d1d9\"/>"
            s +=
                "<path d=\"M\(n(x1)),\(n(y - 5)) V\(n(y)) H\(n(x1 + bar.pixels)) V\(n(y - 5))\" fill=\"none\" stroke=\"#1b1f24\" stroke-width=\"2\"/>"
            s +=
                "<text x=\"\(n(x1 + bar.pixels / 2))\" y=\"\(n(y - 9))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#1b1f24\">\(XMLText.escape(bar.label))</text></g>\n"
        }
        // Start and end marks.
        if let first = l.pixels.first, let last = l.pixels.last {
            s +=
                "<circle class=\"start\" cx=\"\(n(first.x))\" cy=\"\(n(first.y))\" r=\"7\" fill=\"#ffffff\" stroke=\"#1b1f24\" stroke-width=\"3\"/>\n"
            s +=
                "<rect class=\"end\" x=\"\(n(last.x - 6))\" y=\"\(n(last.y - 6))\" width=\"12\" height=\"12\" fill=\"#1b1f24\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>\n"
        }
        // Reading markers, then their labels: first and last reading first, then the rest in time order.
        var markerPixels: [PlanePoint] = []
        var markerReadings: [Int] = []
        for i in l.input.readings.indices {
            guard let px = readingPixels[i] else { continue }
            markerPixels.append(px)
            markerReadings.append(i)
            let r = l.input.readings[i]
            let fill = r.temperatureC.map { l.scale.color($0).hex } ?? "#8c959f"
            s +=
                "<circle class=\"reading\" cx=\"\(n(px.x))\" cy=\"\(n(px.y))\" r=\"5\" fill=\"\(fill)\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>\n"
        }
        var order = Array(markerPixels.indices)
        if order.count > 2 { order = [order[0], order[order.count - 1]] + order[1..<(order.count - 1)] }
        let placer = LabelPlacer(
            bounds: PlaneRect(x: p.x + 4, y: p.y + 4, width: p.width - 8, height: p.height - 8), fontSize: 12,
            markerRadius: 7, gap: 3, shortLength: 12)
        let candidates: [[String]] = order.map { m in
            let r = l.input.readings[markerReadings[m]]
            let temp = r.temperatureC.map { " " + l.display.temperature($0) } ?? ""
            let name = r.placeName ?? ""
            var texts = [name + temp]
            if let short = placer.shortened(name) { texts.append(short + temp) }
            if !temp.isEmpty { texts.append(String(temp.dropFirst())) }
            return texts
        }
        let labels = placer.place(
            markers: order.map { markerPixels[$0] }, candidates: candidates, obstacles: obstacles, route: route)
        for label in labels {
            s +=
                "<text class=\"label\" x=\"\(n(label.textOrigin.x))\" y=\"\(n(label.textOrigin.y))\" \(halo(12)) fill=\"#1b1f24\">\(XMLText.escape(label.text))</text>\n"
        }
        s += "</g>\n"
    }

    static func profilePanel(_ l: Layout, _ s: inout String) {
        let p = plot
        let w = l.words
        s += "<g class=\"profile\">\n"
        // At least 0.1 (km or mi): a trip that never moved had an axis of 0.001, every tick "0.00".
        let total = max(l.displayDistance(l.totalKm), 0.1)
        let xt = NiceTicks.ticks(low: 0, high: total, count: 8)
        func x(_ km: Double) -> Double { p.x + l.displayDistance(km) / xt.high * p.width }
        // Temperature axis (left): over the readings' and the forecasts' range, widened as the colour
        // scale's is (a flat line is drawn mid-axis, not on the bottom edge).
        let tempsC = l.timeline.samples.map(\.value) + l.input.aheadHourBefore.compactMap(\.sample.temperatureC)
        let range = tempsC.isEmpty ? (low: 0, high: 1) : TemperatureColorScale.range(of: tempsC)
        let yt = NiceTicks.ticks(
            low: l.displayTemperature(range.low), high: l.displayTemperature(range.high), count: 5)
        func y(_ displayTemp: Double) -> Double { p.maxY - (displayTemp - yt.low) / (yt.high - yt.low) * p.height }
        // Precipitation axis (right): at least 1 mm (0.05 in) tall, so a drizzle does not look like a flood.
        let precip =
            l.input.readings.compactMap { $0.precipitationMm.map(l.displayPrecipitation) }
            + l.input.aheadHourBefore.compactMap { $0.sample.precipitationMmH.map(l.displayPrecipitation) }
        let pt = NiceTicks.ticks(low: 0, high: max(precip.max() ?? 0, l.input.units == .metric ? 1 : 0.05), count: 4)
        func yp(_ v: Double) -> Double { p.maxY - v / pt.high * p.height }
        s +=
            "<rect x=\"\(n(p.x))\" y=\"\(n(p.y))\" width=\"\(n(p.width))\" height=\"\(n(p.height))\" fill=\"#fafbfc\" stroke=\"#c9d1d9\"/>\n"
        // Alert periods (official and the provider's), shaded in their severity's colour, most severe
        // first; six labelled periods fill the panel's height, more would cover the line.
        var drawn = 0
        for period in l.alertPeriods where drawn < 6 {
            let from = max(period.from, l.start)
            let to = min(period.to, l.end)
            guard to >= from else { continue }
            drawn += 1
            let colours = AlertColours(period.alert.severity)
            let x1 = x(l.km(at: from))
            let x2 = max(x(l.km(at: to)), x1 + 2)
            s +=
                "<rect class=\"alert alert-\(period.alert.severity.rawValue)\" x=\"\(n(x1))\" y=\"\(n(p.y))\" width=\"\(n(x2 - x1))\" height=\"\(n(p.height))\" fill=\"\(colours.fill)\" fill-opacity=\"0.2\"/>"
            s +=
                "<text class=\"alert-label\" x=\"\(n(x1 + 4))\" y=\"\(n(p.y + 14 + Double(drawn - 1) * 13))\" \(halo(11)) fill=\"\(colours.text)\">\(XMLText.escape(alertLabel(period, l)))</text>\n"
        }
        // Grid and axes.
        for v in NiceTicks.values(step: xt.step, low: xt.low, high: xt.high) {
            let gx = p.x + v / xt.high * p.width
            s +=
                "<line x1=\"\(n(gx))\" y1=\"\(n(p.y))\" x2=\"\(n(gx))\" y2=\"\(n(p.maxY + 4))\" stroke=\"#d8dee4\" stroke-width=\"1\"/>"
            s +=
                "<text x=\"\(n(gx))\" y=\"\(n(p.maxY + 17))\" font-size=\"11\" text-anchor=\"middle\" fill=\"#444c56\">\(tick(v, step: xt.step))</text>\n"
        }
        for v in NiceTicks.values(step: yt.step, low: yt.low, high: yt.high) {
            s +=
                "<line x1=\"\(n(p.x - 4))\" y1=\"\(n(y(v)))\" x2=\"\(n(p.maxX))\" y2=\"\(n(y(v)))\" stroke=\"#d8dee4\" stroke-width=\"1\"/>"
            s +=
                "<text x=\"\(n(p.x - 7))\" y=\"\(n(y(v) + 4))\" font-size=\"11\" text-anchor=\"end\" fill=\"#444c56\">\(tick(v, step: yt.step))</text>\n"
        }
        for v in NiceTicks.values(step: pt.step, low: 0, high: pt.high) {
            s +=
                "<text x=\"\(n(p.maxX + 7))\" y=\"\(n(yp(v) + 4))\" font-size=\"11\" fill=\"#0b5cad\">\(tick(v, step: pt.step))</text>\n"
        }
        let xLabel = w.distance + " (" + l.distanceUnit + ")"
        s +=
            "<text class=\"axis\" x=\"\(n(p.x + p.width / 2))\" y=\"\(n(p.maxY + 36))\" font-size=\"12\" text-anchor=\"middle\" fill=\"#1b1f24\">\(XMLText.escape(xLabel))</text>\n"
        let yLabel = w.temperature + " (" + l.display.temperatureSymbol + ")"
        s +=
            "<text class=\"axis\" transform=\"translate(\(n(p.x - 44)),\(n(p.y + p.height / 2))) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\" fill=\"#1b1f24\">\(XMLText.escape(yLabel))</text>\n"
        let pLabel = w.precipitation + " (" + l.precipitationUnit + ")"
        s +=
            "<text class=\"axis\" transform=\"translate(\(n(p.maxX + 50)),\(n(p.y + p.height / 2))) rotate(90)\" font-size=\"12\" text-anchor=\"middle\" fill=\"#0b5cad\">\(XMLText.escape(pLabel))</text>\n"
        // Precipitation bars at each reading.
        let barWidth = min(12, max(3, p.width / Double(max(1, l.input.readings.count)) * 0.5))
        for (i, r) in l.input.readings.enumerated() {
            guard let mm = r.precipitationMm, mm > 0 else { continue }
            let bx = x(l.cumulativeKm.isEmpty ? 0 : l.cumulativeKm[l.readingIndex[i]])
            let top = yp(l.displayPrecipitation(mm))
            s +=
                "<rect class=\"precipitation\" x=\"\(n(bx - barWidth / 2))\" y=\"\(n(top))\" width=\"\(n(barWidth))\" height=\"\(n(p.maxY - top))\" fill=\"#4493f8\" fill-opacity=\"0.6\"/>\n"
        }
        // Temperature line: the interpolated temperature at the simplified track's points.
        if !l.timeline.isEmpty, !l.kept.isEmpty {
            s +=
                "<polyline class=\"temperature\" fill=\"none\" stroke=\"#cf222e\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\""
            var lastX = -Double.infinity
            let readingPoints = Set(l.readingIndex)
            for i in l.kept {
                guard let t = l.timeline.value(at: l.input.points[i].time) else { continue }
                let px = x(l.cumulativeKm[i])
                // One vertex per half pixel along x is all a line can show; a reading's point always stays.
                if px - lastX < 0.5 && i != l.kept.last && !readingPoints.contains(i) { continue }
                lastX = px
                s += "\(n(px)),\(n(y(l.displayTemperature(t)))) "
            }
            s += "\"/>\n"
            for (i, r) in l.input.readings.enumerated() {
                guard let t = r.temperatureC else { continue }
                let px = x(l.cumulativeKm.isEmpty ? 0 : l.cumulativeKm[l.readingIndex[i]])
                s +=
                    "<circle class=\"profile-reading\" cx=\"\(n(px))\" cy=\"\(n(y(l.displayTemperature(t))))\" r=\"3\" fill=\"\(l.scale.color(t).hex)\" stroke=\"#cf222e\" stroke-width=\"1\"/>"
            }
            s += "\n"
        }
        aheadHourBefore(l, &s, x: x, y: y, yp: yp, barWidth: barWidth)
        // Key.
        s +=
            "<line x1=\"\(n(p.x))\" y1=\"\(n(p.y - 12))\" x2=\"\(n(p.x + 22))\" y2=\"\(n(p.y - 12))\" stroke=\"#cf222e\" stroke-width=\"2\"/>"
        s +=
            "<text x=\"\(n(p.x + 28))\" y=\"\(n(p.y - 8))\" font-size=\"12\" fill=\"#1b1f24\">\(XMLText.escape(w.temperature))</text>"
        s +=
            "<rect x=\"\(n(p.x + 140))\" y=\"\(n(p.y - 18))\" width=\"10\" height=\"12\" fill=\"#4493f8\" fill-opacity=\"0.6\"/>"
        s +=
            "<text x=\"\(n(p.x + 156))\" y=\"\(n(p.y - 8))\" font-size=\"12\" fill=\"#1b1f24\">\(XMLText.escape(w.precipitation))</text>\n"
        if !l.input.aheadHourBefore.isEmpty {
            s +=
                "<line x1=\"\(n(p.x + 270))\" y1=\"\(n(p.y - 12))\" x2=\"\(n(p.x + 292))\" y2=\"\(n(p.y - 12))\" stroke=\"#8250df\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>"
            s +=
                "<text x=\"\(n(p.x + 298))\" y=\"\(n(p.y - 8))\" font-size=\"12\" fill=\"#1b1f24\">\(XMLText.escape(w.forecastHourBefore))</text>\n"
        }
        s += "</g>\n"
    }

    /// The forecast made about an hour before each reading that checked one: its temperature as
    /// open purple diamonds joined by a dashed line, its rain as an outlined bar beside the met one, so
    /// forecast and met can be told apart without colour too.
    static func aheadHourBefore(
        _ l: Layout, _ s: inout String, x: (Double) -> Double, y: (Double) -> Double, yp: (Double) -> Double,
        barWidth: Double
    ) {
        let pairs = l.input.aheadHourBefore
        guard !pairs.isEmpty else { return }
        s += "<g class=\"ahead-checks\">\n"
        var line: [String] = []
        for pair in pairs {
            let px = x(l.km(at: pair.met.time))
            if let mm = pair.sample.precipitationMmH, mm > 0 {
                let top = yp(l.displayPrecipitation(mm))
                s +=
                    "<rect class=\"forecast-precipitation\" x=\"\(n(px + barWidth / 2))\" y=\"\(n(top))\" width=\"\(n(barWidth))\" height=\"\(n(plot.maxY - top))\" fill=\"none\" stroke=\"#8250df\" stroke-width=\"1.5\"/>\n"
            }
            guard let t = pair.sample.temperatureC else { continue }
            let py = y(l.displayTemperature(t))
            line.append("\(n(px)),\(n(py))")
            s +=
                "<path class=\"forecast-temperature\" d=\"M\(n(px)) \(n(py - 4))L\(n(px + 4)) \(n(py))L\(n(px)) \(n(py + 4))L\(n(px - 4)) \(n(py))Z\" fill=\"#ffffff\" stroke=\"#8250df\" stroke-width=\"1.5\"/>"
        }
        if line.count > 1 {
            s +=
                "\n<polyline class=\"forecast-temperature-line\" fill=\"none\" stroke=\"#8250df\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" points=\"\(line.joined(separator: " "))\"/>"
        }
        s += "\n</g>\n"
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
