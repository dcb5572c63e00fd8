import Testing

@testable import FixcastText

/// Outside text in a status bar: tmux's `#(`, `#{`, `#[` and polybar's `%{` lose their opener.
@Suite struct BarMarkupTests {
    @Test(
        "a markup opener becomes its full-width twin",
        arguments: [
            ("#(touch /tmp/x)", "＃(touch /tmp/x)"),
            ("#{host}", "＃{host}"),
            ("#[fg=red]Town", "＃[fg=red]Town"),
            ("%{A1:rm -rf ~:}Town%{A}", "％{A1:rm -rf ~:}Town％{A}"),
            ("##(x)", "#＃(x)"),
            ("Town#", "Town＃"),
            ("Town%", "Town％"),
        ])
    func openersBecomeInert(_ input: String, _ expected: String) {
        #expect(BarMarkup.inert(input) == expected)
    }

    @Test("a # or % that opens nothing stays as it is")
    func ordinaryText() {
        #expect(BarMarkup.inert("Pub #1, 100% Köln") == "Pub #1, 100% Köln")
        #expect(BarMarkup.inert("") == "")
        #expect(BarMarkup.inert("%(x) #} %[") == "%(x) #} %[")
    }
}
