import FixcastCore
import Testing

/// `CyrillicRomanization`: BGN/PCGN as GeoNames spells Russian names, with the Ukrainian letters.
struct CyrillicRomanizationTests {
    @Test(arguments: [
        ("Новосибирск", "novosibirsk"),
        ("Екатеринбург", "yekaterinburg"),  // е at a word's start: ye
        ("Нижний Новгород", "nizhniy novgorod"),  // й: y
        ("Набережные Челны", "naberezhnyye chelny"),  // е after a vowel: ye; ы: y
        ("Ростов-на-Дону", "rostov-na-donu"),
        ("Пермь", "perm"),  // ь leaves no letter
        ("Подъезд", "podyezd"),  // е after ъ: ye
        ("Щёлково", "shchelkovo"),  // щ: shch; ё after a consonant: e
        ("Ёлкино", "yolkino"),  // ё at a word's start: yo
        ("Хабаровск", "khabarovsk"),
        ("Цюрупинськ", "tsyurupinsk"),
        ("Харків", "kharkiv"),  // і
        ("Євпаторія", "yevpatoriya"),  // є, я
        ("Ґалаґан", "galagan"),
    ])
    func romanizes(_ cyrillic: String, _ latin: String) {
        #expect(CyrillicRomanization.romanized(cyrillic) == latin)
    }

    /// Ukrainian, Serbian and Bulgarian names as GeoNames spells them are among the spellings tried;
    /// Russian's comes first.
    @Test(arguments: [
        ("Київ", "kyiv"), ("Миколаїв", "mykolaiv"), ("Миколаїв", "mykolayiv"), ("Запоріжжя", "zaporizhzhia"),
        ("Житомир", "zhytomyr"),
        ("Ніжин", "nizhyn"), ("Ниш", "nis"), ("Љубовија", "ljubovija"), ("Чачак", "cacak"),
        ("Търговище", "targovishte"), ("Велико Търново", "veliko tarnovo"),
    ])
    func otherSystemsAreTried(_ cyrillic: String, _ latin: String) {
        let spellings = CyrillicRomanization.romanizations(cyrillic)
        #expect(spellings.contains(latin), "\(spellings)")
        #expect(spellings.first == CyrillicRomanization.romanized(cyrillic))
        #expect(Set(spellings).count == spellings.count)
    }

    @Test func textWithoutCyrillicIsNil() {
        #expect(CyrillicRomanization.romanizations("Berlin").isEmpty)
        #expect(CyrillicRomanization.romanized("Berlin") == nil)
        #expect(CyrillicRomanization.romanized("北京") == nil)
        #expect(CyrillicRomanization.romanized("") == nil)
    }

    @Test func otherCharactersAreKept() {
        #expect(CyrillicRomanization.romanized("Уфа 2") == "ufa 2")
        #expect(CyrillicRomanization.romanized("St. Пермь") == "st. perm")
    }
}
