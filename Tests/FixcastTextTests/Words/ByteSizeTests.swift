import Testing

@testable import FixcastText

/// Size limits in sentences: "8 MiB", not "8388608 bytes".
@Suite struct ByteSizeTests {
    @Test(
        "a limit in the largest unit that states it exactly",
        arguments: [
            (8 << 20, "8 MiB"), (1 << 20, "1 MiB"), (2048 * 1024, "2 MiB"), (64 << 10, "64 KiB"),
            (1536 << 10, "1536 KiB"), (100, "100 bytes"), (1, "1 byte"), (0, "0 bytes"),
            ((1 << 20) + 1, "1048577 bytes"),
        ])
    func phrase(_ bytes: Int, _ expected: String) {
        #expect(ByteSize.phrase(bytes) == expected)
    }
}
