/// Builds URL query strings whose values are percent-encoded per RFC 3986: everything except the
/// unreserved characters (ALPHA / DIGIT / "-" / "." / "_" / "~") becomes %XX of its UTF-8 bytes.
///
/// The seed app's city search pasted the typed name into the URL as is, so "Saint-Jean & Co" or a
/// name with `#` broke the request; a space becomes %20 (not "+", which some servers keep as a plus).
public enum QueryEncoding {
    public static func encode(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return out
    }

    /// `name=value&…` with every name and value encoded, in the order given.
    public static func query(_ items: [(String, String)]) -> String {
        items.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }

    /// A coordinate in plain decimal degrees with at most 6 decimals (11 cm) and no exponent
    /// ("1e-05" is not a latitude any API accepts).
    public static func degrees(_ value: Double) -> String { decimal(value, places: 6) }

    /// `value` rounded half away from zero to at most `places` decimals (0 to 6), without trailing
    /// zeros or exponent, never "-0": "55.68", "-0.0001", "180". Every number in a query (a weather
    /// API's 4-decimal coordinates, Nominatim's 6) is written by this one rule. A value that is not
    /// finite, or too large to be one, is "0": coordinates are checked before they are asked about,
    /// and no query carries the display's "—".
    public static func decimal(_ value: Double, places: Int) -> String {
        var text = NumberText.fixed(value, decimals: places)
        guard text != DisplayUnits.unknown else { return "0" }
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
