extension AlertSeverity {
    /// The severity as a person reads it in `language`, the same on every surface (the live screen,
    /// `line`'s `%A`, the trip report). Chinese uses the words of China's four-level warning scale
    /// (China Meteorological Administration: 特别严重 red, 严重 orange, 较重 yellow, 一般 blue), onto which
    /// CAP's four levels map one to one, so a reader meets the words the official warnings use.
    public func word(_ language: Language) -> String {
        switch self {
        case .extreme: return language.pick("extreme", "чрезвычайное", "特别严重")
        case .severe: return language.pick("severe", "сильное", "严重")
        case .moderate: return language.pick("moderate", "умеренное", "较重")
        case .minor: return language.pick("minor", "слабое", "一般")
        case .unknown: return language.pick("severity unknown", "уровень неизвестен", "级别未知")
        }
    }
}
