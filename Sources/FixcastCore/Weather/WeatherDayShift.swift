import FoundationEssentials

/// Moves a stored report's days to the day it is shown on, when that is a later day than the one it
/// was fetched on: weather served from the store after a day offline, or while the provider fails.
///
/// A report's `today` is the day it was fetched, and its `daily` rows start there. Shown three days
/// later as it was, "Today: min −2 °C, max 4 °C" would be another day's, and "Next days" would begin
/// with three days already gone. So, shown on a later day at the position:
/// - `daily` keeps the rows from that day on (none, when all have gone);
/// - `today` takes that day's row's min and max (unknown when the report has no row for it), and the
///   sunrise and sunset of that day: the provider's when they fall on it, else NOAA's (`SolarTimes`),
///   named in `derived` as computed values are. The current conditions stay as they were: their age is
///   the report's `fetched_at`, which the screen shows beside them.
///
/// The day is the calendar date in the report's own time zone (`utcOffsetS`: the provider's, as its
/// dates are). A report without one (stored by an older fixcast) goes by the mean solar date at the
/// position (`WeatherDerivation.localDate(of:in:)`), which can differ from the civil date for an hour or two
/// around midnight, and all day where the date line bends (Samoa, Tonga, Kiribati are 24 h from their
/// sun time). So such a report younger than `minimumAgeS` is shown as fetched: a cache hit or a fetch
/// of minutes ago is never moved by that guess.
public enum WeatherDayShift {
    /// The age below which a report without its time zone is shown as fetched: one refreshed
    /// normally (every `trigger.periodic_min`, 30 min by default) is never this old.
    public static let minimumAgeS: TimeInterval = 3600

    /// The first moment after `now` at which `shown(report, at:)` can read otherwise: the next day of
    /// the report's calendar begins, or a report without its time zone grows old enough to be moved.
    public static func nextChange(of report: WeatherReport, after now: Date) -> Date {
        let dayStart = WeatherDerivation.nextDayStart(after: now, in: report)
        let movable = report.fetchedAt.addingTimeInterval(minimumAgeS)
        return report.utcOffsetS == nil && movable > now ? min(dayStart, movable) : dayStart
    }

    /// `report` as it should read at `now`.
    public static func shown(_ report: WeatherReport, at now: Date) -> WeatherReport {
        if report.utcOffsetS == nil, now.timeIntervalSince(report.fetchedAt) < minimumAgeS { return report }
        let localDate = { (time: Date) in WeatherDerivation.localDate(of: time, in: report) }
        let fetchedOn = localDate(report.fetchedAt)
        let day = localDate(now)
        // Dates as YYYY-MM-DD compare in calendar order.
        guard day > fetchedOn else { return report }
        var shifted = report
        shifted.daily = report.daily.filter { $0.date >= day }
        var today = TodaySummary()
        if let row = report.daily.first(where: { $0.date == day }) {
            today.minC = row.minC
            today.maxC = row.maxC
        }
        var derived = Set(report.derived)
        let given = report.today
        let providerTimesFit =
            given?.sunrise.map { localDate($0) == day } ?? false
        if providerTimesFit, let given {
            today.sunrise = given.sunrise
            today.sunset = given.sunset
        } else {
            derived.subtract([.sunrise, .sunset])
            if WeatherDerivation.fillSunTimes(&today, on: day, for: report) {
                derived.formUnion([.sunrise, .sunset])
            }
        }
        shifted.today = today
        shifted.derived = DerivedValue.allCases.filter(derived.contains)
        return shifted
    }
}
