import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

extension TripReportDocument {
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
}
