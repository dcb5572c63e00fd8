import Testing

/// The header values fixcast acts on (`Retry-After`, `Expires`, `Last-Modified`) and its stored back-off
/// under the campaign's mutations (years of 17 digits, signed and empty numbers, control characters):
/// never a trap, a date outside 1900–9999, a negative wait or a back-off longer than a day.
@Suite struct HTTPHeaderFuzzTests {
    @Test func datesWaitsAndBackOffsStayInRange() throws {
        let counts = try DecoderFuzz.run("http-headers", seed: 0x4EAD_E5, cases: 600)
        // Cases with a date that parsed: the date range check ran on them.
        #expect(counts.decoded > 100, "\(counts)")
    }
}
