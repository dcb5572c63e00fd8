import Testing

/// gpsd's reports as fixcast handles them (libgps parses; the numbers are fixcast's to judge): TPV
/// sequences with NaN, infinities, 1e308, times at Int64's edges and modes out of range, through
/// `TPVFilter` and `BatchArrival` into the trajectory ahead. Every delivered fix is a real position with
/// finite numbers, and nothing traps.
@Suite struct GPSReportFuzzTests {
    @Test func hostileReportsGiveOnlyRealFixes() throws {
        let counts = try DecoderFuzz.run("gpsd", seed: 0x6_05D, cases: 300)
        // Most cases must get fixes through the filter, or the checks on delivered fixes check nothing.
        #expect(counts.decoded > 150, "\(counts)")
    }
}
