/// The language of weather descriptions and the human display (`--lang`, `display.lang`).
public enum Language: String, Sendable, Hashable, CaseIterable {
    case en, ru, zh
}

/// Units for the human display only (`--units`); JSON is always SI/metric (CONTRACT.md).
public enum UnitSystem: String, Sendable, Hashable, CaseIterable {
    case metric, imperial
}
