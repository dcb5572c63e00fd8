/// A count with its noun in English, singular for one and plural otherwise ("1 reading",
/// "2 readings", "0 readings"), for the English sentences of status lines and errors. The weather
/// and report words of other languages have their own forms (`ReportWords`).
public enum CountedNoun {
    /// `count` and `singular`, or `plural` (default: `singular` + "s") unless the count is one.
    public static func phrase(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
