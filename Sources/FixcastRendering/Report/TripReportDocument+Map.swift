import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

extension TripReportDocument {
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
        let temps = order.map { m in
            l.input.readings[markerReadings[m]].temperatureC.map { " " + l.display.temperature($0) } ?? ""
        }
        let candidates: [[String]] = order.indices.map { k in
            let r = l.input.readings[markerReadings[order[k]]]
            let temp = temps[k]
            let name = r.placeName ?? ""
            var texts = [name + temp]
            if let short = placer.shortened(name) { texts.append(short + temp) }
            if !temp.isEmpty { texts.append(String(temp.dropFirst())) }
            return texts
        }
        let labels = placer.place(
            markers: order.map { markerPixels[$0] }, candidates: candidates, obstacles: obstacles, route: route)
        for label in labels {
            // The name isolated from the temperature after it (`XMLText.isolated`): a right-to-left
            // name would otherwise take the number to its other side ("17 القاهرة °C").
            let temp = temps[label.marker]
            let text =
                !temp.isEmpty && label.text.hasSuffix(temp) && label.text.count > temp.count
                ? XMLText.isolated(String(label.text.dropLast(temp.count))) + XMLText.escape(temp)
                : XMLText.isolated(label.text)
            s +=
                "<text class=\"label\" x=\"\(n(label.textOrigin.x))\" y=\"\(n(label.textOrigin.y))\" \(halo(12)) fill=\"#1b1f24\">\(text)</text>\n"
        }
        s += "</g>\n"
    }
}
