import FixcastApp
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// `fixcast-bench --live`: what one frame of the live screen costs to render, as the agent does per fix
/// on the live screen (a new position, everything else the same), in release mode. Timing lives here,
/// never in tests.
func runLiveBench() -> Int32 {
    let fetched = Date(timeIntervalSince1970: 1_769_774_422)
    guard let berlin = Coordinate(lat: 52.52, lon: 13.4138) else { return 1 }
    let current = CurrentConditions(
        temperatureC: 3.1, feelsLikeC: -0.4, humidityPct: 81, dewPointC: 0.1, pressureHpa: 1013.2, windSpeedMps: 4.2,
        windGustMps: 9.0, windDirDeg: 250, precipitationMm: 0.0, cloudCoverPct: 75, weatherCode: 3)
    let weather = WeatherReport(
        provider: .openMeteo, fetchedAt: fetched, coordinate: berlin, cached: false, stale: false, current: current,
        today: TodaySummary(minC: -1, maxC: 5, sunrise: fetched.addingTimeInterval(-18_000), sunset: fetched),
        daily: (0..<7).map {
            DailyForecast(date: "2026-02-0\($0 + 1)", minC: -1, maxC: 5, weatherCode: 3, precipitationMm: 0.2)
        },
        alerts: [])
    let place = Place(name: "Berlin", region: "Berlin", country: "Germany", countryCode: "DE", source: .nominatim)
    let reading = Reading(time: fetched, trigger: .startup, position: nil, place: place, weather: weather, errors: [])
    var status = AgentStatus(reading: reading)
    let options = DisplayOptions()
    let clock = ContinuousClock()
    var samples: [Double] = []
    var sink = 0
    for round in 0..<7 {
        let t0 = clock.now
        for i in 0..<2_000 {
            let now = fetched.addingTimeInterval(Double(round * 2_000 + i))
            status.position = Position(
                coordinate: Coordinate(lat: 52.52 + Double(i) * 1e-4, lon: 13.41) ?? berlin, mode: .threeD,
                obtainedAt: now, source: .gps, satellitesUsed: 9)
            let state = LiveScreen.State(
                reading: status.reading, position: status.position, fixLostSince: nil, problems: [], updating: false)
            sink &+= LiveScreen.render(state, now: now, width: 100, height: 24, options: options).count
        }
        samples.append(seconds(clock.now - t0) / 2_000)
    }
    var frames = LiveScreenFrames()
    var keptSamples: [Double] = []
    for round in 0..<7 {
        let t0 = clock.now
        for i in 0..<2_000 {
            let now = fetched.addingTimeInterval(Double(round * 2_000 + i))
            status.position = Position(
                coordinate: Coordinate(lat: 52.52 + Double(i) * 1e-4, lon: 13.41) ?? berlin, mode: .threeD,
                obtainedAt: now, source: .gps, satellitesUsed: 9)
            sink &+= frames.frame(status, demo: false, now: now, width: 100, height: 24, options: options).count
        }
        keptSamples.append(seconds(clock.now - t0) / 2_000)
    }
    print("live screen, one frame of 100 x 24 (median of 7 rounds of 2,000 fixes a second apart; \(sink)):")
    print("  rendered whole (LiveScreen.render):          \(format(median(samples)))")
    print(
        "  as the agent draws it (LiveScreenFrames):    \(format(median(keptSamples)))"
            + "  (\(frames.wholeRenders) of 14,000 rendered whole)")
    return 0
}
