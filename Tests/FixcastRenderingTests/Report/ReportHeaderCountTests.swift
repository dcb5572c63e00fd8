import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering

/// The report's header gives the trip's readings with the noun its count takes: it said
/// "1 readings" and "2 замеров" (one form for every count).
@Suite struct ReportHeaderCountTests {
    static func header(readings count: Int, _ language: Language) -> String {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let points = (0..<10).map { i in
            TripTrackPoint(
                time: t0.addingTimeInterval(Double(i) * 60),
                coordinate: Coordinate(lat: 52 + Double(i) * 0.01, lon: 13)!)
        }
        let readings = (0..<count).map { i in
            TripReading(
                time: t0.addingTimeInterval(Double(i) * 60), coordinate: points[i].coordinate, placeName: "P",
                temperatureC: 3)
        }
        return TripReportDocument.svg(
            TripReportInput(points: points, readings: readings, units: .metric, language: language, tripNumber: 1))
    }

    @Test(arguments: [
        (1, Language.en, "  ·  1 reading  ·  "), (2, .en, "  ·  2 readings  ·  "), (1, .ru, "  ·  1 замер  ·  "),
        (2, .ru, "  ·  2 замера  ·  "), (5, .ru, "  ·  5 замеров  ·  "), (3, .zh, "  ·  3 次读数  ·  "),
    ])
    func theCountTakesItsForm(count: Int, language: Language, expected: String) {
        let svg = Self.header(readings: count, language)
        #expect(svg.contains(expected), "\(svg.prefix(2000))")
    }

    /// A trip that never moved (a receiver on a desk) drew its distance axis from 0 to 0.001: six
    /// ticks all labelled "0.00". Its ticks are now distinct.
    @Test func aTripThatNeverMovedHasADistanceAxisItCanRead() throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let here = Coordinate(lat: 52, lon: 13)!
        let points = (0..<10).map { TripTrackPoint(time: t0.addingTimeInterval(Double($0) * 60), coordinate: here) }
        let svg = TripReportDocument.svg(
            TripReportInput(
                points: points,
                readings: [TripReading(time: t0, coordinate: here, placeName: "Desk", temperatureC: 20)],
                units: .metric, language: .en, tripNumber: 1))
        let profile = try #require(svg.components(separatedBy: "<g class=\"profile\">").last)
        let labels = profile.components(separatedBy: "text-anchor=\"middle\" fill=\"#444c56\">").dropFirst().map {
            String($0.prefix { $0 != "<" })
        }
        #expect(labels.count >= 3, "\(labels)")
        #expect(Set(labels).count == labels.count, "\(labels)")
    }
}
