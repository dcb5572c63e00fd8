/// How long a string from outside may be, decided where it enters (issue 23): a reverse-geocoding
/// answer with a 600 KB place name was stored whole, printed as a 1.2 MB line and made a report SVG
/// that `rsvg-convert` could not finish. Every limit is in UTF-8 bytes, because bytes are what the
/// store, the terminal and an SVG parser pay for (a single 80 KB "character" of combining marks is one
/// grapheme), and each is far above what the real thing needs:
///
/// | limit | bytes | the real thing |
/// | --- | --- | --- |
/// | `placeName` | 1,024 | the longest official place names run to ~170 letters (Bangkok's full name; ~500 bytes in Thai) |
/// | `alertLine` | 2,048 | a headline, event, area or URL: NWS `areaDesc` of a large warning lists ~40 counties (~1,000 bytes) |
/// | `alertParagraph` | 16,384 | NWS descriptions and instructions run to ~3,000 characters |
/// | `alertID` | 512 | a CAP identifier or an NWS `urn:oid:` id is under 100 bytes |
/// | `serverReason` | 512 | an API's error reason is a sentence; it is shown cut to 200 characters anyway |
/// | `gpsdString` | 256 | a device path (`/dev/ttyUSB0`) or driver name; gpsd's own path buffer is 128 bytes |
///
/// A cut string ends in "…" (within the limit), so a cut is never mistaken for the whole text.
public enum TextCap {
    public static let placeName = 1_024
    public static let alertLine = 2_048
    public static let alertParagraph = 16_384
    public static let alertID = 512
    public static let serverReason = 512
    public static let gpsdString = 256

    static let ellipsis = "…"

    /// `text` when it fits in `maxBytes` of UTF-8; else its longest prefix that ends on a grapheme
    /// boundary and fits with "…" after it. A first grapheme that alone does not fit (not text, but a
    /// pile of combining marks) is cut on a scalar boundary instead: never inside a UTF-8 sequence.
    public static func capped(_ text: String, maxBytes: Int) -> String {
        if text.utf8.count <= maxBytes { return text }
        let room = maxBytes - ellipsis.utf8.count
        guard room > 0 else { return "" }
        var used = 0
        var end = text.startIndex
        for c in text {
            let n = c.utf8.count
            if used + n > room { break }
            used += n
            end = text.index(after: end)
        }
        if end == text.startIndex {
            // No whole grapheme fits: whole scalars, as many as fit.
            var scalars = String.UnicodeScalarView()
            for s in text.unicodeScalars {
                let n = UTF8.width(s)
                if used + n > room { break }
                used += n
                scalars.append(s)
            }
            return String(scalars) + ellipsis
        }
        return String(text[..<end]) + ellipsis
    }

    /// `capped` for an optional.
    public static func capped(_ text: String?, maxBytes: Int) -> String? {
        text.map { capped($0, maxBytes: maxBytes) }
    }
}
