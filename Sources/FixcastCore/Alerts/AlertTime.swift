import FoundationEssentials

/// Reads an alert's time (onset, expires, ends, sent) and decides whether it is a time at all: an
/// RFC 3339 time between 1970 and 2200, else unknown (nil), never made up (issue 24). A CAP message is
/// about the weather of the coming days; a year 0000 or 9999 is a broken or hostile feed, and the
/// latter would be written back as `10000-01-01T…Z`, which is not RFC 3339. 2200 leaves room for
/// "until further notice" values a service might send, far inside what four digits can write.
public enum AlertTime {
    /// 1970-01-01T00:00:00Z: the first moment a time in fixcast's store and JSON can be.
    public static let earliest = Date(timeIntervalSince1970: 0)
    /// 2200-01-01T00:00:00Z (exclusive).
    public static let latest = Date(timeIntervalSince1970: 7_258_118_400)

    public static func parse(_ text: String?) -> Date? {
        guard let text, let date = UTCTime.parse(text), isPlausible(date) else { return nil }
        return date
    }

    public static func isPlausible(_ date: Date) -> Bool {
        date >= earliest && date < latest
    }
}
