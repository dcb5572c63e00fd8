import FixcastCore
import FoundationEssentials

/// Environment and Climate Change Canada's alerts from MSC GeoMet's OGC API (ECCC Data Servers End-use
/// Licence: credit "Environment and Climate Change Canada"): the `weather-alerts` items in a small box
/// around the position, whose polygons the decoder matches to the point. How often is `AlertService`'s
/// job (no more often than `check_min`, as the terms ask of automated access).
/// - SeeAlso: https://api.weather.gc.ca/collections/weather-alerts, https://eccc-msc.github.io/open-data/licence/readme_en/
public struct ECCCAlertSource: AlertSource {
    public static let publicBaseURL = "https://api.weather.gc.ca"
    public static let path = "/collections/weather-alerts/items"
    /// Half the side of the box asked for, in degrees (about 5.5 km north–south): warning areas are
    /// counties and larger, so every one that contains the point crosses it, and few others do.
    public static let boxHalfDegrees = 0.05
    /// The most features asked for in one page (the API's default page is 10); a box this small
    /// crosses a handful.
    public static let pageLimit = 100
    public let id = AlertSourceID.eccc
    public let baseURL: String
    /// `en` or `fr`: the language of the texts.
    public let language: String
    private let http: any HTTPFetching

    public init(baseURL: String = "", language: String = "en", http: any HTTPFetching) {
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: Self.publicBaseURL)
        self.language = language == "fr" ? "fr" : "en"
        self.http = http
    }

    public func url(for c: Coordinate) -> String {
        func d(_ v: Double) -> String { QueryEncoding.decimal(v, places: 4) }
        let h = Self.boxHalfDegrees
        let box = [c.lon - h, max(-90, c.lat - h), c.lon + h, min(90, c.lat + h)].map(d).joined(separator: ",")
        return baseURL + Self.path + "?f=json&lang=" + language + "&bbox=" + box + "&limit=\(Self.pageLimit)"
    }

    public func fetch(at coordinate: Coordinate, ifModifiedSince: String?) async throws(AlertError) -> AlertAnswer {
        let language = language
        return try await AlertHTTP.get(
            url(for: coordinate), accept: "application/geo+json, application/json;q=0.9",
            ifModifiedSince: ifModifiedSince, source: id, http: http
        ) {
            body throws(AlertDecodeFailure) in
            try ECCCAlertDecoder.decode(body, at: coordinate, language: language)
        }
    }
}
