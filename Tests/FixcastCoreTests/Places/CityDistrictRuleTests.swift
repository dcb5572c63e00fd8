import Foundation
import Testing

@testable import FixcastCore

struct CityDistrictRuleTests {
    @Test(arguments: [(3_426_354, 14.0, 15.0), (1_024_621, 8.0, 8.2), (100_000, 2.5, 2.6), (50_000_000, 25.0, 25.0)])
    func radiusGrowsWithPopulation(_ population: Int, _ low: Double, _ high: Double) {
        let r = CityDistrictRule.radiusKm(population: population)
        #expect(r >= low && r <= high)
    }

    @Test func muchLarger() {
        #expect(CityDistrictRule.isMuchLarger(3_426_354, than: 102_338))
        #expect(!CityDistrictRule.isMuchLarger(300_000, than: 100_000))
        #expect(CityDistrictRule.isMuchLarger(5_000, than: CityDistrictRule.population(nil)))
    }

    static let text = """
        fixcast-places\t1
        #countries\t1
        DE\tGermany
        #regions\t2
        Berlin
        Brandenburg
        #places\t5
        @DE\t0
        525244\t134105\tBerlin\t3426354
        525200\t134049\tMitte\t102338
        524997\t134034\tKreuzberg\t153135
        @DE\t1
        523989\t130657\tPotsdam\t140000
        523000\t131000\tDorf

        """

    @Test(arguments: [
        (52.52, 13.405, "Berlin"),  // Mitte's own point, 450 m from Berlin's
        (52.4997, 13.4034, "Berlin"),  // Kreuzberg
        (52.3989, 13.0657, "Potsdam"),  // another region: its own city
        (52.30, 13.10, "Dorf"),  // a village far from any larger place
    ])
    func districtsAreNamedAfterTheirCity(_ lat: Double, _ lon: Double, _ expected: String) throws {
        let table = try OfflinePlaceTable(bytes: Array(Self.text.utf8))
        let q = try #require(Coordinate(lat: lat, lon: lon))
        let hit = try #require(table.settlement(at: q))
        #expect(table.name(hit.row) == expected)
    }

    /// GeoNames' region (admin1) is "England" for London and Epsom alike: their second-level divisions
    /// (Greater London, Surrey) tell a town beside the city from a district of it (real points and
    /// populations; areas 0 and 1 as scripts/build-places.py numbers admin2 names).
    static let england = """
        fixcast-places\t1
        #countries\t1
        GB\tUnited Kingdom
        #regions\t1
        England
        #places\t4
        @GB\t0\t0
        515085\t-1257\tLondon\t8961989
        513833\t-1000\tCroydon\t173314
        @GB\t0\t1
        513305\t-2701\tEpsom\t31489
        @GB\t0
        513500\t-1500\tUnplaced\t1000

        """

    @Test(arguments: [
        (51.3305, -0.2701, "Epsom"),  // 21 km from London's point, within its radius, in Surrey
        (51.3833, -0.1000, "London"),  // Croydon, a borough of Greater London
        (51.3500, -0.1500, "London"),  // a place whose division is not known: the radius decides
    ])
    func aTownInAnotherDivisionKeepsItsName(_ lat: Double, _ lon: Double, _ expected: String) throws {
        let table = try OfflinePlaceTable(bytes: Array(Self.england.utf8))
        let q = try #require(Coordinate(lat: lat, lon: lon))
        let hit = try #require(table.settlement(at: q))
        #expect(table.name(hit.row) == expected)
    }

    @Test func divisionsOnlyRefuseWhenBothAreKnownAndDiffer() {
        #expect(CityDistrictRule.mayContain(cityArea: 3, placeArea: 3))
        #expect(!CityDistrictRule.mayContain(cityArea: 3, placeArea: 4))
        #expect(CityDistrictRule.mayContain(cityArea: .max, placeArea: 4))
        #expect(CityDistrictRule.mayContain(cityArea: 3, placeArea: .max))
    }
}
