import FixcastTables

/// Decides when the nearest GeoNames place is really a district of a larger city that should name the
/// position instead: GeoNames lists city sections ("Mitte", "Kreuzberg", "Altstadt Nord") as populated
/// places, and the nearest one would otherwise win over the city whose point is a few hundred metres away.
///
/// A city "contains" points within a radius estimated from its population (8 m × √population, at most
/// 25 km: about 15 km for Berlin, 8 km for Köln, 2.5 km for a town of 100,000 — the order of the real
/// sizes of their built-up areas). The city wins over the nearest place only when it is at least
/// `sizeRatio` times larger and in the same country, region and second-level division (county,
/// département) where the table knows both, so a neighbouring town in its own right (Potsdam beside
/// Berlin, Newark across the Hudson from New York, Epsom in Surrey 21 km from London's point,
/// Boulogne-Billancourt in Hauts-de-Seine beside Paris) keeps its own name.
public enum CityDistrictRule {
    public static let metresPerSqrtPopulation = 8.0
    public static let maximumRadiusKm = 25.0
    /// A district is much smaller than its city; a separate city of similar size keeps its name.
    public static let sizeRatio = 5
    /// Places in the table without a population have fewer than 5,000 people (GeoNames cities1000);
    /// 1,000 is the conservative guess.
    public static let unknownPopulation = 1_000

    public static func population(_ known: Int?) -> Int { known ?? unknownPopulation }

    public static func radiusKm(population: Int) -> Double {
        min(maximumRadiusKm, metresPerSqrtPopulation * Double(max(0, population)).squareRoot() / 1000)
    }

    public static func contains(cityPopulation: Int, distanceKm: Double) -> Bool {
        distanceKm <= radiusKm(population: cityPopulation)
    }

    public static func isMuchLarger(_ city: Int, than place: Int) -> Bool {
        city >= sizeRatio * max(place, 1)
    }

    /// Whether a place may be a district of a city as far as their second-level divisions tell: not when
    /// both are known and differ (Epsom is in Surrey, London in Greater London). Berlin's districts
    /// carry none, as Berlin itself: a division not known says nothing.
    public static func mayContain(cityArea: UInt16, placeArea: UInt16) -> Bool {
        cityArea == placeArea || cityArea == PlaceTableImage.noArea || placeArea == PlaceTableImage.noArea
    }
}
