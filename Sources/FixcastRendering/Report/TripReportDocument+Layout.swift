import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

extension TripReportDocument {
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
            for (i, p) in input.points.enumerated()
            where splitting.add(p.time.timeIntervalSince1970, at: p.coordinate) && i > 0 {
                breaks.insert(i)
            }
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
}
