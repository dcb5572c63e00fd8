import Testing

@testable import FixcastText

@Suite struct TOMLSubsetTests {
    @Test func parsesEveryValueKindWithLinesInOrder() throws {
        let text = """
            # a comment

            [gps]
            host = "127.0.0.1"   # trailing comment
            port = 2_947
            neg = -3
            ratio = 0.5
            exp = 1e3
            signed = +2.5E-1
            on = true
            off = false
            [weather]
            lit = 'C:\\no\\escapes "here"'
            esc = "tab\\tquote\\"back\\\\slash\\u00e9\\U0001F600 #not a comment"
            empty = ""
            """
        let doc = try TOMLSubset.parse(text)
        #expect(doc.sections == [TOMLSection(name: "gps", line: 3), TOMLSection(name: "weather", line: 12)])
        let values = doc.entries.map { "\($0.section).\($0.key)@\($0.line)" }
        #expect(
            values == [
                "gps.host@4", "gps.port@5", "gps.neg@6", "gps.ratio@7", "gps.exp@8", "gps.signed@9", "gps.on@10",
                "gps.off@11", "weather.lit@13", "weather.esc@14", "weather.empty@15",
            ])
        #expect(
            doc.entries.map(\.value) == [
                .string("127.0.0.1"), .integer(2947), .integer(-3), .float(0.5), .float(1000), .float(0.25),
                .boolean(true),
                .boolean(false), .string("C:\\no\\escapes \"here\""),
                .string("tab\tquote\"back\\slash\u{e9}\u{1F600} #not a comment"),
                .string(""),
            ])
    }

    @Test func crlfLineEndsAndIndentationAreFine() throws {
        let doc = try TOMLSubset.parse("[gps]\r\n  port = 1\r\n\t host = \"h\"\r\n")
        #expect(doc.entries.map(\.value) == [.integer(1), .string("h")])
    }

    @Test(arguments: [
        ("port = 1", 1, "before any [table]"),
        ("[gps]\nport = ", 2, "expected a value"),
        ("[gps]\nport 2947", 2, "expected key = value"),
        ("[gps]\nhost = 127.0.0.1", 2, "not a value"),
        ("[gps]\nhost = \"open", 2, "unterminated string"),
        ("[gps]\nhost = 'open", 2, "unterminated string"),
        ("[gps]\nhost = \"a\\qb\"", 2, "unknown escape"),
        ("[gps]\nhost = \"\\u12\"", 2, "escape"),
        ("[gps]\nhost = \"\\uD800\"", 2, "escape"),
        ("[gps]\nport = 1 2", 2, "unexpected text"),
        ("[gps]\nport = 01", 2, "not a value"),
        ("[gps]\nport = 1__0", 2, "not a value"),
        ("[gps]\nport = 1.", 2, "not a value"),
        ("[gps]\nport = [1, 2]", 2, "arrays"),
        ("[gps]\nport = {a = 1}", 2, "inline tables"),
        ("[gps]\nhost = \"\"\"x\"\"\"", 2, "multi-line"),
        ("[gps]\na.b = 1", 2, "dotted keys"),
        ("[gps]\n\"quoted\" = 1", 2, "quoted keys"),
        ("[gps.sub]", 1, "dotted table"),
        ("[[gps]]", 1, "arrays of tables"),
        ("[gps", 1, "expected ']'"),
        ("[gps] x", 1, "unexpected text"),
        ("[gps]\n[trigger]\n[gps]", 3, "defined twice"),
        ("[gps]\nport = 1\n\nport = 2", 4, "set twice"),
        ("[gps]\n= 1", 2, "expected a key"),
        ("[gps]\nhost = \"a\u{01}b\"", 2, "control character"),
        // What TOML 1.0 refuses and tomllib refuses too: a sign in a \u escape, DEL in a literal
        // string, a control character in a comment, a lone CR (at the end of a line or before CR LF).
        ("[gps]\nhost = \"\\u+041\"", 2, "invalid \\u escape"),
        ("[gps]\nhost = \"\\u-041\"", 2, "invalid \\u escape"),
        ("[gps]\nhost = 'x\u{7F}y'", 2, "control character (byte 0x7F)"),
        ("[gps]\nport = 1 # x\u{01}y", 2, "control character (byte 0x01)"),
        ("[gps]\nport = 1\r", 2, "control character (byte 0x0D)"),
        ("[gps]\nport = 1\r\r\nhost = \"h\"", 2, "control character (byte 0x0D)"),
    ])
    func syntaxErrorsNameTheLine(text: String, line: Int, reason: String) {
        do {
            _ = try TOMLSubset.parse(text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    /// A line that is not `key = value` is not quoted back: it may be a secret pasted alone (an API key
    /// is a valid bare key).
    @Test func aWordAloneOnALineIsNotQuotedBack() {
        do {
            _ = try TOMLSubset.parse("[weather]\napi_key = \"\"\n0123456789abcdef0123456789abcdef\n")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 3)
            #expect(error.reason.contains("expected key = value"), "\(error.reason)")
            #expect(!error.reason.contains("0123456789abcdef"), "\(error.reason)")
        }
        // A base64 secret reads as a key and a value of "=": its name is not quoted either.
        do {
            _ = try TOMLSubset.parse("[mqtt]\ndGhpc2lzYXNlY3JldGtleTEyMzQ1Ng==\n")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 2)
            #expect(!error.reason.contains("dGhpc2lz"), "\(error.reason)")
            #expect(error.key == nil)
        }
        #expect(SecretShape.looksLikeSecret("0123456789abcdef0123456789abcdef"))
        #expect(SecretShape.looksLikeSecret("hunter2024"))
        #expect(!SecretShape.looksLikeSecret("resume_min_away_s") && !SecretShape.looksLikeSecret("wether"))
    }

    @Test(arguments: [("0", 0), ("-0", 0), ("+17", 17), ("1_000_000", 1_000_000), ("9223372036854775807", Int.max)])
    func integers(text: String, value: Int) {
        #expect(TOMLNumber.integer(text) == value)
    }

    @Test(arguments: ["", "_1", "1_", "0x10", "1e3", "1.0", "99999999999999999999", "--1"])
    func notIntegers(text: String) {
        #expect(TOMLNumber.integer(text) == nil)
    }

    @Test(arguments: [
        ("1.5", 1.5), ("-0.25", -0.25), ("5e2", 500), ("1_0.0_1", 10.01), ("2E-2", 0.02), ("inf", Double.infinity),
    ])
    func floats(text: String, value: Double) {
        #expect(TOMLNumber.float(text) == value)
    }

    @Test(arguments: [".5", "5.", "1e", "1.2.3", "01.5", "e5", "1.5x"])
    func notFloats(text: String) {
        #expect(TOMLNumber.float(text) == nil)
    }
}
