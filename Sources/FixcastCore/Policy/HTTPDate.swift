import FoundationEssentials

/// HTTP-dates (`Retry-After`, `Expires`, `Last-Modified`): the preferred IMF-fixdate
/// `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and
/// asctime (`Sun Nov  6 08:49:37 1994`) forms recipients must accept. No formatter object, no locale.
/// A header is the network's: numbers are plain digits, the year four of them from 1900 (a server's
/// "long expired") to 9999, so that no header becomes a date no clock reads, or traps the day count.
/// - SeeAlso: RFC 9110 §5.6.7
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    public static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() }
        var day: Int?
        var month: Int?
        var year: Int?
        var clock: String?
        switch words.count {
        case 6 where words.last == "gmt":  // IMF-fixdate
            day = digits(words[1])
            month = months.firstIndex(of: words[2]).map { $0 + 1 }
            year = digits(words[3])
            clock = words[4]
        case 4 where words.last == "gmt":  // RFC 850: 06-nov-94
            let dmy = words[1].split(separator: "-")
            guard dmy.count == 3 else { return nil }
            day = digits(dmy[0])
            month = months.firstIndex(of: String(dmy[1])).map { $0 + 1 }
            if let y = digits(dmy[2]) { year = dmy[2].count == 2 ? (y < 70 ? 2000 + y : 1900 + y) : y }
            clock = words[2]
        case 5:  // asctime
            month = months.firstIndex(of: words[1]).map { $0 + 1 }
            day = digits(words[2])
            clock = words[3]
            year = digits(words[4])
        default:
            return nil
        }
        guard let day, let month, let year, let clock else { return nil }
        let clockParts = clock.split(separator: ":", omittingEmptySubsequences: false)
        let hms = clockParts.compactMap { digits($0) }
        guard clockParts.count == 3, hms.count == 3, hms[0] < 24, hms[1] < 60, hms[2] < 61,
            (1900...9999).contains(year),
            day >= 1, day <= UTCTime.daysIn(month: month, year: year)
        else { return nil }
        let days = UTCTime.days(fromCivil: year, month, day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hms[0] * 3600 + hms[1] * 60 + hms[2]))
    }

    /// One to four ASCII digits (no sign, no space): every number an HTTP-date holds.
    private static func digits(_ text: some StringProtocol) -> Int? {
        guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
