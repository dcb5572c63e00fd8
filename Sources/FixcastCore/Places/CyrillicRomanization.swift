/// A place name typed in Cyrillic, in the Latin letters GeoNames spells most such names with, so that
/// the bundled table (Latin names only) finds it: BGN/PCGN for Russian ("Екатеринбург" →
/// "yekaterinburg", "Нижний Новгород" → "nizhniy novgorod", "Ростов-на-Дону" → "rostov-na-donu"), with
/// the Ukrainian and Belarusian letters added (і, ї, є, ґ, ў). A place GeoNames lists under an English
/// name ("Moscow" for Москва) or another romanization ("Kyiv") is not found this way; the online search
/// knows those.
public enum CyrillicRomanization {
    /// `text` with its Cyrillic letters romanized (lower case); nil when it has none.
    public static func romanized(_ text: String) -> String? {
        let scalars = Array(text.lowercased().unicodeScalars)
        guard scalars.contains(where: { letters[$0] != nil }) else { return nil }
        var out = ""
        var previous: Unicode.Scalar?
        for scalar in scalars {
            // е and ё are "ye" and "yo" where a word starts and after a vowel or a sign (BGN/PCGN).
            let iotated = previous.map { !$0.properties.isAlphabetic || softeners.contains($0) } ?? true
            switch scalar {
            case "е": out += iotated ? "ye" : "e"
            case "ё": out += iotated ? "yo" : "e"
            default:
                if let latin = letters[scalar] { out += latin } else { out.unicodeScalars.append(scalar) }
            }
            previous = scalar
        }
        return out
    }

    /// Vowels and signs after which е and ё are iotated.
    private static let softeners: Set<Unicode.Scalar> = Set("аеёиоуыэюяіїєъьй".unicodeScalars)

    /// Every other letter, lower case (е and ё are above). ъ and ь leave no letter: GeoNames' ASCII
    /// names drop the apostrophe BGN/PCGN writes for ь ("Perm" for Пермь).
    private static let letters: [Unicode.Scalar: String] = {
        let pairs: [(Unicode.Scalar, String)] = [
            ("а", "a"), ("б", "b"), ("в", "v"), ("г", "g"), ("д", "d"), ("е", "e"), ("ё", "e"), ("ж", "zh"),
            ("з", "z"), ("и", "i"), ("й", "y"), ("к", "k"), ("л", "l"), ("м", "m"), ("н", "n"), ("о", "o"),
            ("п", "p"), ("р", "r"), ("с", "s"), ("т", "t"), ("у", "u"), ("ф", "f"), ("х", "kh"), ("ц", "ts"),
            ("ч", "ch"), ("ш", "sh"), ("щ", "shch"), ("ъ", ""), ("ы", "y"), ("ь", ""), ("э", "e"), ("ю", "yu"),
            ("я", "ya"), ("і", "i"), ("ї", "yi"), ("є", "ye"), ("ґ", "g"), ("ў", "w"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs)
    }()
}
