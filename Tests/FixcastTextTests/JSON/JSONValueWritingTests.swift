import FixcastFuzz
import Testing

@testable import FixcastText

@Suite struct JSONValueWritingTests {
    @Test(arguments: [
        (3.1, "3.1"), (0.1 + 0.2, "0.30000000000000004"), (34, "34.0"), (-2.5, "-2.5"), (1e-7, "1e-07"),
        (1e300, "1e+300"), (1e15, "1000000000000000.0"), (1e16, "1e+16"), (123456789012345.0, "123456789012345.0"),
        (-0.0, "0.0"),
        (Double.infinity, "null"), (-Double.infinity, "null"), (Double.nan, "null"),
    ])
    func numberText(_ value: Double, _ expected: String) {
        #expect(JSONValue.double(value).serialized() == expected)
    }

    @Test func integersHaveNoFraction() {
        #expect(JSONValue.int(34).serialized() == "34")
        #expect(JSONValue.int(Int.min).serialized() == "-9223372036854775808")
    }

    /// Every written finite double reads back as exactly the same double, and as a double.
    @Test func doublesRoundTripExactly() throws {
        var generator = FuzzRandom(seed: 0x5EED)
        var values: [Double] = [
            0.1, 2.0 / 3.0, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, -Double.leastNormalMagnitude,
            59.9139, 10.7522,
        ]
        while values.count < 2_000 {
            let d = Double(bitPattern: generator.next())
            if d.isFinite { values.append(d) }
        }
        for d in values {
            let text = JSONValue.double(d).serialized()
            let back = try JSONValue.parse(text)
            guard case .double(let e) = back else {
                Issue.record("\(text) came back as \(back)")
                continue
            }
            #expect(e == d, "\(text)")
        }
    }

    @Test(arguments: [
        ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
        ("\u{0}\u{1}\u{1B}[31m\u{1F}", #""\u0000\u0001\u001b[31m\u001f""#),
        ("a\u{7F}b", #""a\u007fb""#),
        ("\u{80}\u{9B}2J\u{9F}", #""\u0080\u009b2J\u009f""#),
        ("\u{2028}\u{2029}", #""\u2028\u2029""#),
        ("\"\\/", #""\"\\/""#),
        ("Москва 😀 \u{A0}é", "\"Москва 😀 \u{A0}é\""),
    ])
    func stringEscapes(_ text: String, _ expected: String) {
        #expect(JSONValue.string(text).serialized() == expected)
    }

    /// Whatever a string holds, the written line has no raw control character and reads back to it.
    @Test func everyControlCharacterIsEscapedAndReadsBack() throws {
        let controls = (0..<0x20).map { $0 } + (0x7F...0x9F).map { $0 } + [0x2028, 0x2029]
        let text = String(String.UnicodeScalarView(controls.compactMap { Unicode.Scalar(UInt32($0)) }))
        let line = JSONValue.object([(text, .string(text))]).serialized()
        for scalar in line.unicodeScalars {
            let v = scalar.value
            #expect(
                !(v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029), "raw U+\(String(v, radix: 16))")
        }
        #expect(try JSONValue.parse(line) == .object([(text, .string(text))]))
    }

    @Test func roundTripKeepsKeyOrderAndKinds() throws {
        let text = #"{"z":1,"a":1.0,"m":[null,{"y":true,"b":"x"},{"b":false,"y":-0.5}],"":{}}"#
        #expect(try JSONValue.parse(text).serialized() == text)
    }
}

/// A small seeded generator, so the random doubles are the same on every run.
