import Testing

@testable import FixcastCore

@Suite struct WeatherUnitsTests {
    @Test(arguments: [
        (36.0, "km/h", 10.0), (10.0, "m/s", 10.0), (10.0, "ms", 10.0), (1.0, "mph", 0.44704), (1.0, "kn", 0.514444),
    ])
    func speed(value: Double, unit: String, si: Double) throws {
        #expect(abs(try WeatherUnits.toSI(value, unit: unit, quantity: .speed, path: "x") - si) < 1e-5)
    }

    @Test(arguments: [
        (50.0, "°F", 10.0), (10.0, "°C", 10.0), (283.15, "K", 10.0), (-40.0, "fahrenheit", -40.0),
        (5.0, "celsius", 5.0),
    ])
    func temperature(value: Double, unit: String, si: Double) throws {
        #expect(abs(try WeatherUnits.toSI(value, unit: unit, quantity: .temperature, path: "x") - si) < 1e-9)
    }

    @Test(arguments: [(1013.0, "hPa", 1013.0), (101300.0, "Pa", 1013.0), (29.92, "inHg", 1013.2)])
    func pressure(value: Double, unit: String, si: Double) throws {
        #expect(abs(try WeatherUnits.toSI(value, unit: unit, quantity: .pressure, path: "x") - si) < 0.1)
    }

    @Test(arguments: [(1.0, "inch", 25.4), (2.5, "mm", 2.5), (1.0, "cm", 10.0)])
    func precipitation(value: Double, unit: String, si: Double) throws {
        #expect(abs(try WeatherUnits.toSI(value, unit: unit, quantity: .precipitation, path: "x") - si) < 1e-9)
    }

    @Test func unknownUnitIsAnErrorNamingThePath() {
        #expect(throws: WeatherDecodeError.self) {
            try WeatherUnits.toSI(1, unit: "furlong/fortnight", quantity: .speed, path: "current.wind")
        }
        do {
            _ = try WeatherUnits.toSI(1, unit: "°Ré", quantity: .temperature, path: "current.temperature_2m")
            Issue.record("no error")
        } catch {
            #expect(error.detail.contains("current.temperature_2m"))
            #expect(error.detail.contains("°Ré"))
        }
    }
}
