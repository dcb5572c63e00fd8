import FixcastCore
import FoundationEssentials

/// How `export --since T --until T` read their values (CONTRACT.md: ISO 8601 or `YYYY-MM-DD`).
///
/// A bare date means the whole UTC day: `--since 2026-01-30` starts at its midnight, and
/// `--until 2026-01-30` runs to its last instant, so `--since D --until D` is that day.
public enum ExportTimeRange {
    /// The bound, or nil when `text` is neither ISO 8601 nor `YYYY-MM-DD` (the CLI then exits 2
    /// naming the option).
    public static func parse(_ text: String, isUpperBound: Bool) -> Date? {
        guard let date = UTCTime.parse(text) else { return nil }
        let isDateOnly = text.utf8.count == 10
        return isDateOnly && isUpperBound ? date.addingTimeInterval(86_400 - 0.001) : date
    }
}
