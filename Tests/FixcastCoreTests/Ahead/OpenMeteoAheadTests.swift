import FixcastCore
import Foundation
import Testing

@Suite("OpenMeteoAhead")
struct OpenMeteoAheadTests {
    typealias F = AheadFixture

    static func decodeError(_ text: String, locations: Int) -> String? {
        do {
            _ = try OpenMeteoAheadDecoder.decode(Array(text.utf8), locations: locations)
            return nil
        } catch {
            return error.detail
        }
    }

    @Test func theRecordedMultiLocationAnswerInRequestOrderWithEachOffset() throws {
        let series = try OpenMeteoAheadDecoder.decode(
            try CoreFixtures.bytes("open-meteo-ahead-multi-location.json"), locations: 2)
        let raw =
            try JSONSerialization.jsonObject(with: Data(CoreFixtures.bytes("open-meteo-ahead-multi-location.json")))
            as? [[String: Any]] ?? []
        #expect(series.count == 2 && raw.count == 2)
        // Berlin: GMT, km/h.
        #expect(series[0].times.first == Date(timeIntervalSince1970: 1_753_574_400))  // 2025-07-27T00:00Z
        let berlin = raw[0]["hourly"] as? [String: Any] ?? [:]
        #expect(series[0].temperatureC[3] == (berlin["temperature_2m"] as? [Double])?[3])
        let kmh = (berlin["wind_speed_10m"] as? [Double])?[3] ?? .nan
        #expect(abs((series[0].windSpeedMps[3] ?? 0) - kmh / 3.6) < 1e-9)
        #expect(series[0].weatherCode[3] == (berlin["weather_code"] as? [Int])?[3])
        // Toronto: local times 5 h behind UTC, °F, mp/h.
        #expect(series[1].times.first == Date(timeIntervalSince1970: 1_772_600_400))  // 2026-03-04T00:00-05:00
        let toronto = raw[1]["hourly"] as? [String: Any] ?? [:]
        let f = (toronto["temperature_2m"] as? [Double])?[0] ?? .nan
        #expect(abs((series[1].temperatureC[0] ?? .nan) - (f - 32) * 5 / 9) < 1e-9)
        #expect(series[1].windDirDeg[0] == (toronto["wind_direction_10m"] as? [Double])?[0])
        #expect(series.allSatisfy { $0.times.count == 24 })
    }

    @Test func theRecordedSingleLocationAnswerIsOneLocation() throws {
        let series = try OpenMeteoAheadDecoder.decode(
            try CoreFixtures.bytes("open-meteo-hourly-berlin-all.json"), locations: 1)
        #expect(series.count == 1 && series[0].times.count == 168)
        #expect(
            Self.decodeError(
                String(decoding: try CoreFixtures.bytes("open-meteo-hourly-berlin-all.json"), as: UTF8.self),
                locations: 2) != nil)
    }

    static func location(
        offset: String = "3600", times: String = "[\"2026-01-30T12:00\",\"2026-01-30T13:00\"]",
        temps: String = "[1.5,null]", units: String = "\"temperature_2m\":\"°C\""
    ) -> String {
        "{\"utc_offset_seconds\":\(offset),\"hourly_units\":{\(units)},\"hourly\":{\"time\":\(times),\"temperature_2m\":\(temps)}}"
    }

    @Test func nullsAreUnknownAndAbsurdValuesAreDropped() throws {
        let series = try OpenMeteoAheadDecoder.decode(
            Array("[\(Self.location(temps: "[1.5,null]")),\(Self.location(temps: "[-9999,20]"))]".utf8), locations: 2)
        #expect(series[0].temperatureC == [1.5, nil])
        #expect(series[1].temperatureC == [nil, 20])
        #expect(series[0].times[0] == Date(timeIntervalSince1970: 1_769_774_400 - 3_600))  // 12:00+01:00
        #expect(series[0].windSpeedMps == [nil, nil])  // a column not sent is unknown
    }

    @Test func hostileAnswersAreRefused() {
        let one = Self.location()
        #expect(Self.decodeError("[\(one)]", locations: 2)?.contains("1 locations came back for the 2") == true)
        #expect(Self.decodeError("[\(one),\(one),\(one)]", locations: 2) != nil)
        #expect(Self.decodeError("[\(Self.location(temps: "[NaN,1]"))]", locations: 1)?.contains("not JSON") == true)
        #expect(
            Self.decodeError("[\(Self.location(temps: "[1]"))]", locations: 1)?.contains("1 values for 2 hours") == true
        )
        #expect(Self.decodeError("[\(Self.location(temps: "[\"warm\",1]"))]", locations: 1) != nil)
        #expect(Self.decodeError("[\(Self.location(units: "\"temperature_2m\":\"furlongs\""))]", locations: 1) != nil)
        #expect(
            Self.decodeError("[\(Self.location(units: ""))]", locations: 1)?.contains(
                "hourly_units.temperature_2m is missing") == true)
        #expect(
            Self.decodeError("[\(Self.location(offset: "null"))]", locations: 1)?.contains(
                "utc_offset_seconds is missing") == true)
        #expect(Self.decodeError("[\(Self.location(offset: "100000"))]", locations: 1) != nil)
        #expect(
            Self.decodeError("[\(Self.location(times: "[\"2026-01-30T13:00\",\"2026-01-30T12:00\"]"))]", locations: 1)
                != nil)
        #expect(Self.decodeError("[\(Self.location(times: "[\"noon\",\"2026-01-30T12:00\"]"))]", locations: 1) != nil)
        #expect(
            Self.decodeError("{\"error\":true,\"reason\":\"Latitude must be in range\"}", locations: 1)?.contains(
                "Latitude must be in range") == true)
        #expect(Self.decodeError("[1]", locations: 1) != nil)
        #expect(Self.decodeError("\"x\"", locations: 1) != nil)
        let huge = [UInt8](repeating: 0x20, count: OpenMeteoAheadDecoder.maxBytes + 1)
        #expect(throws: AheadForecastDecodeError.self) { try OpenMeteoAheadDecoder.decode(huge, locations: 1) }
        let manyHours =
            "["
            + Array(repeating: "\"2026-01-30T12:00\"", count: OpenMeteoAheadDecoder.maxHours + 1).joined(separator: ",")
            + "]"
        #expect(
            Self.decodeError("[\(Self.location(times: manyHours, temps: "[]"))]", locations: 1)?.contains("more than")
                == true)
        let message = AheadForecastDecodeError("a\u{1B}b").message
        #expect(message.hasPrefix("ahead: ") && message.hasSuffix(".") && !message.contains("\u{1B}"))
    }

    /// A time with its own offset is read as it says; `utc_offset_seconds` is taken off only a local
    /// time without one (it was taken off "+05:30" again, 5.5 h early; only "Z" was left alone).
    @Test func aTimeWithItsOwnOffsetIsNotShiftedTwice() throws {
        let zoned = "[\"2026-01-30T12:00+05:30\",\"2026-01-30T13:00+05:30\"]"
        let series = try OpenMeteoAheadDecoder.decode(
            Array("[\(Self.location(offset: "19800", times: zoned)),\(Self.location(offset: "19800"))]".utf8),
            locations: 2)
        // 12:00 at +05:30 is 06:30Z, whatever utc_offset_seconds says.
        #expect(series[0].times == [UTCTime.parse("2026-01-30T06:30:00Z"), UTCTime.parse("2026-01-30T07:30:00Z")])
        // Without a zone the same hour is local: the offset is taken off once.
        #expect(series[1].times.first == UTCTime.parse("2026-01-30T06:30:00Z"))
        let utc = try OpenMeteoAheadDecoder.decode(
            Array("[\(Self.location(offset: "19800", times: "[\"2026-01-30T12:00Z\"]", temps: "[1]"))]".utf8),
            locations: 1)
        #expect(utc[0].times == [UTCTime.parse("2026-01-30T12:00:00Z")])
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz open-meteo-ahead`, bench/README.md).

    @Test func theSmallestIntegerAsTheOffsetIsRefusedRatherThanATrap() {
        // `abs(-9223372036854775808)` trapped.
        #expect(
            Self.decodeError("[\(Self.location(offset: "-9223372036854775808"))]", locations: 1)?.contains(
                "is not an offset") == true)
    }

    // The rule the campaign found missing for the other decoders' times: a time outside 1970–2200 is none.
    @Test func anHourOutside1970To2200IsNotATime() {
        #expect(
            Self.decodeError("[\(Self.location(times: "[\"0000-01-01T00:00\",\"0000-01-01T01:00\"]"))]", locations: 1)?
                .contains("hourly.time[0] is not a time") == true)
    }

    static func point(_ c: Coordinate, eta: Double) -> AheadSamplePoint {
        AheadSamplePoint(minutes: Int(eta / 60), eta: F.at(eta), distanceM: 0, coordinate: c, travelBearingDeg: nil)
    }

    @Test func oneRequestForEverySampleWithNearbySamplesAskedOnce() throws {
        let now = F.at(1_200)  // 20 min past the hour
        let samples = [
            // The first two are 1.1 km apart: one cell.
            Self.point(F.c(52.52, 13.405), eta: 2_100), Self.point(F.c(52.53, 13.405), eta: 3_000),
            Self.point(F.c(-33.86785, -70.1), eta: 9_000),
        ]
        let request = try #require(OpenMeteoAheadRequest(samples: samples, now: now))
        #expect(request.locations == [F.c(52.52, 13.405), F.c(-33.86785, -70.1)])
        #expect(request.locationOfSample == [0, 0, 1])
        // t0 is on the hour: from it (now is 20 min past) the last ETA is 2.5 h on, so the hours t0 … t0 + 3 h
        // (4, the last at or after the ETA) and one spare for a half-hour time zone.
        #expect(request.forecastHours == 5)
        #expect(
            request.url(baseURL: "http://127.0.0.1:8080")
                == "http://127.0.0.1:8080/v1/forecast?latitude=52.52,-33.8679&longitude=13.405,-70.1"
                + "&hourly=temperature_2m,precipitation,precipitation_probability,weather_code,wind_speed_10m,wind_gusts_10m,wind_direction_10m"
                + "&wind_speed_unit=ms&timezone=auto&forecast_hours=\(request.forecastHours)")
        #expect(OpenMeteoAheadRequest(samples: [], now: now) == nil)
    }

    /// Open-Meteo's hours start at the current hour of the location's own zone (`timezone=auto`): in
    /// India (+5:30), Newfoundland (−3:30), Adelaide (+9:30) or Nepal (+5:45) up to 45 min before the
    /// UTC hour, so `forecast_hours` counted from the UTC hour ended before the last ETA and its
    /// values were null. Whatever the offset and the minute of now, the series asked for reaches it.
    @Test(arguments: [0, 19_800, -12_600, 34_200, 20_700, 3_600])
    func theHoursAskedForReachTheLastArrivalInEveryTimeZone(offsetS: Int) throws {
        for nowS in stride(from: 0.0, to: 3_600, by: 300) {
            let now = F.at(nowS)
            // The last ETA a few minutes before an hour of UTC, 3 to 4 h on.
            let lastETA = F.at(4 * 3_600 - 300)
            let request = try #require(
                OpenMeteoAheadRequest(
                    samples: [Self.point(F.c(22.57, 88.36), eta: lastETA.timeIntervalSince(F.t0))], now: now))
            // What Open-Meteo sends: from the location's current local hour, `forecast_hours` hours.
            let local = now.timeIntervalSince1970 + Double(offsetS)
            let firstHour = (local / 3_600).rounded(.down) * 3_600 - Double(offsetS)
            let times = (0..<request.forecastHours).map { Date(timeIntervalSince1970: firstHour + Double($0) * 3_600) }
            let known = [Double?](repeating: 1, count: times.count)
            let series = AheadHourlySeries(
                times: times, temperatureC: known, precipitationMmH: known, precipitationProbabilityPct: known,
                weatherCode: known.map { _ in 3 }, windSpeedMps: known, windGustMps: known, windDirDeg: known)
            let at = series.conditions(at: lastETA, travelBearingDeg: nil)
            #expect(at?.temperatureC == 1 && at?.precipitationMmH == 1, "offset \(offsetS) s, now +\(nowS) s")
        }
    }
}
