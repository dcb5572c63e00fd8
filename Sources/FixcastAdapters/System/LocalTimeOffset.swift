import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The machine's offset from UTC, for clock times on the display (sunrise, "no fix since 14:05").
///
/// Read through localtime_r(3) so `TZ` and /etc/localtime are honoured without Foundation's time
/// zone database. The offset is asked for each instant shown (`system`), so a time on the other
/// side of a daylight-saving change gets that side's offset; the display code gets the rule and
/// stays pure.
public enum LocalTimeOffset {
    /// The local time zone's rules: the offset at each instant.
    public static let system = UTCOffsetRule(name: "localtime") { offset(at: $0) }

    /// Seconds east of UTC at `date` (CET: 3600, CEST: 7200); 0 when the local time cannot be determined.
    public static func offset(at date: Date) -> Int {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // time_t holds any instant a display shows; outside it there is no local time to ask for.
        guard seconds.isFinite, abs(seconds) < 1e15 else { return 0 }
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// Seconds east of UTC now. Prefer `system`: this number is wrong for any other instant once
    /// daylight saving time changes.
    public static func current() -> Int {
        offset(at: Date())
    }
}
