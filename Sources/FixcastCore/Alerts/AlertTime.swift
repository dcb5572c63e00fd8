import FoundationEssentials

/// Reads an alert's time (onset, expires, ends, sent) and decides whether it is a time at all: an
/// RFC 3339 time between 1970 and 2200 (`PlausibleTime`), else unknown (nil), never made up (issue 24).
/// A CAP message is about the weather of the coming days; a year 0000 or 9999 is a broken or hostile
/// feed, and the latter would be written back as `10000-01-01T…Z`, which is not RFC 3339. 2200 leaves
/// room for "until further notice" values a service might send, far inside what four digits can write.
public enum AlertTime {
    public static func parse(_ text: String?) -> Date? {
        text.flatMap(PlausibleTime.parse)
    }
}
