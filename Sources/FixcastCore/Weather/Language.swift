/// The language of weather descriptions and the human display (`--lang`, `display.lang`).
public enum Language: String, Sendable, Hashable, CaseIterable {
    case en, ru, zh

    /// The one of three translations that is in this language (labels, tables, word lists).
    public func pick<T>(_ en: T, _ ru: T, _ zh: T) -> T {
        switch self {
        case .en: return en
        case .ru: return ru
        case .zh: return zh
        }
    }
}

/// Units for the human display only (`--units`); JSON is always SI/metric (CONTRACT.md).
public enum UnitSystem: String, Sendable, Hashable, CaseIterable {
    case metric, imperial
}
