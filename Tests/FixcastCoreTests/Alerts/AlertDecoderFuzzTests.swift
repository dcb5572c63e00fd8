import Testing

/// The alert decoders under the fuzz campaign's mutations (the GeoJSON ones, and MeteoAlarm's Atom feeds
/// through libxml2 and the area table): every alert they give has one-line, capped text without control
/// characters, times in 1970–2200 and a bounded footprint, and the report survives its JSON; anything
/// else is a typed refusal.
@Suite struct AlertDecoderFuzzTests {
    @Test(arguments: [("nws-alerts", 250), ("metalerts", 250), ("eccc-alerts", 150), ("meteoalarm", 150)])
    func decodedOrRefusedAndEveryAlertClean(target: String, cases: Int) throws {
        let counts = try DecoderFuzz.run(target, seed: 0xA1E7_5, cases: cases)
        #expect(counts.decoded > cases / 10, "\(target): \(counts)")
    }
}
