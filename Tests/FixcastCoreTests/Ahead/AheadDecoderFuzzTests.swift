import Testing

/// Weather ahead's outside data under the fuzz campaign's mutations: Open-Meteo's multi-location answer
/// (every series ascending in 1970–2200, every value in range, the values between hours finite) and GPX
/// route files (entities, DOCTYPEs, 100,001 points, 1,000 levels, 200,000 attributes: refused with a
/// typed error in time, or a route of clean points and name).
@Suite struct AheadDecoderFuzzTests {
    @Test func theForecastAheadIsDecodedOrRefused() throws {
        let counts = try DecoderFuzz.run("open-meteo-ahead", seed: 0xA4EA_D5, cases: 300)
        #expect(counts.decoded > 20, "\(counts)")
    }

    @Test func aRouteFileIsReadOrRefusedInTime() throws {
        let counts = try DecoderFuzz.run("gpx", seed: 0x6B_0C7E, cases: 250)
        #expect(counts.decoded > 20 && counts.refused > 20, "\(counts)")
    }
}
