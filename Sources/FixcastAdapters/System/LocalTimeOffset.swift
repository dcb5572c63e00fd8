import FixcastCore
import FoundationEssentials
import Synchronization

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
        rereadZoneEachMinute()
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// The minute (of the wall clock) the zone was last read in.
    private static let zoneReadInMinute = Mutex<Int>(Int.min)

    /// glibc reads the time zone (TZ, /etc/localtime) once per process and never again: a `run` of
    /// weeks kept the zone it started with after `timedatectl set-timezone` (a traveller's laptop
    /// crossing into another zone). `tzset(3)` reads it again (a `stat` when nothing changed); asked
    /// at most once a minute, when something is shown (the screen's minute), so it wakes nothing.
    private static func rereadZoneEachMinute() {
        let minute = Int(time(nil) / 60)
        let due = zoneReadInMinute.withLock { last in
            guard last != minute else { return false }
            last = minute
            return true
        }
        if due { tzset() }
    }

    /// As if a minute had passed since the zone was read (tests: a zone changed under a running process).
    static func forgetZoneRead() {
        zoneReadInMinute.withLock { $0 = Int.min }
    }

    /// Seconds east of UTC now. Prefer `system`: this number is wrong for any other instant once
    /// daylight saving time changes.
    public static func current() -> Int {
        offset(at: Date())
    }
}
