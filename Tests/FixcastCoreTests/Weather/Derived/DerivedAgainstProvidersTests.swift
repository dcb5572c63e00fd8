import Foundation
import Testing

@testable import FixcastCore

/// The derived values against the providers' own, in every recorded response that has both the value
/// and what it is derived from: dew point within 0.5 °C, apparent temperature within 1 °C, sunrise and
/// sunset within 2 minutes.
@Suite struct DerivedAgainstProvidersTests {
    /// Open-Meteo Berlin: 168 hours with temperature, humidity and its own dew point.
    @Test func dewPointMatchesOpenMeteoHourly() throws {
        let source = try CoreFixtures.object("open-meteo-hourly-berlin-all.json")
        let hourly = try #require(source["hourly"] as? [String: Any])
        let t = try #require(hourly["temperature_2m"] as? [Double])
        let rh = try #require(hourly["relative_humidity_2m"] as? [NSNumber]).map(\.doubleValue)
        let dew = try #require(hourly["dew_point_2m"] as? [Double])
        #expect(t.count == 168 && rh.count == 168 && dew.count == 168)
        for i in t.indices {
            let mine = try #require(DewPoint.celsius(temperatureC: t[i], humidityPct: rh[i]))
            #expect(abs(mine - dew[i]) <= 0.5, "hour \(i): \(mine) against \(dew[i])")
        }
    }

    /// Open-Meteo's current blocks with temperature, humidity, wind and apparent temperature
    /// (Copenhagen, m/s; Berlin, km/h), and Berlin's hourly series. Open-Meteo's own value adds a sun
    /// term the BoM's shade formula has not: at three sunny middays of 168 hours it is up to 1.4 °C
    /// warmer, so the hourly check holds 1 °C for the hours with the sun down (by `SolarTimes`) and
    /// 1.5 °C for all.
    @Test func apparentTemperatureMatchesOpenMeteo() throws {
        for (name, kmh) in [("open-meteo-forecast.json", false), ("open-meteo-hourly-berlin-all.json", true)] {
            let recorded = try CoreFixtures.object(name)
            let current = try #require(recorded["current"] as? [String: Any])
            let t = try #require((current["temperature_2m"] as? NSNumber)?.doubleValue)
            let rh = try #require((current["relative_humidity_2m"] as? NSNumber)?.doubleValue)
            let ws = try #require((current["wind_speed_10m"] as? NSNumber)?.doubleValue) / (kmh ? 3.6 : 1)
            let theirs = try #require((current["apparent_temperature"] as? NSNumber)?.doubleValue)
            let mine = try #require(ApparentTemperature.celsius(temperatureC: t, humidityPct: rh, windSpeedMps: ws))
            #expect(abs(mine - theirs) <= 1, "\(name): \(mine) against \(theirs)")
        }
        let source = try CoreFixtures.object("open-meteo-hourly-berlin-all.json")
        let hourly = try #require(source["hourly"] as? [String: Any])
        let times = try #require(hourly["time"] as? [String])
        let t = try #require(hourly["temperature_2m"] as? [Double])
        let rh = try #require(hourly["relative_humidity_2m"] as? [NSNumber]).map(\.doubleValue)
        let ws = try #require(hourly["wind_speed_10m"] as? [NSNumber]).map { $0.doubleValue / 3.6 }
        let theirs = try #require(hourly["apparent_temperature"] as? [Double])
        let berlin = Coordinate(lat: 52.52, lon: 13.42)!
        var dark = 0
        for i in times.indices {
            let mine = try #require(
                ApparentTemperature.celsius(temperatureC: t[i], humidityPct: rh[i], windSpeedMps: ws[i]))
            #expect(abs(mine - theirs[i]) <= 1.5, "\(times[i]): \(mine) against \(theirs[i])")
            let time = try #require(UTCTime.parse(times[i] + ":00Z"))  // this response is in GMT
            guard case .times(let rise?, let set?)? = SolarTimes.day(String(times[i].prefix(10)), at: berlin) else {
                continue
            }
            if time < rise || time > set {
                dark += 1
                #expect(abs(mine - theirs[i]) <= 1, "\(times[i]) (sun down): \(mine) against \(theirs[i])")
            }
        }
        #expect(dark > 40)
    }

    /// Open-Meteo's daily sunrise and sunset (local times with `utc_offset_seconds`) for Copenhagen in
    /// July, Berlin in July and Toronto in March; OpenWeatherMap's for a town in Italy in August.
    @Test(arguments: [
        "open-meteo-forecast.json", "open-meteo-hourly-berlin-all.json", "open-meteo-hourly-toronto.json",
    ])
    func sunriseAndSunsetMatchOpenMeteo(_ name: String) throws {
        let source = try CoreFixtures.object(name)
        let lat = try #require((source["latitude"] as? NSNumber)?.doubleValue)
        let lon = try #require((source["longitude"] as? NSNumber)?.doubleValue)
        let place = try #require(Coordinate(lat: lat, lon: lon))
        let offset = try #require((source["utc_offset_seconds"] as? NSNumber)?.doubleValue)
        let daily = try #require(source["daily"] as? [String: Any])
        let dates = try #require(daily["time"] as? [String])
        let rises = try #require(daily["sunrise"] as? [String])
        let sets = try #require(daily["sunset"] as? [String])
        #expect(dates.count >= 7)
        for i in dates.indices {
            guard case .times(let rise?, let set?)? = SolarTimes.day(dates[i], at: place) else {
                Issue.record("\(name) \(dates[i]): no sunrise")
                continue
            }
            let theirRise = try #require(UTCTime.parse(rises[i])).addingTimeInterval(-offset)
            let theirSet = try #require(UTCTime.parse(sets[i])).addingTimeInterval(-offset)
            #expect(
                abs(rise.timeIntervalSince(theirRise)) <= 120,
                "\(name) \(dates[i]) sunrise \(rise) against \(theirRise)")
            #expect(
                abs(set.timeIntervalSince(theirSet)) <= 120, "\(name) \(dates[i]) sunset \(set) against \(theirSet)")
        }
    }

    @Test func sunriseAndSunsetMatchOpenWeatherMap() throws {
        let source = try CoreFixtures.object("owm-current.json")
        let coord = try #require(source["coord"] as? [String: Any])
        let sys = try #require(source["sys"] as? [String: Any])
        let lat = try #require((coord["lat"] as? NSNumber)?.doubleValue)
        let lon = try #require((coord["lon"] as? NSNumber)?.doubleValue)
        let place = try #require(Coordinate(lat: lat, lon: lon))
        let theirRise = Date(timeIntervalSince1970: try #require((sys["sunrise"] as? NSNumber)?.doubleValue))
        let theirSet = Date(timeIntervalSince1970: try #require((sys["sunset"] as? NSNumber)?.doubleValue))
        guard case .times(let rise?, let set?)? = SolarTimes.day("2022-08-30", at: place) else {
            Issue.record("no sunrise")
            return
        }
        #expect(abs(rise.timeIntervalSince(theirRise)) <= 120)
        #expect(abs(set.timeIntervalSince(theirSet)) <= 120)
    }
}
