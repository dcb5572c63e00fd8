import Testing

@testable import FixcastText

@Suite struct JSONValueTests {
    @Test func roundTripKeepsOrderAndNulls() throws {
        let text = #"{"b":1,"a":[null,2.5,"x\n\"y"],"c":{"d":true}}"#
        let v = try JSONValue.parse(text)
        #expect(v.serialized() == text)
        #expect(v["a"]?[0]?.isNull == true)
        #expect(v["a"]?[1]?.doubleValue == 2.5)
        #expect(v["c"]?["d"]?.boolValue == true)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "tru", "\"abc", "1 2", "01x"])
    func rejectsInvalid(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func unicodeEscapes() throws {
        let v = try JSONValue.parse(#""\u041c\u043e\u0441\u043a\u0432\u0430 \ud83d\ude00""#)
        #expect(v.stringValue == "Москва 😀")
    }

    @Test func nonFiniteNumbersAreNull() {
        #expect(JSONValue.number(Double.nan) == .null)
        #expect(JSONValue.number(Double?.none) == .null)
        #expect(JSONValue.double(34).serialized() == "34.0")
    }
}

/// Issue 11 item 1: JSON keeps outside text exactly, with every control, DEL, C1, line separator
/// and bidi character escaped, so printed JSON never carries one raw.
@Suite struct JSONValueControlEscapeTests {
    @Test("hostile text round-trips and its serialization holds no unsafe scalar")
    func hostileRoundTrip() throws {
        let hostile =
            "\u{1B}]0;pwned\u{07}\u{1B}[2JTown\u{0}\u{8}\r\n\t\u{7F}\u{9B}\u{9D}\u{2028}\u{2029}\u{202E}\u{2066}\u{200F}\u{61C}"
        let text = JSONValue.object([("name", .string(hostile))]).serialized()
        #expect(!text.unicodeScalars.contains { TerminalText.isUnsafe($0) })
        #expect(
            text.contains("\\u001b") && text.contains("\\u007f") && text.contains("\\u009b") && text.contains("\\u2028")
                && text.contains("\\u202e"))
        #expect(try JSONValue.parse(text)["name"]?.stringValue == hostile)
    }
}
