import Testing

/// alert-areas.bin with damaged bytes and header fields (counts and offsets at 0, 1, the maximum, past
/// the file): a `FormatError` at load, or a table whose every area and lookup stays inside its bytes.
@Suite struct AlertAreaTableFuzzTests {
    @Test func aDamagedTableIsRefusedOrAnswersWithinItself() throws {
        let counts = try DecoderFuzz.run("alert-areas-bin", seed: 0xA8EA5, cases: 60)
        #expect(counts.decoded > 3 && counts.refused > 3, "\(counts)")
    }
}
