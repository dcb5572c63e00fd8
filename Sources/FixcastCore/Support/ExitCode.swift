/// Exit codes of CONTRACT.md.
public enum ExitCode {
    public static let success: Int32 = 0
    /// Could not do it: no position at all, or no weather and nothing stored.
    public static let failure: Int32 = 1
    /// Usage or configuration error.
    public static let usage: Int32 = 2
}
