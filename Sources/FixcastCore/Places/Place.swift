/// Who named a place (CONTRACT.md `place.source`).
public enum PlaceSource: String, Sendable, Hashable {
    /// Reverse geocoding through Nominatim (OpenStreetMap).
    case nominatim
    /// The bundled GeoNames table, nearest populated place.
    case offline
    /// The position itself came from a `--place` search, which named it.
    case search
}

/// The name of where a reading was taken.
public struct Place: Sendable, Hashable {
    public var name: String
    public var region: String?
    public var country: String?
    /// ISO 3166-1 alpha-2, upper case.
    public var countryCode: String?
    public var source: PlaceSource

    /// Every text is capped to `TextCap.placeName` here, where each source's names (Nominatim, a
    /// search, the offline table, the store) become a `Place`.
    public init(
        name: String, region: String? = nil, country: String? = nil, countryCode: String? = nil, source: PlaceSource
    ) {
        self.name = TextCap.capped(name, maxBytes: TextCap.placeName)
        self.region = TextCap.capped(region, maxBytes: TextCap.placeName)
        self.country = TextCap.capped(country, maxBytes: TextCap.placeName)
        self.countryCode = TextCap.capped(countryCode, maxBytes: TextCap.placeName)?.uppercased()
        self.source = source
    }
}

/// Where a search result came from (CONTRACT.md `search --json` `source`).
public enum PlaceMatchSource: String, Sendable, Hashable {
    case openMeteo = "open-meteo"
    case offline
}

/// One answer of a forward search ("a place named …").
public struct PlaceMatch: Sendable, Hashable {
    public var name: String
    public var region: String?
    public var country: String?
    public var countryCode: String?
    public var coordinate: Coordinate
    public var population: Int?
    public var source: PlaceMatchSource

    public init(
        name: String, region: String?, country: String?, countryCode: String?, coordinate: Coordinate,
        population: Int?, source: PlaceMatchSource
    ) {
        // Capped as `Place` is: a search answer's names are outside text too.
        self.name = TextCap.capped(name, maxBytes: TextCap.placeName)
        self.region = TextCap.capped(region, maxBytes: TextCap.placeName)
        self.country = TextCap.capped(country, maxBytes: TextCap.placeName)
        self.countryCode = TextCap.capped(countryCode, maxBytes: TextCap.placeName)?.uppercased()
        self.coordinate = coordinate
        self.population = population
        self.source = source
    }

    /// The place a reading names when its position came from this match.
    public var asPlace: Place {
        Place(name: name, region: region, country: country, countryCode: countryCode, source: .search)
    }
}
