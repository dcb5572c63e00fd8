import FixcastTables
import Foundation
import Testing

@testable import FixcastCore

struct MeteoAlarmPlacementTests {
    /// The (valueName, value) geocodes of every entry of a recorded feed, read independently with a regex.
    static func geocodes(_ name: String) throws -> [[AlertGeocode]] {
        let text = String(decoding: try CoreFixtures.bytes(name), as: UTF8.self)
        let entries = text.components(separatedBy: "<entry>").dropFirst()
        let pattern = try NSRegularExpression(
            pattern: "<cap:geocode>\\s*<valueName>([^<]*)</valueName>\\s*<value>([^<]*)</value>")
        return entries.map { entry in
            pattern.matches(in: entry, range: NSRange(entry.startIndex..., in: entry)).map { m in
                AlertGeocode(
                    scheme: String(entry[Range(m.range(at: 1), in: entry)!]),
                    code: String(entry[Range(m.range(at: 2), in: entry)!]))
            }
        }
    }

    static let annecy = Coordinate(lat: 45.8992, lon: 6.1294)!  // Haute-Savoie, NUTS3 FR718 = EMMA_ID FR035
    static let chambery = Coordinate(lat: 45.5646, lon: 5.9178)!  // Savoie, the neighbouring area

    @Test func aFrenchNUTSWarningAppliesInItsAreaAndNotNextDoor() throws {
        let table = try BundledAlertAreaTableTests.table()
        let haute = [AlertGeocode(scheme: "NUTS3", code: "FR718")]
        let inAnnecy = MeteoAlarmPlacement.place(
            polygons: [], geocodes: haute, at: .init(Self.annecy, in: table), table: table)
        #expect(inAnnecy == MeteoAlarmPlacement(verdict: .here, unplacedGeocodes: 0))
        let inChambery = MeteoAlarmPlacement.place(
            polygons: [], geocodes: haute, at: .init(Self.chambery, in: table), table: table)
        #expect(inChambery.verdict == .elsewhere)
    }

    /// Coastal towns the coarse geometry leaves outside every area: a warning for their own area applies
    /// (they were told "no alerts" while it was in force); one for an area farther off does not.
    @Test(arguments: [
        (46.1591, -1.1520, "FR015"),  // La Rochelle, Charente-Maritime
        (48.6493, -2.0257, "FR050"),  // Saint-Malo, Ille-et-Vilaine
        (37.9475, 23.6371, "GR011"),  // Piraeus, Attiki
        (64.1355, -21.8954, "IS001"),  // Reykjavík
    ])
    func aTownInNoAreaTakesTheAreasWithinAFewKm(_ lat: Double, _ lon: Double, _ code: String) throws {
        let table = try BundledAlertAreaTableTests.table()
        let town = try #require(Coordinate(lat: lat, lon: lon))
        #expect(table.areaIndices(containing: town).isEmpty, "the town is in an area after all: no fallback tested")
        let own = MeteoAlarmPlacement.place(
            polygons: [], geocodes: [AlertGeocode(scheme: "EMMA_ID", code: code)], at: .init(town, in: table),
            table: table)
        #expect(own.verdict == .here)
        let far = MeteoAlarmPlacement.place(
            polygons: [], geocodes: [AlertGeocode(scheme: "EMMA_ID", code: "FR035")], at: .init(town, in: table),
            table: table)
        #expect(far.verdict == .elsewhere)
        // The same rule ahead: a sample at the town is in its area.
        #expect(MeteoAlarmFeedFootprints.areaCodes(at: town, table: table).contains(code))
    }

    @Test func theRecordedFeedsGeocodesArePlaced() throws {
        let table = try BundledAlertAreaTableTests.table()
        let france = try Self.geocodes("meteoalarm-atom-france.xml")
        #expect(france.count == 12 && france.allSatisfy { !$0.isEmpty })
        let position = MeteoAlarmPlacement.Position(Self.annecy, in: table)
        var here = 0
        for codes in france {
            let placement = MeteoAlarmPlacement.place(polygons: [], geocodes: codes, at: position, table: table)
            #expect(placement.unplacedGeocodes == 0, "\(codes)")
            #expect(placement.verdict != .areaUnknown)
            if placement.verdict == .here { here += 1 }
        }
        #expect(here >= 1)
    }

    @Test func theUnitedKingdomsAreasAreUnknownAndCounted() throws {
        let table = try BundledAlertAreaTableTests.table()
        let uk = try Self.geocodes("meteoalarm-atom-united-kingdom.xml")
        let london = MeteoAlarmPlacement.Position(Coordinate(lat: 51.5, lon: -0.12)!, in: table)
        #expect(!uk.isEmpty)
        for codes in uk {
            let placement = MeteoAlarmPlacement.place(polygons: [], geocodes: codes, at: london, table: table)
            #expect(placement == MeteoAlarmPlacement(verdict: .areaUnknown, unplacedGeocodes: codes.count))
        }
    }

    @Test func oneUnknownGeocodeBesideAKnownOneIsCountedButStillPlaces() throws {
        let table = try BundledAlertAreaTableTests.table()
        let codes = [AlertGeocode(scheme: "EMMA_ID", code: "XX999"), AlertGeocode(scheme: "EMMA_ID", code: "FR035")]
        let placement = MeteoAlarmPlacement.place(
            polygons: [], geocodes: codes, at: .init(Self.annecy, in: table), table: table)
        #expect(placement == MeteoAlarmPlacement(verdict: .here, unplacedGeocodes: 1))
    }

    @Test func anEntrysOwnPolygonWins() throws {
        let table = try BundledAlertAreaTableTests.table()
        // A small box around Chambéry, filed with Haute-Savoie's geocode: the polygon decides.
        let box: [(lon: Double, lat: Double)] = [(5.8, 45.5), (6.0, 45.5), (6.0, 45.6), (5.8, 45.6), (5.8, 45.5)]
        let haute = [AlertGeocode(scheme: "NUTS3", code: "FR718")]
        let inChambery = MeteoAlarmPlacement.place(
            polygons: [box], geocodes: haute, at: .init(Self.chambery, in: table), table: table)
        #expect(inChambery.verdict == .here)
        let inAnnecy = MeteoAlarmPlacement.place(
            polygons: [box], geocodes: haute, at: .init(Self.annecy, in: table), table: table)
        #expect(inAnnecy.verdict == .elsewhere)
        // A "polygon" of two points is none: the geocode places it.
        let line: [(lon: Double, lat: Double)] = [(5.8, 45.5), (6.0, 45.6)]
        let byCode = MeteoAlarmPlacement.place(
            polygons: [line], geocodes: haute, at: .init(Self.annecy, in: table), table: table)
        #expect(byCode.verdict == .here)
    }

    @Test func polygonsInDegreesAcrossTheAntimeridianAndOnTheirBorder() {
        let fiji: [(lon: Double, lat: Double)] = [(179.5, -17), (-179.5, -17), (-179.5, -16), (179.5, -16)]
        #expect(RingContainment.locate(Coordinate(lat: -16.5, lon: 179.9)!, in: fiji) == .inside)
        #expect(RingContainment.locate(Coordinate(lat: -16.5, lon: -179.9)!, in: fiji) == .inside)
        #expect(RingContainment.locate(Coordinate(lat: -16.5, lon: 179.0)!, in: fiji) == .outside)
        #expect(RingContainment.locate(Coordinate(lat: -16.5, lon: -179.0)!, in: fiji) == .outside)
        #expect(RingContainment.locate(Coordinate(lat: -17, lon: 180)!, in: fiji) == .boundary)
        let nan: [(lon: Double, lat: Double)] = [(0, 0), (.nan, 1), (1, 1)]
        #expect(RingContainment.locate(Coordinate(lat: 0.5, lon: 0.6)!, in: nan) == .outside)
    }

    /// A CAP polygon that zigzags across the antimeridian: each step of more than 180° is unwrapped the
    /// short way round, so its longitude climbs about 179° a vertex, and from 13 vertices its
    /// micro-degrees no longer fit Int32 (a trap, found by the decoders' fuzz campaign in the other
    /// alert sources' rings). Such a ring is no shape on the Earth: not a polygon of the entry, and
    /// outside of everything when asked directly.
    @Test func aRingThatZigzagsAcrossTheAntimeridianIsNoShapeInsteadOfATrap() {
        let zigzag: [(lon: Double, lat: Double)] = (0..<16).map { i in
            (i.isMultiple(of: 2) ? -Double(i) : 180 - Double(i), i.isMultiple(of: 2) ? 10 : 11)
        }
        #expect(RingContainment.locate(Coordinate(lat: 10.5, lon: 0.5)!, in: zigzag) == .outside)
        let text = zigzag.map { "\($0.lat),\($0.lon)" }.joined(separator: " ")
        #expect(MeteoAlarmEntryAreas.ring(text) == nil)
        #expect(MeteoAlarmEntryAreas.ring("10,0 11,1 10,2")?.count == 3)
    }
}
