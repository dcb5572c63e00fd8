import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering

/// A trip in one weather (16.8 °C all along, the audit's Fiji run): its temperature line lay on the
/// profile's bottom edge (the axis ran from 16.8 up to 17.8), and the header said "17 … 17 °C" while
/// the legend said "16 … 17" (the colour scale's widened ends). A flat series is now drawn mid-axis,
/// and the header and the legend write the readings' range by one rule.
@Suite struct FlatTemperatureReportTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func svg(_ temperatures: [Double], units: UnitSystem = .metric) -> String {
        let points = temperatures.indices.map { i in
            TripTrackPoint(
                time: t0.addingTimeInterval(Double(i) * 60),
                coordinate: Coordinate(lat: -16.8, lon: 179.3 + Double(i) * 0.01)!)
        }
        let readings = temperatures.enumerated().map { i, c in
            TripReading(time: points[i].time, coordinate: points[i].coordinate, placeName: "Savusavu", temperatureC: c)
        }
        return TripReportDocument.svg(
            TripReportInput(points: points, readings: readings, units: units, language: .en, tripNumber: 1))
    }

    /// The capture groups of every match of `pattern` in `text`.
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let re = try? NSRegularExpression(pattern: pattern) else { return [] }
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            (1..<m.numberOfRanges).compactMap { Range(m.range(at: $0), in: text).map { String(text[$0]) } }
        }
    }

    /// The range the header gives (the fact with the unit), and the legend's labels.
    static func ranges(_ svg: String) -> (header: String?, legend: [String]) {
        let facts = matches(#"class="facts"[^>]*>([^<]*)<"#, in: svg).first?.first ?? ""
        let header = facts.components(separatedBy: "  ·  ").first { $0.hasSuffix("°C") || $0.hasSuffix("°F") }
        let legend = matches(#"class="legend-(?:low|high|value)"[^>]*>([^<]*)<"#, in: svg).compactMap(\.first)
        return (header, legend)
    }

    @Test func aFlatSeriesIsDrawnInTheMiddleOfItsAxis() throws {
        let svg = Self.svg(Array(repeating: 16.8, count: 6))
        let points = try #require(Self.matches(#"class="temperature"[^>]*points="([^"]*)""#, in: svg).first?.first)
        let ys = points.split(separator: " ").compactMap { $0.split(separator: ",").last.flatMap { Double($0) } }
        #expect(!ys.isEmpty)
        let plot = TripReportDocument.plot
        let middle = plot.y + plot.height / 2
        #expect(ys.allSatisfy { abs($0 - middle) < 1 }, "\(ys) against the middle \(middle)")
    }

    @Test(arguments: [
        ([16.8, 16.8, 16.8], UnitSystem.metric, "17 °C", ["17"]),
        ([16.8, 16.8], .imperial, "62 °F", ["62"]),
        ([16.6, 17.1, 16.9], .metric, "17 °C", ["17"]),
        ([16.4, 17.2, 16.8], .metric, "16 … 17 °C", ["16", "17"]),
        ([9.7, 15.2, 20.6], .metric, "10 … 21 °C", ["10", "21"]),
    ])
    func theHeaderAndTheLegendGiveTheSameRange(
        temperatures: [Double], units: UnitSystem, header: String, legend: [String]
    ) {
        let found = Self.ranges(Self.svg(temperatures, units: units))
        #expect(found.header == header)
        #expect(found.legend == legend)
    }

    @Test func aLoneLegendLabelIsUnderItsColourAndTwoNeverMeet() {
        let scale = TemperatureColorScale(temperaturesC: [16.8])
        let one = TemperatureRangeLabels(temperaturesC: [16.8], display: DisplayUnits(.metric)).onBar(scale)
        #expect(one.map(\.anchor) == ["middle"] && one.map(\.fraction) == [0.5])
        // Two close values that round apart: the low one ends and the high one starts at its colour.
        let close = [16.45, 16.55]
        let near = TemperatureRangeLabels(temperaturesC: close, display: DisplayUnits(.metric))
            .onBar(TemperatureColorScale(temperaturesC: close))
        #expect(near.map(\.label.text) == ["16", "17"] && near.map(\.anchor) == ["end", "start"])
        // A wide range: at the bar's ends, each inside it.
        let wide = [3.0, 19.0]
        let ends = TemperatureRangeLabels(temperaturesC: wide, display: DisplayUnits(.metric))
            .onBar(TemperatureColorScale(temperaturesC: wide))
        #expect(ends.map(\.fraction) == [0, 1] && ends.map(\.anchor) == ["start", "end"])
    }

    @Test func aRangeNarrowerThanTheSpanIsWidenedAroundItsMiddle() {
        #expect(FlatRange.widened(low: 16.8, high: 16.8, toAtLeast: 1) == (16.3, 17.3))
        #expect(FlatRange.widened(low: 3, high: 19, toAtLeast: 1) == (3, 19))
        // An axis given one value puts it mid-axis (it was the bottom: 5 … 6).
        let ticks = NiceTicks.ticks(low: 5, high: 5)
        #expect(abs((ticks.low + ticks.high) / 2 - 5) < 1e-9, "\(ticks)")
    }
}
