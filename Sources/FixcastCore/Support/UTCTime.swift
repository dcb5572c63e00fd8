import FoundationEssentials

/// ISO 8601 in UTC with `Z`, as every time in fixcast's JSON (CONTRACT.md).
///
/// Written by hand on the civil-calendar arithmetic (Howard Hinnant's days-from-civil) so that it
/// needs no formatter object, no locale and no time-zone database, and costs nothing at start-up.
public enum UTCTime {
    /// `2026-01-30T12:00:22Z` (whole seconds, rounded down).
    public static func format(_ date: Date) -> String {
        // Clamped to years 0001…9999 (four digits); stored and parsed times are already 1970–2200 (PlausibleTime).
        let t = Int(clamping: date.timeIntervalSince1970, to: -62_135_596_800...253_402_300_799, rounding: .down)
        let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
        let secs = t - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        return
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))Z"
    }

    /// `2026-01-30` (the UTC date).
    public static func formatDate(_ date: Date) -> String {
        String(format(date).prefix(10))
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH:MM` or no zone (read as UTC).
    /// Returns nil for anything else, including impossible dates such as February 30.
    public static func parse(_ text: String) -> Date? {
        parseZone(text)?.date
    }

    /// A provider's local time (Open-Meteo's `hourly.time`, sunrise): without a zone it is
    /// `localOffsetS` seconds ahead of UTC (the answer's `utc_offset_seconds`), taken off; with its own
    /// zone (`Z`, `+05:30`) it is read as it says, and the offset is not taken off a second time.
    public static func parse(_ text: String, localOffsetS: Int) -> Date? {
        guard let parsed = parseZone(text) else { return nil }
        return parsed.zoned ? parsed.date : parsed.date.addingTimeInterval(-Double(localOffsetS))
    }

    /// `parse`, and whether the text named its zone.
    static func parseZone(_ text: String) -> (date: Date, zoned: Bool)? {
        let s = Array(text.utf8)
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= s.count else { return nil }
            var v = 0
            for k in from..<(from + len) {
                guard (0x30...0x39).contains(s[k]) else { return nil }
                v = v * 10 + Int(s[k] - 0x30)
            }
            return v
        }
        guard s.count >= 10, let y = num(0, 4), s[4] == UInt8(ascii: "-"), let mo = num(5, 2),
            s[7] == UInt8(ascii: "-"), let d = num(8, 2),
            (1...12).contains(mo), d >= 1, d <= daysIn(month: mo, year: y)
        else { return nil }
        var seconds = Double(days(fromCivil: y, mo, d) * 86_400)
        if s.count == 10 { return (Date(timeIntervalSince1970: seconds), false) }
        guard s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: " "), let hh = num(11, 2),
            s.count > 13, s[13] == UInt8(ascii: ":"), let mm = num(14, 2), hh < 24, mm < 60
        else { return nil }
        seconds += Double(hh * 3600 + mm * 60)
        var k = 16
        if k < s.count, s[k] == UInt8(ascii: ":") {
            guard let ss = num(17, 2), ss < 61 else { return nil }
            seconds += Double(ss)
            k = 19
            if k < s.count, s[k] == UInt8(ascii: ".") {
                k += 1
                var scale = 0.1
                var any = false
                while k < s.count, (0x30...0x39).contains(s[k]) {
                    seconds += Double(s[k] - 0x30) * scale
                    scale /= 10
                    k += 1
                    any = true
                }
                guard any else { return nil }
            }
        }
        if k == s.count { return (Date(timeIntervalSince1970: seconds), false) }
        if s[k] == UInt8(ascii: "Z"), k + 1 == s.count { return (Date(timeIntervalSince1970: seconds), true) }
        if s[k] == UInt8(ascii: "+") || s[k] == UInt8(ascii: "-") {
            let sign = s[k] == UInt8(ascii: "+") ? 1.0 : -1.0
            guard let oh = num(k + 1, 2) else { return nil }
            var om = 0
            var end = k + 3
            if end < s.count, s[end] == UInt8(ascii: ":") {
                guard let v = num(k + 4, 2) else { return nil }
                om = v
                end = k + 6
            } else if let v = num(k + 3, 2) {
                om = v
                end = k + 5
            }
            guard end == s.count, oh < 24, om < 60 else { return nil }
            return (Date(timeIntervalSince1970: seconds - sign * Double(oh * 3600 + om * 60)), true)
        }
        return nil
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    public static func days(fromCivil y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
