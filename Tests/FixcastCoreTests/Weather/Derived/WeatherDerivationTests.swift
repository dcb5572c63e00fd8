import Foundation
import Testing

@testable import FixcastCore

@Suite struct WeatherDerivationTests {
    let copenhagen = Coordinate(lat: 55.68, lon: 12.57)!
    let fetchedAt = UTCTime.parse("2026-07-26T21:00:00Z")!

    func report(
        _ current: CurrentConditions, today: TodaySummary? = nil, at place: Coordinate? = nil, time: Date? = nil
    ) -> WeatherReport {
        WeatherReport(
            provider: .openMeteo, fetchedAt: time ?? fetchedAt, coordinate: place ?? copenhagen, current: current,
            today: today)
    }

    @Test func fillsWhatIsMissingAndNamesIt() throws {
        let r = WeatherDerivation.completed(
            report(CurrentConditions(temperatureC: 16.8, humidityPct: 84, windSpeedMps: 2.5)))
        #expect(r.derived == [.dewPoint, .feelsLike, .sunrise, .sunset])
        let dew = try #require(r.current.dewPointC)
        let feels = try #require(r.current.feelsLikeC)
        // The formulas give 14.08… and 16.34… °C; a reading keeps them to 0.1 °C, as a provider sends them.
        #expect(abs(try #require(DewPoint.celsius(temperatureC: 16.8, humidityPct: 84)) - 14.1) < 0.1)
        let formula = try #require(ApparentTemperature.celsius(temperatureC: 16.8, humidityPct: 84, windSpeedMps: 2.5))
        #expect(abs(formula - 16.34) < 0.02)
        #expect(dew == 14.1)
        #expect(feels == 16.3)
        let today = try #require(r.today)
        #expect(today.daylight == nil)
        // Copenhagen on 26 July: Open-Meteo recorded sunrise 05:04 and sunset 21:28 local (+02:00).
        let rise = try #require(today.sunrise)
        let set = try #require(today.sunset)
        #expect(abs(rise.timeIntervalSince(UTCTime.parse("2026-07-26T03:04:00Z")!)) < 180)
        #expect(abs(set.timeIntervalSince(UTCTime.parse("2026-07-26T19:28:00Z")!)) < 180)
    }

    /// Today's derived sunrise and sunset are those of the report's own day, with its time zone or
    /// without: in Samoa, at 23:00 on Friday 4 there (the sun's Thursday 3), Friday's morning.
    @Test func todaysSunTimesAreForTheReportsOwnDay() throws {
        let apia = Coordinate(lat: -13.83, lon: -171.77)!
        var fresh = report(CurrentConditions(temperatureC: 27), at: apia, time: UTCTime.parse("2026-12-04T10:00:00Z")!)
        fresh.utcOffsetS = 13 * 3600
        let rise = try #require(WeatherDerivation.completed(fresh).today?.sunrise)
        #expect(UTCTime.formatDate(rise.addingTimeInterval(13 * 3600)) == "2026-12-04", "\(rise)")
        #expect(WeatherDerivation.solarDate(of: "2026-12-04", in: fresh) == "2026-12-03")
        // Without a time zone, the sun's own date names the same morning.
        fresh.utcOffsetS = nil
        let bySun = try #require(WeatherDerivation.completed(fresh).today?.sunrise)
        #expect(bySun == rise)
    }

    @Test func theProvidersOwnValuesWin() {
        let given = CurrentConditions(
            temperatureC: 16.8, feelsLikeC: 20, humidityPct: 84, dewPointC: 3, windSpeedMps: 2.5)
        let rise = UTCTime.parse("2026-07-26T03:00:00Z")!
        let set = UTCTime.parse("2026-07-26T19:00:00Z")!
        let r = WeatherDerivation.completed(
            report(given, today: TodaySummary(minC: 10, maxC: 20, sunrise: rise, sunset: set)))
        #expect(r.derived.isEmpty)
        #expect(r.current == given)
        #expect(r.today == TodaySummary(minC: 10, maxC: 20, sunrise: rise, sunset: set))
    }

    /// A value the provider sent out of range is refused and shown as unknown, as its error says: it
    /// was given, so nothing is derived in its place (a dew point of 500 °C became 14.1, `derived`,
    /// beside the error saying it was shown as unknown).
    @Test func aValueRefusedAsOutOfRangeStaysUnknown() {
        var sent = report(
            CurrentConditions(temperatureC: 16.8, feelsLikeC: 400, humidityPct: 84, dewPointC: 500, windSpeedMps: 2.5))
        sent = WeatherValueRanges.checked(sent)
        #expect(Set(sent.valueProblems.map(\.field)) == ["dew_point_c", "feels_like_c"])
        let r = WeatherDerivation.completed(sent)
        #expect(r.current.dewPointC == nil)
        #expect(r.current.feelsLikeC == nil)
        #expect(!r.derived.contains(.dewPoint) && !r.derived.contains(.feelsLike))
    }

    @Test func nothingIsDerivedFromWhatIsNotThere() {
        let r = WeatherDerivation.completed(report(CurrentConditions(temperatureC: 16.8, windSpeedMps: 2.5)))
        #expect(r.current.dewPointC == nil)
        #expect(r.current.feelsLikeC == nil)
        #expect(r.derived == [.sunrise, .sunset])
    }

    @Test func polarNightSaysSo() throws {
        let tromso = Coordinate(lat: 69.65, lon: 18.96)!
        let r = WeatherDerivation.completed(
            report(CurrentConditions(temperatureC: -5), at: tromso, time: UTCTime.parse("2026-12-21T11:00:00Z")!))
        let today = try #require(r.today)
        #expect(today.daylight == .polarNight)
        #expect(today.sunrise == nil && today.sunset == nil)
        #expect(r.derived == [.sunrise, .sunset])
    }

    /// Open-Meteo's polar placeholders (since its PR #844: polar night both at the day's 00:00, polar
    /// day from it to the next 00:00) and OpenWeatherMap's 0 (1970-01-01) are no day's times: NOAA's
    /// stand in, named in `derived`. Before, Tromsø's midwinter read "sunrise 00:00 · sunset 00:00".
    @Test(arguments: [
        ("2026-12-20T23:00:00Z", "2026-12-20T23:00:00Z", "2026-12-21T11:00:00Z", PolarDaylight.polarNight),
        ("2026-06-20T22:00:00Z", "2026-06-21T22:00:00Z", "2026-06-21T11:00:00Z", PolarDaylight.polarDay),
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2026-12-21T11:00:00Z", PolarDaylight.polarNight),
    ])
    func aProvidersPolarPlaceholderIsNoDaysTimes(rise: String, set: String, at time: String, daylight: PolarDaylight)
        throws
    {
        let tromso = Coordinate(lat: 69.65, lon: 18.96)!
        let given = TodaySummary(
            minC: -8, maxC: -3, sunrise: UTCTime.parse(rise)!, sunset: UTCTime.parse(set)!)
        let r = WeatherDerivation.completed(
            report(CurrentConditions(temperatureC: -5), today: given, at: tromso, time: UTCTime.parse(time)!))
        let today = try #require(r.today)
        #expect(today.sunrise == nil && today.sunset == nil)
        #expect(today.daylight == daylight)
        #expect(today.minC == -8 && today.maxC == -3)
        #expect(r.derived == [.sunrise, .sunset])
        #expect(SolarTimes.isOneDay(sunrise: UTCTime.parse(rise)!, sunset: UTCTime.parse(set)!) == false)
    }

    /// A provider's sunrise refused by the range check stays unknown, as its error says: NOAA's is not
    /// put in its place.
    @Test func aRefusedSunriseIsNotDerived() {
        var sent = report(CurrentConditions(temperatureC: 16.8), today: TodaySummary(minC: 10, maxC: 20))
        sent.valueProblems = [
            WeatherValueProblem(field: "today.sunrise", cause: .unreadable(detail: "daily.sunrise[0]"))
        ]
        let r = WeatherDerivation.completed(sent)
        #expect(r.today?.sunrise == nil && r.today?.sunset == nil)
        #expect(!r.derived.contains(.sunrise))
    }

    @Test func applyingTwiceChangesNothing() {
        let once = WeatherDerivation.completed(
            report(CurrentConditions(temperatureC: 16.8, humidityPct: 84, windSpeedMps: 2.5)))
        #expect(WeatherDerivation.completed(once) == once)
    }

    /// `derived` and `today.daylight` are written into the reading JSON and read back from the store's form.
    @Test func derivedSurvivesTheJSONRoundTrip() throws {
        let r = WeatherDerivation.completed(
            report(
                CurrentConditions(temperatureC: -5, humidityPct: 80, windSpeedMps: 3),
                at: Coordinate(lat: 69.65, lon: 18.96)!, time: UTCTime.parse("2026-06-21T11:00:00Z")!))
        let json = r.json(language: .en)
        #expect(
            json["derived"]?.arrayValue?.compactMap(\.stringValue) == [
                "dew_point_c", "feels_like_c", "sunrise", "sunset",
            ])
        #expect(json["today"]?["daylight"]?.stringValue == "polar_day")
        let back = try #require(WeatherReport(json: json))
        #expect(back.derived == r.derived)
        #expect(back.today?.daylight == .polarDay)
    }

    /// A recorded response whose days are not today's (the demo's July recording read in December)
    /// still gets today's sunrise and sunset at the position.
    @Test func aRecordingFromAnotherDayGetsTodaysSun() throws {
        let december = UTCTime.parse("2026-12-01T12:00:00Z")!
        let decoded = try OpenMeteoDecoder.decode(
            CoreFixtures.bytes("open-meteo-forecast.json"), coordinate: copenhagen, fetchedAt: december)
        #expect(decoded.today == nil)
        let r = WeatherDerivation.completed(decoded)
        let rise = try #require(r.today?.sunrise)
        #expect(UTCTime.formatDate(rise) == "2026-12-01")
        #expect(r.derived.contains(.sunrise) && r.derived.contains(.dewPoint) && !r.derived.contains(.feelsLike))
    }
}
