import Testing
@testable import FixcastCore

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
