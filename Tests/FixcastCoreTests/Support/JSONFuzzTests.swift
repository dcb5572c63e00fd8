import Testing

/// The JSON parser every API answer goes through, under the fuzz campaign's mutations (numbers beyond
/// Double and Int, nesting past 128 levels, repeated keys, lone surrogates, raw controls, cut text): a
/// value that writes back as JSON reading the same, or a parse error inside the text.
@Suite struct JSONFuzzTests {
    @Test func everyTextParsesAndWritesBackOrIsRefused() throws {
        let counts = try DecoderFuzz.run("json", seed: 0x15_0A, cases: 400)
        #expect(counts.decoded > 40 && counts.refused > 40, "\(counts)")
    }
}
