import Testing

@testable import FixcastText

/// RFC 8259 conformance in the manner of nst/JSONTestSuite: `y_` texts must parse (to the value
/// given), `n_` texts must be refused, `i_` texts (where the RFC lets a parser choose) pin down
/// fixcast's choice. Names follow the suite's where a case comes from it.
@Suite struct JSONConformanceTests {
    // MARK: y_: must parse, to this value

    static let mustParse: [(String, String, JSONValue)] = [
        ("y_array_empty", "[]", .array([])),
        ("y_object_empty", "{}", .object([])),
        ("y_array_arraysWithSpaces", "[[]   ]", .array([.array([])])),
        ("y_structure_whitespace_array", " \t\r\n[ 1 ,\n2 ]\n ", .array([.int(1), .int(2)])),
        ("y_object_basic", #"{"asd":"sdf"}"#, .object([("asd", .string("sdf"))])),
        ("y_object_empty_key", #"{"":0}"#, .object([("", .int(0))])),
        ("y_object_escaped_key", #"{"\u00e9t\u00e9":1}"#, .object([("été", .int(1))])),
        (
            "y_object_nested", #"{"a":{"b":[{"c":null}]}}"#,
            .object([("a", .object([("b", .array([.object([("c", .null)])]))]))])
        ),
        (
            "y_array_heterogeneous", #"[null, 1, "1", {}, true, false]"#,
            .array([.null, .int(1), .string("1"), .object([]), .bool(true), .bool(false)])
        ),
        ("y_structure_lonely_null", "null", .null),
        ("y_structure_lonely_true", "true", .bool(true)),
        ("y_structure_lonely_string", #""asd""#, .string("asd")),
        ("y_structure_lonely_int", "42", .int(42)),
        ("y_structure_lonely_negative_real", "-0.1", .double(-0.1)),
        ("y_number_0e1", "[0e1]", .array([.double(0)])),
        ("y_number_0e+1", "[0e+1]", .array([.double(0)])),
        ("y_number_negative_zero", "[-0]", .array([.int(0)])),
        ("y_number_negative_int", "[-123]", .array([.int(-123)])),
        ("y_number_real_capital_e", "[1E22]", .array([.double(1e22)])),
        ("y_number_real_capital_e_pos_exp", "[1E+2]", .array([.double(100)])),
        ("y_number_real_capital_e_neg_exp", "[1E-2]", .array([.double(0.01)])),
        ("y_number_real_exponent", "[123e45]", .array([.double(123e45)])),
        ("y_number_real_fraction_exponent", "[123.456e78]", .array([.double(123.456e78)])),
        ("y_number_simple_real", "[123.456789]", .array([.double(123.456789)])),
        ("y_number_int_min", "[-9223372036854775808]", .array([.int(Int.min)])),
        ("y_number_above_2^53_exact", "[9007199254740993]", .array([.int(9_007_199_254_740_993)])),
        ("y_string_escapes", #"["\"\\\/\b\f\n\r\t"]"#, .array([.string("\"\\/\u{8}\u{C}\n\r\t")])),
        ("y_string_unicode_escapes", #"["\u0060\u012a\u12AB"]"#, .array([.string("\u{60}\u{12A}\u{12AB}")])),
        ("y_string_surrogates_U+1D11E", #"["\uD834\uDd1e"]"#, .array([.string("𝄞")])),
        ("y_string_escaped_null", #"["\u0000"]"#, .array([.string("\u{0}")])),
        ("y_string_utf8", "[\"€𝄞 Москва\"]", .array([.string("€𝄞 Москва")])),
        ("y_string_with_del_character", "[\"a\u{7F}a\"]", .array([.string("a\u{7F}a")])),
        ("y_string_u+2028_line_sep", "[\"\u{2028}\"]", .array([.string("\u{2028}")])),
        ("y_string_nonCharacterInUTF-8_U+FFFF", "[\"\u{FFFF}\"]", .array([.string("\u{FFFF}")])),
    ]

    @Test(arguments: mustParse)
    func parses(_ name: String, _ text: String, _ expected: JSONValue) throws {
        let value = try JSONValue.parse(text)
        #expect(value == expected, "\(name)")
        // Exactly the same kinds, not just equal numbers: `==` lets .int(1) equal .double(1).
        #expect(value.serialized() == expected.serialized(), "\(name)")
    }

    // MARK: n_: must be refused

    static let mustFail: [(String, String)] = [
        ("n_structure_no_data", ""),
        ("n_structure_whitespace_only", " \n"),
        ("n_array_extra_comma", "[1,]"),
        ("n_array_extra_comma_nested", "[[],]"),
        ("n_array_comma_then_newline", "[\"a\",\n]"),
        ("n_object_trailing_comma", #"{"a":1,}"#),
        ("n_object_trailing_comma_nested", #"{"a":[1,],"b":2}"#),
        ("n_array_comma_first", "[,1]"),
        ("n_array_double_comma", "[1,,2]"),
        ("n_object_only_comma", "{,}"),
        ("n_array_unclosed", "[1"),
        ("n_array_lone_close", "]"),
        ("n_object_unclosed", "{"),
        ("n_array_missing_comma", "[1 2]"),
        ("n_object_missing_colon", #"{"a" 1}"#),
        ("n_object_missing_value", #"{"a":}"#),
        ("n_object_unquoted_key", "{a:1}"),
        ("n_object_single_quote", "{'a':1}"),
        ("n_object_non_string_key", "{1:1}"),
        ("n_array_colon_instead_of_comma", #"["a":1]"#),
        ("n_number_leading_zero", "[01]"),
        ("n_number_neg_leading_zero", "[-01]"),
        ("n_number_leading_zeros_int", "01"),
        ("n_number_real_without_fractional_part", "[1.]"),
        ("n_number_starting_with_dot", "[.5]"),
        ("n_number_plus_one", "[+1]"),
        ("n_number_minus_only", "[-]"),
        ("n_number_minus_space_1", "[- 1]"),
        ("n_number_exponent_without_digits", "[1e]"),
        ("n_number_exponent_sign_without_digits", "[1e+]"),
        ("n_number_2.e3", "[2.e3]"),
        ("n_number_hex", "[0x1]"),
        ("n_number_NaN", "[NaN]"),
        ("n_number_infinity", "[Infinity]"),
        ("n_number_minus_infinity", "[-Infinity]"),
        ("n_number_with_underscore", "[1_000]"),
        ("n_incomplete_true", "[tru]"),
        ("n_capitalized_True", "[True]"),
        ("n_incomplete_null", "[nul]"),
        ("n_literal_with_trailing_letter", "[nulll]"),
        ("n_literals_run_together", "[truefalse]"),
        ("n_string_invalid_escape", #"["\x"]"#),
        ("n_string_short_unicode_escape", #"["\u00"]"#),
        ("n_string_lone_high_surrogate", #"["\uD800"]"#),
        ("n_string_lone_low_surrogate", #"["\uDC00"]"#),
        ("n_string_high_surrogate_then_letter", #"["\uD800\u0041"]"#),
        ("n_string_unescaped_tab", "[\"a\tb\"]"),
        ("n_string_unescaped_newline", "[\"a\nb\"]"),
        ("n_string_unescaped_ctrl_char", "[\"a\u{1}b\"]"),
        ("n_string_single_quote", "['a']"),
        ("n_string_unterminated", #"["abc"#),
        ("n_string_escaped_closing_quote_only", #"["\"]"#),
        ("n_structure_trailing_garbage", "[1]x"),
        ("n_structure_close_unopened_array", "[1]]"),
        ("n_structure_two_values", "{}{}"),
        ("n_structure_two_numbers", "1 2"),
        ("n_structure_trailing_comment", "[1]/*c*/"),
        ("n_structure_leading_comment", "// c\n[1]"),
        ("n_structure_formfeed_is_not_whitespace", "\u{C}[1]"),
        ("n_structure_vertical_tab_is_not_whitespace", "[1\u{B}]"),
        ("n_structure_nbsp_is_not_whitespace", "[\u{A0}1]"),
        ("n_object_duplicate_key", #"{"a":1,"a":2}"#),
        ("n_object_duplicate_key_escaped", #"{"a":1,"\u0061":2}"#),
        ("n_object_duplicate_key_canonically_equal", "{\"\u{E9}\":1,\"e\u{301}\":2}"),
        ("n_object_duplicate_key_nested", #"[{"x":{"b":1,"c":2,"b":3}}]"#),
    ]

    @Test(arguments: mustFail)
    func refuses(_ name: String, _ text: String) {
        #expect(throws: JSONParseError.self, "\(name)") { try JSONValue.parse(text) }
    }

    static let mustFailBytes: [(String, [UInt8])] = [
        ("n_string_invalid_utf8", Array(#"["a"#.utf8) + [0xFF] + Array(#""]"#.utf8)),
        ("n_string_lone_continuation_byte", Array(#"[""#.utf8) + [0x80] + Array(#""]"#.utf8)),
        ("n_string_overlong_solidus", Array(#"[""#.utf8) + [0xC0, 0xAF] + Array(#""]"#.utf8)),
        ("n_string_utf8_encoded_surrogate", Array(#"[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8)),
        ("n_string_truncated_utf8", Array(#"[""#.utf8) + [0xE2, 0x82] + Array(#""]"#.utf8)),
        ("n_object_key_invalid_utf8", Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8)),
        ("n_structure_utf16le", [0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00]),
        ("n_structure_utf16le_bom", [0xFF, 0xFE, 0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00]),
        ("n_structure_utf16be_bom", [0xFE, 0xFF, 0x00, 0x5B, 0x00, 0x31, 0x00, 0x5D]),
        ("n_string_nul_byte", Array(#"["a"#.utf8) + [0x00] + Array(#""]"#.utf8)),
        ("n_structure_nul_after_value", Array("[1]".utf8) + [0x00]),
        ("n_structure_bare_invalid_byte", [0xFF]),
    ]

    @Test(arguments: mustFailBytes)
    func refusesBytes(_ name: String, _ bytes: [UInt8]) {
        #expect(throws: JSONParseError.self, "\(name)") { try JSONValue.parse(bytes) }
    }

    // MARK: i_: the RFC leaves it open; fixcast's choice

    @Test func implementationDefinedChoices() throws {
        // A UTF-8 byte order mark is skipped (RFC 8259 §8.1 allows it).
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.int(1)]))
        // Underflow rounds to zero, as Double's parser rounds every number.
        #expect(try JSONValue.parse("[1e-400]").serialized() == "[0.0]")
        // An integer too big for Int becomes the nearest Double, not an error.
        #expect(try JSONValue.parse("[123456789012345678901234567890]") == .array([.double(1.2345678901234568e29)]))
        #expect(try JSONValue.parse("[9223372036854775808]").serialized() == "[9.223372036854776e+18]")
        // Overflow (i_number_huge_exp) reads as infinity: one absurd API field must not cost the whole
        // response; the value checks null it with an error naming the field, and it is written as null.
        #expect(try JSONValue.parse("[1e400]") == .array([.double(.infinity)]))
        #expect(try JSONValue.parse("[-1e400]") == .array([.double(-.infinity)]))
        #expect(try JSONValue.parse("[1e400]").serialized() == "[null]")
        // Duplicate keys are an error at the second one.
        #expect(throws: JSONParseError(offset: 7, reason: "duplicate key")) { try JSONValue.parse(#"{"a":1,"a":2}"#) }
        // A noncharacter escape is a valid scalar and kept.
        #expect(try JSONValue.parse(#"["\uFFFF"]"#) == .array([.string("\u{FFFF}")]))
    }

    // MARK: Errors point at the spot

    @Test func errorOffsets() {
        #expect(throws: JSONParseError(offset: 3, reason: "trailing comma")) { try JSONValue.parse("[1,]") }
        #expect(throws: JSONParseError(offset: 1, reason: "number with a leading zero")) { try JSONValue.parse("[01]") }
        #expect(throws: JSONParseError(offset: 3, reason: "unexpected text after the JSON value")) {
            try JSONValue.parse("[1]x")
        }
        #expect(throws: JSONParseError(offset: 1, reason: "a NUL byte (the text is not UTF-8)")) {
            try JSONValue.parse([0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00])
        }
        // The decoder's refusal of a string is traced to that string.
        let badString = #"[1, "ok", "a\x"]"#
        #expect(throws: JSONValue.invalidStringError(at: 10)) { try JSONValue.parse(badString) }
        let badUTF8 = Array(#"{"k": ["fine", "a"#.utf8) + [0xFF] + Array(#""]}"#.utf8)
        #expect(throws: JSONValue.invalidStringError(at: 15)) { try JSONValue.parse(badUTF8) }
    }

    // MARK: Nesting

    @Test func hostileNestingIsRefusedWithoutCrashing() {
        for open in ["[", #"{"a":"#] {
            let text = String(repeating: open, count: 100_000)
            let depth = JSONDocumentShape.maxDepth
            #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
            do {
                _ = try JSONValue.parse(text)
            } catch {
                #expect(error.reason == "nesting deeper than \(depth) levels")
            }
        }
        let tooDeep =
            String(repeating: "[", count: JSONDocumentShape.maxDepth + 1)
            + String(repeating: "]", count: JSONDocumentShape.maxDepth + 1)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(tooDeep) }
    }

    @Test func nestingAtTheLimitParsesAndRoundTrips() throws {
        // Alternate objects and arrays down to the limit, on a test's (non-main) thread.
        var text = "1"
        for level in 0..<JSONDocumentShape.maxDepth {
            text = level.isMultiple(of: 2) ? "[\(text)]" : #"{"k\#(level)":\#(text)}"#
        }
        let value = try JSONValue.parse(text)
        #expect(value.serialized() == text)
    }
}
