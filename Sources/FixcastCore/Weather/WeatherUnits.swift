/// Converts a value in the unit an API names to fixcast's SI/metric unit (CONTRACT.md: JSON is
/// always °C, m/s, hPa, mm). The unit is read from the response (`*_units` blocks, MET's
/// `meta.units`), never assumed from what was requested; an unknown unit is a decode error rather
/// than a number silently off by a factor.
public enum WeatherUnits {
    public enum Quantity: String, Sendable {
        case temperature, speed, pressure, precipitation
    }

    /// `value` in `unit` → the SI value; throws for a unit this quantity does not know.
    public static func toSI(_ value: Double, unit: String, quantity: Quantity, path: String) throws(WeatherDecodeError)
        -> Double
    {
        let u = unit.trimmedLowercase
        switch quantity {
        case .temperature:
            switch u {
            case "°c", "c", "celsius", "degc": return value
            case "°f", "f", "fahrenheit", "degf": return (value - 32) * 5 / 9
            case "k", "kelvin": return value - 273.15
            default: break
            }
        case .speed:
            switch u {
            case "m/s", "ms", "mps": return value
            case "km/h", "kmh", "kph": return value / 3.6
            case "mph", "mp/h": return value * 0.44704
            case "kn", "kt", "knots", "kts": return value * 1852 / 3600
            default: break
            }
        case .pressure:
            switch u {
            case "hpa", "mbar", "mb": return value
            case "pa": return value / 100
            case "kpa": return value * 10
            case "inhg": return value * 33.8639
            default: break
            }
        case .precipitation:
            switch u {
            case "mm": return value
            case "cm": return value * 10
            case "inch", "in", "inches": return value * 25.4
            default: break
            }
        }
        throw WeatherDecodeError("\(path) is in an unknown \(quantity.rawValue) unit \"\(unit)\"")
    }
}

extension String {
    var trimmedLowercase: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s.lowercased()
    }
}
