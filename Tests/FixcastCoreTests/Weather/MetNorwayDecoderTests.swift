import Foundation
import Testing

@testable import FixcastCore

@Suite struct MetNorwayDecoderTests {
    let here = Coordinate(lat: 60, lon: 11)!
    let fetchedAt = UTCTime.parse("2024-02-04T01:30:00Z")!

    @Test func recordedCurrentIsTheLatestStepBeforeNow() throws {
        let report = try MetNorwayDecoder.decode(
            CoreFixtures.bytes("metno-compact.json"), coordinate: here, fetchedAt: fetchedAt)
        let source = try CoreFixtures.object("metno-compact.json")
        let series = try #require((source["properties"] as? [String: Any])?["timeseries"] as? [[String: Any]])
        let data = try #require(series[0]["data"] as? [String: Any])
        let details = try #require((data["instant"] as? [String: Any])?["details"] as? [String: Any])
        #expect(report.provider == .metNorway)
        #expect(report.current.temperatureC == details["air_temperature"] as? Double)
        #expect(report.current.humidityPct == details["relative_humidity"] as? Double)
        #expect(report.current.pressureHpa == details["air_pressure_at_sea_level"] as? Double)
        #expect(report.current.windSpeedMps == details["wind_speed"] as? Double)
        #expect(report.current.windDirDeg == details["wind_from_direction"] as? Double)
        #expect(report.current.cloudCoverPct == details["cloud_area_fraction"] as? Double)
        #expect(report.current.precipitationMm == 0)
        #expect(report.current.weatherCode == 0)  // next_1_hours: clearsky_night
        #expect(report.current.feelsLikeC == nil)

        let later = try MetNorwayDecoder.decode(
            CoreFixtures.bytes("metno-compact.json"), coordinate: here,
            fetchedAt: UTCTime.parse("2024-02-04T02:59:00Z")!)
        let second = ((series[1]["data"] as? [String: Any])?["instant"] as? [String: Any])?["details"] as? [String: Any]
        #expect(later.current.temperatureC == second?["air_temperature"] as? Double)
    }

    /// Days by mean solar time (lon 11° → UTC+1), recomputed here from the source.
    @Test func daysFoldTheInstantTemperatures() throws {
        let report = try MetNorwayDecoder.decode(
            CoreFixtures.bytes("metno-compact.json"), coordinate: here, fetchedAt: fetchedAt)
        let source = try CoreFixtures.object("metno-compact.json")
        let series = try #require((source["properties"] as? [String: Any])?["timeseries"] as? [[String: Any]])
        let formatter = ISO8601DateFormatter()
        let dayFormatter = DateFormatter()
        dayFormatter.dateFormat = "yyyy-MM-dd"
        dayFormatter.timeZone = TimeZone(secondsFromGMT: 3600)
        var mins: [String: Double] = [:]
        var maxs: [String: Double] = [:]
        for step in series {
            let day = dayFormatter.string(from: formatter.date(from: step["time"] as! String)!)
            let t =
                (((step["data"] as! [String: Any])["instant"] as! [String: Any])["details"] as! [String: Any])[
                    "air_temperature"] as! NSNumber
            mins[day] = min(mins[day] ?? .infinity, t.doubleValue)
            maxs[day] = max(maxs[day] ?? -.infinity, t.doubleValue)
        }
        // The series' last step (00:00 UTC, 01:00 local on the 14th) has only `instant`: the 14th is one
        // instant of its night, not a day's forecast, and is left out (`covered`).
        let lastStep = try #require(series.last?["time"] as? String)
        #expect(lastStep == "2024-02-14T00:00:00Z")
        #expect(report.daily.map(\.date) == mins.keys.sorted().dropLast())
        for day in report.daily {
            #expect(day.minC == mins[day.date])
            #expect(day.maxC == maxs[day.date])
            #expect(day.weatherCode != nil)
            #expect(day.precipitationMm != nil)
        }
        // The series starts at 01:00 UTC, 02:00 local: today is covered from then on, and says so.
        let firstText = try #require(series.first?["time"] as? String)
        let firstStep = try #require(UTCTime.parse(firstText))
        #expect(report.daily.first?.from == firstStep)
        #expect(report.daily.dropFirst().allSatisfy { $0.from == nil })
        #expect(report.today?.minC == mins["2024-02-04"])
        #expect(report.today?.from == firstStep)
        #expect(report.today?.sunrise == nil)
    }

    /// A series that starts at local midnight covers today whole (no `from`), and one whose last
    /// step's window reaches the end of its day keeps that day.
    @Test func aWholeDayHasNoFromAndALastDayReachedToItsEndIsKept() throws {
        func step(_ time: String, _ c: Double, window: String) -> String {
            #"{"time":"\#(time)","data":{"instant":{"details":{"air_temperature":\#(c)}},"\#(window)":{"summary":{"symbol_code":"cloudy"},"details":{"precipitation_amount":0}}}}"#
        }
        let body =
            #"{"properties":{"meta":{"units":{"air_temperature":"celsius","precipitation_amount":"mm"}},"timeseries":["#
            + [
                step("2026-01-01T00:00:00Z", 1, window: "next_6_hours"),
                step("2026-01-01T06:00:00Z", 2, window: "next_6_hours"),
                step("2026-01-01T12:00:00Z", 3, window: "next_6_hours"),
                step("2026-01-01T18:00:00Z", 4, window: "next_6_hours"),
                step("2026-01-02T00:00:00Z", 5, window: "next_6_hours"),
                step("2026-01-02T06:00:00Z", 6, window: "next_6_hours"),
                step("2026-01-02T12:00:00Z", 7, window: "next_6_hours"),
                step("2026-01-02T18:00:00Z", 8, window: "next_6_hours"),
            ].joined(separator: ",") + "]}}"
        let r = try MetNorwayDecoder.decode(
            Array(body.utf8), coordinate: Coordinate(lat: 0, lon: 0)!, fetchedAt: UTCTime.parse("2026-01-01T00:10:00Z")!
        )
        #expect(r.daily.map(\.date) == ["2026-01-01", "2026-01-02"])
        #expect(r.daily.allSatisfy { $0.from == nil })
        #expect(r.today?.from == nil)
        #expect(r.daily.last?.maxC == 8)
        // Its last step an hour shorter, the second day is no longer reached to its end.
        let short = body.replacingOccurrences(
            of: step("2026-01-02T18:00:00Z", 8, window: "next_6_hours"),
            with: step("2026-01-02T18:00:00Z", 8, window: "next_1_hours"))
        let cut = try MetNorwayDecoder.decode(
            Array(short.utf8), coordinate: Coordinate(lat: 0, lon: 0)!,
            fetchedAt: UTCTime.parse("2026-01-01T00:10:00Z")!)
        #expect(cut.daily.map(\.date) == ["2026-01-01"])
    }

    @Test func precipitationUsesHourlyThenSixHourlyAmounts() throws {
        let body =
            #"{"properties":{"meta":{"units":{"air_temperature":"celsius","precipitation_amount":"mm"}},"timeseries":["#
            + #"{"time":"2026-01-01T10:00:00Z","data":{"instant":{"details":{"air_temperature":1}},"next_1_hours":{"summary":{"symbol_code":"rain"},"details":{"precipitation_amount":0.5}},"next_6_hours":{"summary":{"symbol_code":"rain"},"details":{"precipitation_amount":9}}}},"#
            + #"{"time":"2026-01-01T11:00:00Z","data":{"instant":{"details":{"air_temperature":2}},"next_1_hours":{"summary":{"symbol_code":"heavyrainandthunder"},"details":{"precipitation_amount":1.0}}}},"#
            + #"{"time":"2026-01-01T12:00:00Z","data":{"instant":{"details":{"air_temperature":3}},"next_6_hours":{"summary":{"symbol_code":"lightsnow"},"details":{"precipitation_amount":2.0}}}}"#
            + "]}}"
        let r = try MetNorwayDecoder.decode(
            Array(body.utf8), coordinate: Coordinate(lat: 0, lon: 0)!, fetchedAt: UTCTime.parse("2026-01-01T10:10:00Z")!
        )
        #expect(r.daily.count == 1)
        #expect(r.daily[0].precipitationMm == 3.5)
        #expect(r.daily[0].weatherCode == 95)
        #expect(r.current.weatherCode == 63)
        #expect(r.current.precipitationMm == 0.5)
    }

    /// A step amount out of range is not added into its day (-1 mm and 2 mm made a believable 1 mm
    /// less): the day's precipitation is unknown, and named.
    @Test func anImpossibleStepAmountMakesTheDaysPrecipitationUnknown() throws {
        let body =
            #"{"properties":{"meta":{"units":{"air_temperature":"celsius","precipitation_amount":"mm"}},"timeseries":["#
            + #"{"time":"2026-01-01T10:00:00Z","data":{"instant":{"details":{"air_temperature":1}},"next_1_hours":{"summary":{"symbol_code":"rain"},"details":{"precipitation_amount":0.5}}}},"#
            + #"{"time":"2026-01-01T11:00:00Z","data":{"instant":{"details":{"air_temperature":2}},"next_1_hours":{"summary":{"symbol_code":"rain"},"details":{"precipitation_amount":-1}}}},"#
            + #"{"time":"2026-01-01T12:00:00Z","data":{"instant":{"details":{"air_temperature":3}},"next_6_hours":{"summary":{"symbol_code":"lightsnow"},"details":{"precipitation_amount":2.0}}}}"#
            + "]}}"
        let r = try MetNorwayDecoder.decode(
            Array(body.utf8), coordinate: Coordinate(lat: 0, lon: 0)!, fetchedAt: UTCTime.parse("2026-01-01T10:10:00Z")!
        )
        try #require(r.daily.count == 1)
        #expect(r.daily[0].precipitationMm == nil)
        #expect(r.daily[0].maxC == 3)
        #expect(r.current.precipitationMm == 0.5)
        #expect(
            r.valueProblems == [
                WeatherValueProblem(
                    field: "daily[0].precipitation_mm",
                    cause: .outOfRange(value: -1, range: WeatherValueRanges.precipitation))
            ])
    }

    @Test func unitsComeFromTheMetaBlock() throws {
        let body =
            #"{"properties":{"meta":{"units":{"air_temperature":"fahrenheit","wind_speed":"km/h"}},"timeseries":[{"time":"2026-01-01T10:00:00Z","data":{"instant":{"details":{"air_temperature":50,"wind_speed":36}}}}]}}"#
        let r = try MetNorwayDecoder.decode(
            Array(body.utf8), coordinate: here, fetchedAt: UTCTime.parse("2026-01-01T09:00:00Z")!)
        #expect(abs(r.current.temperatureC! - 10) < 1e-9)
        #expect(abs(r.current.windSpeedMps! - 10) < 1e-9)
    }

    @Test(arguments: [
        #"{"properties":{"timeseries":[]}}"#, #"{"type":"Feature"}"#,
        #"{"properties":{"meta":{"units":{"air_temperature":"celsius"}},"timeseries":[{"time":"yesterday","data":{}}]}}"#,
        #"{"properties":{"meta":{"units":{"air_temperature":"celsius"}},"timeseries":{}}}"#, "<html>", "",
    ])
    // A missing unit or a value of the wrong type loses that value only (WeatherValueCheckTests).
    func badBodiesThrow(text: String) {
        #expect(throws: WeatherDecodeError.self) {
            try MetNorwayDecoder.decode(Array(text.utf8), coordinate: here, fetchedAt: fetchedAt)
        }
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz metno`, bench/README.md).

    @Test func aStepOutside1970To2200IsNotATime() {
        // Read as year 1, the step made a forecast day "0001-01-01".
        for time in ["0000-01-01", "9999-12-31T23:00:00Z", "1969-12-31T23:00:00Z"] {
            let body =
                #"{"properties":{"meta":{"units":{"air_temperature":"celsius"}},"timeseries":[{"time":"2026-01-01T10:00:00Z","data":{"instant":{"details":{"air_temperature":5}}}},{"time":"\#(time)","data":{"instant":{"details":{"air_temperature":6}}}}]}}"#
            #expect(throws: WeatherDecodeError.self, "\(time)") {
                try MetNorwayDecoder.decode(Array(body.utf8), coordinate: here, fetchedAt: fetchedAt)
            }
        }
    }

    /// Every symbol of the official legend, with each suffix it takes, maps onto a described WMO code.
    @Test func everyLegendSymbolMaps() throws {
        let text = try String(
            contentsOf: CoreFixtures.api.appendingPathComponent("metno-symbol-legend.csv"), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(rows.count == 41)
        for row in rows {
            let base = row[0].trimmingCharacters(in: .whitespaces)
            let variants = row.last?.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
            let names = variants ? ["\(base)_day", "\(base)_night", "\(base)_polartwilight"] : [base]
            for name in names {
                let code = MetNorwaySymbols.wmoCode(name)
                #expect(code != nil, "\(name)")
                #expect(code.flatMap { WMOCode.description($0, language: .en) } != nil, "\(name)")
                let english = row[1].lowercased()
                if english.contains("thunder") { #expect(code == 95, "\(name)") }
                if english.contains("snow"), !english.contains("thunder") {
                    #expect([71, 73, 75, 85, 86].contains(code ?? -1), "\(name)")
                }
            }
        }
        #expect(MetNorwaySymbols.wmoCode("sunshine_day") == nil)
    }

    @Test func aDayWithoutATimeZoneTurnsAtTheMeanSolarMidnight() {
        #expect(MetNorwayDecoder.solarOffsetSeconds(longitude: 11) == 3600)
        #expect(MetNorwayDecoder.solarOffsetSeconds(longitude: -122.4) == -8 * 3600)
    }
}
