import FixcastCore

#if canImport(Glibc)
    import Glibc
#endif

extension Console {
    /// The one sentence for `run` about a failed write to stdout: what was lost and what to do.
    public static func runOutputLossSentence(errno code: Int32) -> String {
        "fixcast run: could not write to standard output (\(String(cString: strerror(code)))); the readings are still stored, so point stdout at somewhere that takes them and start fixcast run again."
    }

    /// Whether stdout is a pipe, whose reader's going away poll(2) reports (POLLERR on the write end).
    public static var stdoutIsPipe: Bool {
        var st = stat()
        guard fstat(1, &st) == 0 else { return false }
        return st.st_mode & S_IFMT == S_IFIFO
    }
}
