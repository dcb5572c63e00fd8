/// Chooses the name a person would give a Nominatim reverse-geocoding result: the most specific
/// settlement in its `address`, not the street or district that `name` often is at high zoom.
///
/// Settlements first, smallest last in the list but preferred in this order because Nominatim fills
/// only one of city/town/village/hamlet for a point; `municipality` covers places that are only an
/// administrative unit. When the point is outside any settlement (a forest, the sea near a coast),
/// suburb, county and state are the last resorts so that a reading still says roughly where it was.
public enum NominatimAddress {
    /// Keys tried for `name`, in order.
    public static let nameKeys = [
        "city", "town", "village", "hamlet", "municipality",
        "suburb", "city_district", "county", "state_district", "state", "region", "province",
    ]
    /// Keys tried for `region` ("state or equivalent").
    public static let regionKeys = ["state", "region", "province", "state_district", "county"]

    /// The place named by `address`; nil when it holds neither a settlement nor any region (e.g. only a
    /// country, or the open sea).
    public static func place(from address: [String: String], source: PlaceSource = .nominatim) -> Place? {
        func value(_ key: String) -> String? {
            guard let v = address[key]?.trimmingWhitespace(), !v.isEmpty else { return nil }
            return v
        }
        guard let nameKey = nameKeys.first(where: { value($0) != nil }), let name = value(nameKey) else { return nil }
        // The region is a level above the name: a place named after its state has that state as region too.
        let region = regionKeys.lazy.compactMap { key in key == nameKey && key != "state" ? nil : value(key) }.first
        return Place(
            name: name, region: region, country: value("country"), countryCode: value("country_code"), source: source)
    }
}
