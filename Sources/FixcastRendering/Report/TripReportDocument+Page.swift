import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

extension TripReportDocument {
    /// The readings' table is inset as the map panel is in the picture above it (its x over the picture's
    /// width, in % of the page's), so the table's edges line up with the map's at any page width.
    static let tableInsetPct = mapPanel.x / width * 100

    static func htmlPage(_ layout: Layout) -> String {
        let input = layout.input
        let w = layout.words
        let title = titleMarkup(layout)
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
}
