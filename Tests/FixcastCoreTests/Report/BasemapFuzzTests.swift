import Testing

/// basemap.bin (the trip report's coasts, lakes and borders) with damaged bytes and header fields: an
/// error at load, or lines of finite points read from inside the file.
@Suite struct BasemapFuzzTests {
    @Test func aDamagedMapIsRefusedOrDrawsFromWithinItself() throws {
        let counts = try DecoderFuzz.run("basemap-bin", seed: 0xBA5E, cases: 60)
        #expect(counts.decoded > 3 && counts.refused > 3, "\(counts)")
    }
}
