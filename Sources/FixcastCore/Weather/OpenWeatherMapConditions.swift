/// OpenWeatherMap condition ids mapped onto WMO codes, so every provider shares one code scale and one
/// set of translated descriptions. WMO has no sleet and no dust; the nearest code is used (sleet →
/// freezing rain, smoke/haze/dust/sand → fog) so that a forecast never claims clear sky for them.
/// - SeeAlso: https://openweathermap.org/weather-conditions
public enum OpenWeatherMapConditions {
    public static func wmoCode(_ id: Int) -> Int? {
        switch id {
        case 200...232: return 95  // thunderstorm (with rain/drizzle)
        case 300, 310: return 51  // light drizzle
        case 301, 311: return 53
        case 302, 312: return 55
        case 313, 321: return 80  // shower drizzle
        case 314: return 81
        case 500: return 61
        case 501: return 63
        case 502, 503, 504: return 65
        case 511: return 66  // freezing rain
        case 520: return 80
        case 521: return 81
        case 522, 531: return 82
        case 600: return 71
        case 601: return 73
        case 602: return 75
        case 611, 612, 615: return 66  // sleet, light rain and snow
        case 613, 616: return 67
        case 620: return 85
        case 621, 622: return 86
        case 701...781: return 45  // mist, smoke, haze, dust, fog, sand, ash, squalls, tornado
        case 800: return 0
        case 801: return 1
        case 802: return 2
        case 803, 804: return 3
        default: return nil
        }
    }
}
