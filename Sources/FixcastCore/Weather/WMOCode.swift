/// WMO weather interpretation codes (WW), Open-Meteo's scale, with descriptions in every display language.
///
/// The reading's `weather_code` is always on this scale (CONTRACT.md); OpenWeatherMap condition ids and
/// MET Norway symbol codes are mapped onto it, so one table describes every provider.
/// - SeeAlso: https://open-meteo.com/en/docs (the "WMO Weather interpretation codes" table).
public enum WMOCode {
    /// Every code Open-Meteo uses, ascending.
    public static let all: [Int] = table.keys.sorted()

    /// The description of `code` in `language`; nil for a code outside the table.
    public static func description(_ code: Int, language: Language) -> String? {
        guard let entry = table[code] else { return nil }
        return language.pick(entry.en, entry.ru, entry.zh)
    }

    /// How bad a code is, for folding several steps into one day (a day with one thunderstorm is a
    /// thunderstorm day). The WMO numbers do not rise with severity across groups (80, slight rain
    /// showers, is not worse than 65, heavy rain; 85, slight snow showers, not worse than 75, heavy
    /// snow), so the order is this list's: cloud, fog, drizzle, rain and showers by intensity, freezing
    /// drizzle, snow and snow showers by intensity, freezing rain, thunderstorm. A code outside the
    /// table ranks below all.
    public static func severity(_ code: Int) -> Int {
        severityOrder.firstIndex(of: code) ?? -1
    }

    static let severityOrder = [
        0, 1, 2, 3, 45, 48, 51, 53, 55, 61, 80, 63, 81, 65, 82, 56, 57, 71, 85, 77, 73, 75, 86, 66, 67, 95, 96, 99,
    ]

    private struct Entry {
        let en: String
        let ru: String
        let zh: String
    }

    private static let table: [Int: Entry] = [
        0: Entry(en: "Clear sky", ru: "Ясно", zh: "晴"),
        1: Entry(en: "Mainly clear", ru: "Преимущественно ясно", zh: "大部晴朗"),
        2: Entry(en: "Partly cloudy", ru: "Переменная облачность", zh: "局部多云"),
        3: Entry(en: "Overcast", ru: "Пасмурно", zh: "阴"),
        45: Entry(en: "Fog", ru: "Туман", zh: "雾"),
        48: Entry(en: "Depositing rime fog", ru: "Туман с изморозью", zh: "雾凇"),
        51: Entry(en: "Light drizzle", ru: "Слабая морось", zh: "小毛毛雨"),
        53: Entry(en: "Moderate drizzle", ru: "Умеренная морось", zh: "中毛毛雨"),
        55: Entry(en: "Dense drizzle", ru: "Сильная морось", zh: "大毛毛雨"),
        56: Entry(en: "Light freezing drizzle", ru: "Слабая ледяная морось", zh: "轻度冻毛毛雨"),
        57: Entry(en: "Dense freezing drizzle", ru: "Сильная ледяная морось", zh: "重度冻毛毛雨"),
        61: Entry(en: "Slight rain", ru: "Небольшой дождь", zh: "小雨"),
        63: Entry(en: "Moderate rain", ru: "Умеренный дождь", zh: "中雨"),
        65: Entry(en: "Heavy rain", ru: "Сильный дождь", zh: "大雨"),
        66: Entry(en: "Light freezing rain", ru: "Слабый ледяной дождь", zh: "轻度冻雨"),
        67: Entry(en: "Heavy freezing rain", ru: "Сильный ледяной дождь", zh: "重度冻雨"),
        71: Entry(en: "Slight snow fall", ru: "Небольшой снег", zh: "小雪"),
        73: Entry(en: "Moderate snow fall", ru: "Умеренный снег", zh: "中雪"),
        75: Entry(en: "Heavy snow fall", ru: "Сильный снег", zh: "大雪"),
        77: Entry(en: "Snow grains", ru: "Снежные зёрна", zh: "米雪"),
        80: Entry(en: "Slight rain showers", ru: "Небольшой ливень", zh: "小阵雨"),
        81: Entry(en: "Moderate rain showers", ru: "Умеренный ливень", zh: "中阵雨"),
        82: Entry(en: "Violent rain showers", ru: "Сильный ливень", zh: "强阵雨"),
        85: Entry(en: "Slight snow showers", ru: "Небольшой снегопад", zh: "小阵雪"),
        86: Entry(en: "Heavy snow showers", ru: "Сильный снегопад", zh: "大阵雪"),
        95: Entry(en: "Thunderstorm", ru: "Гроза", zh: "雷暴"),
        96: Entry(en: "Thunderstorm with slight hail", ru: "Гроза с небольшим градом", zh: "雷暴伴小冰雹"),
        99: Entry(en: "Thunderstorm with heavy hail", ru: "Гроза с сильным градом", zh: "雷暴伴大冰雹"),
    ]
}
