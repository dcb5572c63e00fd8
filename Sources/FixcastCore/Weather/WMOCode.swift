/// WMO weather interpretation codes (WW), Open-Meteo's scale, with descriptions in every display language.
/// OWNED BY the weather work: the table is filled there.
public enum WMOCode {
    /// The description of `code` in `language`; nil for a code outside the table.
    public static func description(_ code: Int, language: Language) -> String? {
        nil
    }
}
