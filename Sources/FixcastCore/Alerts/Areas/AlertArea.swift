/// One of MeteoAlarm's warning areas, as a warning names it: its geocode (`scheme` EMMA_ID or WARNCELLID,
/// and `code`), the other geocodes that mean the same area (NUTS3, NUTS2, FIPS, WARNCELLID aliases),
/// its country (ISO 3166-1 alpha-2) and its name. Where it lies is the table's business (`AlertAreaTable`).
public struct AlertArea: Sendable, Hashable {
    public let geocode: AlertGeocode
    public let aliases: [AlertGeocode]
    public let country: String
    public let name: String

    public init(geocode: AlertGeocode, aliases: [AlertGeocode], country: String, name: String) {
        self.geocode = geocode
        self.aliases = aliases
        self.country = country
        self.name = name
    }

    public var code: String { geocode.code }
}

/// A CAP geocode: the scheme (`valueName`, such as EMMA_ID or NUTS3) and the code (`value`). The scheme
/// matters: the NUTS3 code DE112 and the EMMA_ID DE112 are different areas.
public struct AlertGeocode: Sendable, Hashable {
    public let scheme: String
    public let code: String

    public init(scheme: String, code: String) {
        self.scheme = scheme
        self.code = code
    }
}
