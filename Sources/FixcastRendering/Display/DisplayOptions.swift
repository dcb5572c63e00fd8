import FixcastCore
import FoundationEssentials

/// How the human display is rendered: units and language (`--units`, `--lang`) and the local
/// clock's rules for times of day. Passed in so rendering stays pure and testable.
public struct DisplayOptions: Sendable, Hashable {
    public var units: UnitSystem
    public var language: Language
    /// The offset from UTC at each instant shown (`LocalTimeOffset.system` on the real machine, from FixcastAdapters), so
    /// a time across a daylight-saving change is shown in that time's offset.
    public var utcOffset: UTCOffsetRule

    public init(units: UnitSystem = .metric, language: Language = .en, utcOffset: UTCOffsetRule) {
        self.units = units
        self.language = language
        self.utcOffset = utcOffset
    }

    /// A fixed offset, seconds east of UTC (tests).
    public init(units: UnitSystem = .metric, language: Language = .en, utcOffsetS: Int = 0) {
        self.init(units: units, language: language, utcOffset: .fixed(utcOffsetS))
    }

    /// The settings' units and language, with the time zone rules given (App's `init(settings:)`
    /// gives the machine's).
    public init(settings: Settings, utcOffset: UTCOffsetRule) {
        self.init(units: settings.display.units, language: settings.display.lang, utcOffset: utcOffset)
    }

    var formatter: DisplayUnits { DisplayUnits(units) }
    var labels: DisplayLabels { DisplayLabels(language) }
}

/// Clock and calendar text for the display, in local time by an offset rule (or a fixed offset).
enum DisplayTime {
    /// `14:05` local, in the offset `rule` gives for `date` itself.
    static func clock(_ date: Date, _ rule: UTCOffsetRule) -> String {
        clock(date, utcOffsetS: rule.seconds(at: date))
    }

    /// Days since 1970-01-01 of the local date of `date`, in the offset `rule` gives for `date`.
    static func localDays(_ date: Date, _ rule: UTCOffsetRule) -> Int {
        localDays(date, utcOffsetS: rule.seconds(at: date))
    }

    /// `14:05` local.
    static func clock(_ date: Date, utcOffsetS: Int) -> String {
        let t =
            Int(clamping: date.timeIntervalSince1970, to: -62_135_596_800...253_402_300_799, rounding: .down)
            + utcOffsetS
        let secs = ((t % 86_400) + 86_400) % 86_400
        return pad2(secs / 3600) + ":" + pad2(secs / 60 % 60)
    }

    /// Days since 1970-01-01 of the local date of `date`.
    static func localDays(_ date: Date, utcOffsetS: Int) -> Int {
        let t =
            Int(clamping: date.timeIntervalSince1970, to: -62_135_596_800...253_402_300_799, rounding: .down)
            + utcOffsetS
        return t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
    }

    /// Days since 1970-01-01 of a `YYYY-MM-DD` text (nil if malformed).
    static func days(ofDate text: String) -> Int? {
        guard let d = UTCTime.parse(String(text.prefix(10))) else { return nil }
        return Int(checked: d.timeIntervalSince1970 / 86_400)
    }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    static func weekdayIndex(days: Int) -> Int {
        ((days % 7) + 7 + 3) % 7
    }

    /// Day of month of `days`.
    static func dayOfMonth(days: Int) -> Int {
        UTCTime.civil(fromDays: days).2
    }

    static func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
