import FixcastText
import Testing

struct TrimmingWhitespaceTests {
    @Test(arguments: [
        ("", ""),
        ("   ", ""),
        ("Köln", "Köln"),
        ("  Köln \t\n", "Köln"),
        ("\u{00A0}Bad Tölz\u{2003}", "Bad Tölz"),
        ("New  York", "New  York"),
    ])
    func onlyTheEndsLoseTheirWhiteSpace(text: String, expected: String) {
        #expect(text.trimmingWhitespace() == expected)
    }
}
