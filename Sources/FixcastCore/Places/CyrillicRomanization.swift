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

    /// Every spelling the query may have in GeoNames' Latin names, Russian's first: BGN/PCGN
    /// (`romanized`), Ukraine's national system ("Київ" → "kyiv": и is y, г is h) and BGN/PCGN's older
    /// one for Ukrainian ("Миколаїв" → "mykolayiv"), Serbian Latin as GeoNames' ASCII names fold it ("Ниш" → "nis", "Љубовија" → "ljubovija") and
    /// Bulgaria's streamlined system ("Търговище" → "targovishte"). Distinct, none when `text` has no
    /// Cyrillic letter. A place GeoNames lists by an English name (Belgrade, Sofia) is found by none.
    public static func romanizations(_ text: String) -> [String] {
        guard let russian = romanized(text) else { return [] }
        var out = [russian]
        for table in [ukrainian, ukrainianBGN, serbian, bulgarian] {
            let spelled = spelled(text, table)
            if !out.contains(spelled) { out.append(spelled) }
        }
        return out
    }

    /// One system's letters, with the iotated forms a word starts with (Ukrainian's є, ї, й, ю, я);
    /// a letter it has none for is Russian's, and anything else is kept.
    struct Letters {
        let letters: [Unicode.Scalar: String]
        let atWordStart: [Unicode.Scalar: String]
    }

    private static func spelled(_ text: String, _ table: Letters) -> String {
        var out = ""
        var previous: Unicode.Scalar?
        for scalar in text.lowercased().unicodeScalars {
            let startsWord = previous.map { !$0.properties.isAlphabetic && $0 != "'" && $0 != "’" } ?? true
            if startsWord, let latin = table.atWordStart[scalar] {
                out += latin
            } else if let latin = table.letters[scalar] ?? letters[scalar] {
                out += latin
            } else if scalar != "'" && scalar != "’" || previous?.properties.isAlphabetic != true {
                out.unicodeScalars.append(scalar)  // an apostrophe inside a Ukrainian word leaves no letter
            }
            previous = scalar
        }
        return out
    }

    /// Ukraine's national romanization (2010), as GeoNames spells Ukrainian names.
    static let ukrainian = Letters(
        letters: [
            "г": "h", "ґ": "g", "е": "e", "є": "ie", "и": "y", "і": "i", "ї": "i", "й": "i", "х": "kh",
            "щ": "shch", "ь": "", "ю": "iu", "я": "ia",
        ],
        atWordStart: ["є": "ye", "ї": "yi", "й": "y", "ю": "yu", "я": "ya"])

    /// BGN/PCGN's for Ukrainian (1965), which many of GeoNames' older names follow ("Mykolayiv",
    /// "Zaporizhzhya"): the national system's letters with Russian's iotated vowels everywhere.
    static let ukrainianBGN = Letters(
        letters: [
            "г": "h", "ґ": "g", "е": "e", "є": "ye", "и": "y", "і": "i", "ї": "yi", "й": "y", "х": "kh",
            "щ": "shch", "ь": "", "ю": "yu", "я": "ya",
        ],
        atWordStart: [:])

    /// Serbian Cyrillic in Serbian Latin, its diacritics folded as GeoNames' ASCII names do (š s, č c).
    static let serbian = Letters(
        letters: [
            "ђ": "dj", "е": "e", "ж": "z", "и": "i", "ј": "j", "љ": "lj", "њ": "nj", "ћ": "c", "х": "h", "ц": "c",
            "ч": "c", "џ": "dz", "ш": "s",
        ],
        atWordStart: [:])

    /// Bulgaria's streamlined system (2009).
    static let bulgarian = Letters(
        letters: [
            "е": "e", "ж": "zh", "х": "h", "ц": "ts", "щ": "sht", "ъ": "a", "ь": "y", "ю": "yu", "я": "ya",
            "й": "y",
        ],
        atWordStart: [:])

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
