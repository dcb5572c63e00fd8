import FixcastText
/// Why a place API's body (Nominatim, Open-Meteo geocoding) could not be read; `detail` is the tail of
/// a sentence the provider's error finishes.
public struct PlaceDecodeFailure: Error, Sendable, Hashable {
    public let detail: String

    public init(detail: String) {
        self.detail = detail
    }

    /// The body as a JSON object, or the failure that says why it is not one. Both place APIs answer
    /// with an object, errors included; what is in it is each decoder's business.
    static func object(_ body: some Collection<UInt8>) throws(PlaceDecodeFailure) -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            throw PlaceDecodeFailure(detail: error.summary)
        }
        guard case .object = json else { throw PlaceDecodeFailure(detail: "not a JSON object") }
        return json
    }
}
