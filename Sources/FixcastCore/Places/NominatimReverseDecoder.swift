import FixcastText
/// Reads a Nominatim `/reverse?format=jsonv2` body into a `Place`.
///
/// Nominatim answers "nothing here" (open sea, out-of-range coordinates) with HTTP 200 and
/// `{"error":"Unable to geocode"}`; that is a normal outcome (nil), not a failure.
public enum NominatimReverseDecoder {
    /// Why a body could not be read; `detail` is the tail of a sentence.
    public typealias Failure = PlaceDecodeFailure

    /// nil for the "no place here" body; a `Failure` for anything that is not a reverse result.
    public static func decode(_ body: some Collection<UInt8>) throws(Failure) -> Place? {
        let json = try PlaceDecodeFailure.object(body)
        if let error = json["error"], !error.isNull {
            return nil
        }
        guard let address = json["address"]?.objectValue else {
            throw Failure(detail: "no address in the answer")
        }
        var fields: [String: String] = [:]
        for (key, value) in address {
            if let s = value.stringValue { fields[key] = s }
        }
        return NominatimAddress.place(from: fields, source: .nominatim)
    }

    /// The message of an error body (`{"error":"…"}` or `{"error":{"code":400,"message":"…"}}`), for
    /// telling a person why a non-200 answer failed (capped to `TextCap.serverReason`).
    public static func errorMessage(_ body: some Collection<UInt8>) -> String? {
        guard let json = try? JSONValue.parse(body), let error = json["error"] else { return nil }
        return TextCap.capped(error.stringValue ?? error["message"]?.stringValue, maxBytes: TextCap.serverReason)
    }
}
