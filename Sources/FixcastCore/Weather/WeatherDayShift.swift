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
/// The day at the position is its mean solar date (`WeatherDerivation.localDate`: a report carries no
/// time zone), which can differ from the civil date for an hour or two around midnight (more where
/// summer time or a wide time zone puts the clock far from the sun). So a report younger than
/// `minimumAgeS` is shown as fetched: a cache hit or a fetch of minutes ago is never moved, and only
/// weather that is already stale can be moved a day early or late near midnight.
public enum WeatherDayShift {
    /// The age below which a report is shown as fetched: one refreshed normally (every
    /// `trigger.periodic_min`, 30 min by default) is never this old.
    public static let minimumAgeS: TimeInterval = 3600

    /// `report` as it should read at `now`.
    public static func shown(_ report: WeatherReport, at now: Date) -> WeatherReport {
        guard now.timeIntervalSince(report.fetchedAt) >= minimumAgeS else { return report }
        let fetchedOn = WeatherDerivation.localDate(of: report.fetchedAt, at: report.coordinate)
        let day = WeatherDerivation.localDate(of: now, at: report.coordinate)
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
            given?.sunrise.map { WeatherDerivation.localDate(of: $0, at: report.coordinate) == day } ?? false
        if providerTimesFit, let given {
            today.sunrise = given.sunrise
            today.sunset = given.sunset
        } else {
            derived.subtract([.sunrise, .sunset])
            if WeatherDerivation.fillSunTimes(&today, on: day, at: report.coordinate) {
                derived.formUnion([.sunrise, .sunset])
            }
        }
        shifted.today = today
        shifted.derived = DerivedValue.allCases.filter(derived.contains)
        return shifted
    }
}
