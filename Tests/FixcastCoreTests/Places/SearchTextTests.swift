import Testing

@testable import FixcastCore

struct SearchTextTests {
    @Test(arguments: [
        ("São Paulo", "sao paulo"),
        ("SAO PAULO", "sao paulo"),
        ("  sao   paulo ", "sao paulo"),
        ("Köln", "koln"),
        ("Zürich", "zurich"),
        ("Łódź", "lodz"),
        ("Straße", "strasse"),
        ("Ærøskøbing", "aeroskobing"),
        ("Đà Nẵng", "da nang"),
        ("Sa\u{0303}o", "sao"),
        ("Москва", "москва"),
        ("Ёлкино", "елкино"),
        ("北京", "北京"),
        ("Αθήνα", "αθηνα"),
        ("Ma’ale Adumim", "ma'ale adumim"),
        ("", ""),
    ])
    func folds(_ input: String, _ expected: String) {
        #expect(SearchText.fold(input) == expected)
    }

    @Test func equalSpellingsFoldTogether() {
        #expect(SearchText.fold("São Paulo") == SearchText.fold("sao paulo"))
        #expect(SearchText.fold("MOSKVA") != SearchText.fold("Москва"))
    }

    @Test func foldTableIsLoaded() {
        #expect(SearchText.foldTable.count > 500)
        #expect(SearchText.foldTable["ß"] == "ss")
    }
}
