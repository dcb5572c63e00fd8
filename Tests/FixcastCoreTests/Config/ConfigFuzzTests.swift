import Testing

/// config.toml under the fuzz campaign's line mutations (hostile values, repeated keys and tables,
/// arrays, escapes of no scalar, invalid UTF-8): settings, or a config error naming the file that never
/// shows a secret.
@Suite struct ConfigFuzzTests {
    @Test func settingsOrAnErrorNamingTheFile() throws {
        let counts = try DecoderFuzz.run("config", seed: 0xC0_F16, cases: 400)
        #expect(counts.decoded > 20 && counts.refused > 40, "\(counts)")
    }
}
