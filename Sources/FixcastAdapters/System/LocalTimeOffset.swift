#if canImport(Glibc)
    import Glibc
#endif

/// The machine's offset from UTC now, for clock times on the display (sunrise, "no fix since 14:05").
///
/// Read through localtime_r(3) so `TZ` and /etc/localtime are honoured without Foundation's time
/// zone database; the display functions take the offset as a plain number and stay pure.
public enum LocalTimeOffset {
    /// Seconds east of UTC (CET: 3600); 0 when the local time cannot be determined.
    public static func current() -> Int {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}
