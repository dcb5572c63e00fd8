/// A count with its noun in English, singular for one and plural otherwise ("1 reading",
/// "2 readings", "0 readings"), for the English sentences of status lines and errors. The weather
/// and report words of other languages have their own forms (`ReportWords`, with `russian`).
public enum CountedNoun {
    /// `count` and `singular`, or `plural` (default: `singular` + "s") unless the count is one.
    public static func phrase(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    /// `count` and the Russian form it takes: `one` after 1, 21, 101 … (not 11), `few` after 2–4,
    /// 22–24 … (not 12–14), `many` otherwise ("1 замер", "3 замера", "5 замеров", "11 замеров").
    public static func russian(_ count: Int, one: String, few: String, many: String) -> String {
        let n = count.magnitude
        let form: String
        if n % 10 == 1, n % 100 != 11 {
            form = one
        } else if (2...4).contains(n % 10), !(12...14).contains(n % 100) {
            form = few
        } else {
            form = many
        }
        return "\(count) " + form
    }
}
