import Testing

/// The weather decoders under the fuzz campaign's mutations (numbers at 1e308 and Int's edges, wrong
/// types, times in year 0000, units swapped, arrays cut and repeated, text cut): each case decodes into a
/// report whose every value is in its range and every time in 1970–2200, or throws `WeatherDecodeError`.
@Suite struct WeatherDecoderFuzzTests {
    @Test(arguments: [("open-meteo", 300), ("metno", 200), ("owm", 300)])
    func decodedOrRefusedAndNeverAnAbsurdFact(target: String, cases: Int) throws {
        let counts = try DecoderFuzz.run(target, seed: 0xF0CA_57, cases: cases)
        #expect(counts.decoded > cases / 10, "\(target): \(counts)")
    }
}
