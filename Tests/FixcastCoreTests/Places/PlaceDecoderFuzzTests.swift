import Testing

/// The place decoders and tables under the fuzz campaign's mutations: Nominatim and Open-Meteo
/// geocoding answers (capped names, real coordinates, no absurd population), and places.bin and its
/// text source with damaged bytes and header fields (a `FormatError` at load, or answers that stay inside
/// the table: rows in range, searches bounded).
@Suite struct PlaceDecoderFuzzTests {
    @Test(arguments: [("nominatim", 300), ("geocoding", 300)])
    func answersAreDecodedOrRefused(target: String, cases: Int) throws {
        let counts = try DecoderFuzz.run(target, seed: 0x91ACE, cases: cases)
        #expect(counts.decoded > cases / 10, "\(target): \(counts)")
    }

    @Test(arguments: [("places-bin", 40), ("places-tsv", 60)])
    func aDamagedTableIsRefusedOrAnswersWithinItself(target: String, cases: Int) throws {
        let counts = try DecoderFuzz.run(target, seed: 0x7AB1E, cases: cases)
        #expect(counts.decoded > 5 && counts.refused > 5, "\(target): \(counts)")
    }
}
