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

    /// A --since/--until range over two trips drew the 30-minute gap between them as a straight line
    /// driven and counted it in the distance (23.2 km for trips of 1.0 and 12.1 km).
    @Test func aGapBetweenTwoTripsIsNeitherDrawnNorCounted() throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        func stretch(from start: Date, lat: Double, count: Int) -> [TripTrackPoint] {
            (0..<count).map {
                TripTrackPoint(
                    time: start.addingTimeInterval(Double($0) * 60),
                    coordinate: Coordinate(lat: lat + Double($0) * 0.001, lon: 13)!)
            }
        }
        // 10 points (0.999 km), 40 minutes and ~11 km away, 10 more.
        let first = stretch(from: t0, lat: 52, count: 10)
        let second = stretch(from: t0.addingTimeInterval(9 * 60 + 2400), lat: 52.1, count: 10)
        let svg = TripReportDocument.svg(
            TripReportInput(points: first + second, readings: [], units: .metric, language: .en, gapMinutes: 30))
        #expect(svg.contains(">2.0 km  ·  "), "two stretches of 1.0 km, not 13 km: \(svg.prefix(1500))")
        #expect(svg.components(separatedBy: "class=\"casing\"").count - 1 == 2)
        // Under the gap allowed, it is one stretch as before.
        let joined = TripReportDocument.svg(
            TripReportInput(points: first + second, readings: [], units: .metric, language: .en, gapMinutes: 60))
        #expect(joined.components(separatedBy: "class=\"casing\"").count - 1 == 1)
    }
}
