import FixcastCore
import Testing

@Suite struct DisplayUnitsTests {
    let metric = DisplayUnits(.metric)
    let imperial = DisplayUnits(.imperial)

    @Test(arguments: [
        (0.0, "0 °C", "32 °F"), (100.0, "100 °C", "212 °F"), (-40.0, "-40 °C", "-40 °F"),
        (3.1, "3 °C", "38 °F"), (-0.4, "0 °C", "31 °F"), (21.5, "22 °C", "71 °F"),
    ])
    func temperatures(celsius: Double, m: String, i: String) {
        #expect(metric.temperature(celsius) == m)
        #expect(imperial.temperature(celsius) == i)
    }

    @Test func speedPressurePrecipitationAndDistance() {
        #expect(metric.speed(4.2) == "4.2 m/s")
        #expect(imperial.speed(4.4704) == "10 mph")
        #expect(metric.pressure(1013.25) == "1013 hPa")
        #expect(imperial.pressure(1013.25) == "29.92 inHg")
        #expect(metric.precipitation(0.2) == "0.2 mm")
        #expect(imperial.precipitation(25.4) == "1.00 in")
        #expect(metric.distance(km: 5) == "5.0 km")
        #expect(imperial.distance(km: 1.609344) == "1.0 mi")
        #expect(metric.percent(81) == "81 %")
        #expect(imperial.percent(81) == "81 %")
    }

    @Test func unknownIsADashNeverZero() {
        for units in [metric, imperial] {
            #expect(units.temperature(nil) == "—")
            #expect(units.temperature(.nan) == "—")
            #expect(units.speed(nil) == "—")
            #expect(units.pressure(nil) == "—")
            #expect(units.precipitation(.infinity) == "—")
            #expect(units.percent(nil) == "—")
            #expect(units.temperatureNumber(nil) == "—")
        }
    }

    @Test(arguments: [
        (0.0, 0, "0"), (-0.04, 1, "0.0"), (0.05, 1, "0.1"), (-1.25, 1, "-1.3"), (0.007, 2, "0.01"),
        (1234.5, 0, "1235"), (-3.0, 2, "-3.00"), (12.345, 3, "12.345"), (52.52, 4, "52.5200"),
        (119.75937, 4, "119.7594"), (-0.00012, 4, "-0.0001"), (0.00049, 4, "0.0005"), (-7.05, 6, "-7.050000"),
        (10.0, 0, "10"), (9.99996, 4, "10.0000"), (1000.0, 2, "1000.00"), (-180.0, 4, "-180.0000"),
        (123_456_789.0, 0, "123456789"), (0.1, 9, "0.100000"), (.nan, 2, "—"), (1e20, 0, "—"),
    ])
    func fixedNumbers(value: Double, decimals: Int, text: String) {
        #expect(NumberText.fixed(value, decimals: decimals) == text)
    }

    @Test func fixedAppendsAfterWhatTheTextHolds() {
        var text = "lat "
        NumberText.appendFixed(-52.52, decimals: 4, to: &text)
        text += ", "
        NumberText.appendFixed(0.0, decimals: 0, to: &text)
        #expect(text == "lat -52.5200, 0")
    }

    @Test func conversions() {
        #expect(UnitConversion.fahrenheit(celsius: 37) == 98.6)
        #expect(abs(UnitConversion.mph(metresPerSecond: 1) - 2.236936) < 1e-6)
        #expect(abs(UnitConversion.inchesOfMercury(hectopascals: 33.8639) - 1) < 1e-12)
        #expect(UnitConversion.inches(millimetres: 50.8) == 2)
    }

    @Test(arguments: [
        (0.0, "N"), (11.2, "N"), (11.3, "NNE"), (90.0, "E"), (250.0, "WSW"), (348.75, "N"),
        (359.9, "N"), (360.0, "N"), (-90.0, "W"), (725.0, "N"),
    ])
    func compassPoints(degrees: Double, name: String) {
        #expect(CompassPoint.name(degrees: degrees) == name)
    }

    @Test func compassInOtherLanguagesAndUnknown() {
        #expect(CompassPoint.name(degrees: 180, language: .ru) == "Ю")
        #expect(CompassPoint.name(degrees: 45, language: .zh) == "东北")
        #expect(CompassPoint.name(degrees: nil) == nil)
        #expect(CompassPoint.name(degrees: .nan) == nil)
    }
}
