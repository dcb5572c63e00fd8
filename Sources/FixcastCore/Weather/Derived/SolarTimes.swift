import FoundationEssentials

/// Sunrise and sunset at a position on a date, by NOAA's solar equations (the NOAA Solar Calculator's
/// spreadsheet, after Meeus, "Astronomical Algorithms"): the sun's declination and the equation of time
/// at the event, and the hour angle at which its centre is 0.833° below the horizon (the half-diameter
/// of the disc plus the mean atmospheric refraction). NOAA states the results good to about a minute
/// between ±72° latitude; nearer the poles, where the sun grazes the horizon, less.
public enum SolarTimes {
    /// One date's answer: its times (at least one: on the day before polar day begins the sun rises
    /// and does not set, and on the day polar day ends it sets without rising), or a day on which the
    /// sun does not cross the horizon.
    public enum Day: Sendable, Hashable {
        case times(sunrise: Date?, sunset: Date?)
        case polar(PolarDaylight)
    }

    /// Whether a provider's sunrise and sunset can be one day's: the sunset after the sunrise, less
    /// than a day later (a polar placeholder is neither: equal times, or midnight to midnight).
    public static func isOneDay(sunrise: Date, sunset: Date) -> Bool {
        sunset > sunrise && sunset.timeIntervalSince(sunrise) < 86_400
    }

    /// The sun's zenith angle at rise and set: 90° plus 50′ (16′ half-disc, 34′ refraction).
    static let zenithDeg = 90.833

    /// The day `date` (`YYYY-MM-DD`, the position's own calendar date) at `coordinate`; nil when the
    /// date cannot be read. The events are those around that date's local solar noon.
    public static func day(_ date: String, at coordinate: Coordinate) -> Day? {
        guard date.count >= 10, let midnight = UTCTime.parse(String(date.prefix(10))) else { return nil }
        // Solar noon is near 12:00 − longitude/15 h UTC; the equation of time there places it exactly.
        let noonGuess = midnight.addingTimeInterval((720 - 4 * coordinate.lon) * 60)
        let noonSun = SunPosition.at(noonGuess)
        let noon = midnight.addingTimeInterval((720 - 4 * coordinate.lon - noonSun.equationOfTimeMin) * 60)
        let rise = event(midnight: midnight, noon: noon, coordinate: coordinate, rising: true)
        let set = event(midnight: midnight, noon: noon, coordinate: coordinate, rising: false)
        guard rise != nil || set != nil else {
            // No crossing: the sun stays up all day when it is above the rise/set altitude at noon.
            let noonElevation = 90 - abs(coordinate.lat - SunPosition.at(noon).declinationDeg)
            return .polar(noonElevation > 90 - zenithDeg ? .polarDay : .polarNight)
        }
        return .times(sunrise: rise, sunset: set)
    }

    // MARK: - The equations

    /// The sun's declination (degrees) and the equation of time (minutes) at an instant.
    struct SunPosition {
        var declinationDeg: Double
        var equationOfTimeMin: Double

        static func at(_ time: Date) -> SunPosition {
            let rad = Double.pi / 180
            // Julian centuries since J2000.0 (JD 2451545.0 = 2000-01-01 12:00 UTC = Unix 946728000).
            let t = (time.timeIntervalSince1970 - 946_728_000) / 86_400 / 36_525
            let l0 = (280.46646 + t * (36000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
            let m = 357.52911 + t * (35999.05029 - 0.0001537 * t)
            let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
            let c =
                Elementary.sin(m * rad) * (1.914602 - t * (0.004817 + 0.000014 * t))
                + Elementary.sin(2 * m * rad) * (0.019993 - 0.000101 * t) + Elementary.sin(3 * m * rad) * 0.000289
            let omega = 125.04 - 1934.136 * t
            let apparentLong = l0 + c - 0.00569 - 0.00478 * Elementary.sin(omega * rad)
            let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
            let obliquity = meanObliquity + 0.00256 * Elementary.cos(omega * rad)
            let declination =
                Elementary.asin(Elementary.sin(obliquity * rad) * Elementary.sin(apparentLong * rad)) / rad
            let y = Elementary.tan(obliquity * rad / 2) * Elementary.tan(obliquity * rad / 2)
            let eq =
                y * Elementary.sin(2 * l0 * rad) - 2 * e * Elementary.sin(m * rad)
                + 4 * e * y * Elementary.sin(m * rad) * Elementary.cos(2 * l0 * rad)
                - 0.5 * y * y * Elementary.sin(4 * l0 * rad) - 1.25 * e * e * Elementary.sin(2 * m * rad)
            return SunPosition(declinationDeg: declination, equationOfTimeMin: 4 * eq / rad)
        }
    }

    /// The hour angle (degrees) of the sun at `zenithDeg`, or nil when it never reaches it that day.
    static func hourAngleDeg(lat: Double, declinationDeg: Double) -> Double? {
        let rad = Double.pi / 180
        let cosH =
            Elementary.cos(zenithDeg * rad) / (Elementary.cos(lat * rad) * Elementary.cos(declinationDeg * rad))
            - Elementary.tan(lat * rad) * Elementary.tan(declinationDeg * rad)
        guard cosH.isFinite, (-1...1).contains(cosH) else { return nil }
        return (Double.pi / 2 - Elementary.asin(cosH)) / rad
    }

    /// Sunrise (or sunset) of the day whose solar noon is `noon`, refined with the sun's place at the
    /// event itself (its declination moves up to 0.4° a day near the equinoxes); nil when the sun does
    /// not reach the horizon.
    static func event(midnight: Date, noon: Date, coordinate: Coordinate, rising: Bool) -> Date? {
        var time = noon
        for _ in 0..<3 {
            let sun = SunPosition.at(time)
            guard let h = hourAngleDeg(lat: coordinate.lat, declinationDeg: sun.declinationDeg) else { return nil }
            // Minutes after the date's 00:00 UTC: local solar noon ± the hour angle at 4 min a degree.
            let minutes = 720 - 4 * coordinate.lon - sun.equationOfTimeMin + (rising ? -4 : 4) * h
            time = midnight.addingTimeInterval(minutes * 60)
        }
        return time
    }
}
