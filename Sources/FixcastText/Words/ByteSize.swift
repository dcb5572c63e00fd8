/// A size limit in a sentence, in the largest binary unit that states it exactly: "8 MiB", "64 KiB",
/// "100 bytes". Limits are powers of two or their multiples, so a person reads "8 MiB", not
/// "8388608 bytes".
public enum ByteSize {
    public static func phrase(_ bytes: Int) -> String {
        if bytes > 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes > 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return CountedNoun.phrase(bytes, "byte")
    }
}
