import FixcastText

/// Reads an Open-Meteo geocoding `/v1/search` body into search matches, best first as the API ranks them.
///
/// The API omits empty fields: no `results` key at all means no match, and a result may lack
/// `population` or `admin1`. An error body is `{"error": true, "reason": "…"}` (sent with HTTP 400).
public enum OpenMeteoGeocodingDecoder {
    /// Why a body could not be read; `detail` is the tail of a sentence.
    public typealias Failure = PlaceDecodeFailure

    public static func decode(_ body: some Collection<UInt8>) throws(Failure) -> [PlaceMatch] {
        let json = try PlaceDecodeFailure.object(body)
        if json["error"]?.boolValue == true {
            throw Failure(detail: json["reason"]?.stringValue ?? "the API reported an error")
        }
        guard let results = json["results"], !results.isNull else { return [] }
        guard let items = results.arrayValue else { throw Failure(detail: "results is not a list") }
        return items.compactMap(match)
    }

    /// A result without a name or valid coordinates is skipped rather than failing the whole search.
    static func match(_ item: JSONValue) -> PlaceMatch? {
        guard let name = item["name"]?.stringValue, !name.isEmpty,
            let lat = item["latitude"]?.doubleValue, let lon = item["longitude"]?.doubleValue,
            let coordinate = Coordinate(lat: lat, lon: lon)
        else { return nil }
        return PlaceMatch(
            name: name, region: item["admin1"]?.stringValue, country: item["country"]?.stringValue,
            countryCode: item["country_code"]?.stringValue, coordinate: coordinate,
            population: item["population"]?.intValue.flatMap { (0...maxPopulation).contains($0) ? $0 : nil },
            source: .openMeteo)
    }

    /// More people than live on Earth is no population (nor is a negative one: -9223372036854775808
    /// trapped the search table's digit grouping); such a value is unknown, as when it is not sent.
    static let maxPopulation = 10_000_000_000

    /// The `reason` of an error body, for telling a person why a non-200 answer failed (capped to
    /// `TextCap.serverReason`).
    public static func errorReason(_ body: some Collection<UInt8>) -> String? {
        guard let json = try? JSONValue.parse(body) else { return nil }
        return TextCap.capped(json["reason"]?.stringValue, maxBytes: TextCap.serverReason)
    }
}
