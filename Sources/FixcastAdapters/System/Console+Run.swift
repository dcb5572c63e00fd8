import FixcastCore
import FixcastText

#if canImport(Glibc)
    import Glibc
#endif

extension Console {
    /// The one sentence for `run` about a failed write to stdout: what was lost and what to do.
    public static func runOutputLossSentence(errno code: Int32) -> String {
        "fixcast run: could not write to standard output (\(String(cString: strerror(code)))); the readings are still stored, so point stdout at somewhere that takes them and start fixcast run again."
    }

    /// The one sentence for `run` when stdout's reader stopped reading (`StdoutLines`): the readings
    /// kept for it reached their limit (`unprinted` nil; the agent stops), or `unprinted` of them were
    /// still waiting at the stop. Either way the readings are stored.
    public static func runReaderStalledSentence(limitBytes: Int, unprinted: Int?) -> String {
        let what =
            unprinted.map { CountedNoun.phrase($0, "reading") + " waiting for it at the stop were not printed" }
            ?? "the \(ByteSize.phrase(limitBytes)) of readings kept for it are full"
        return
            "fixcast run: standard output's reader stopped reading, and \(what); the readings are still stored, so point stdout at a reader that keeps up and start fixcast run again."
    }

    /// `run` stopped while a reading was still being taken (its weather, place or alerts still asked)
    /// and the wait for it ran out.
    public static func runReadingAbandonedSentence(waitS: Double) -> String {
        "fixcast run: the reading in progress did not finish within \(Int(waitS)) s of the stop and was not printed (it is stored only if it ends before fixcast does); the next run takes one at its first fix."
    }

    /// Whether stdout is a pipe, whose reader's going away poll(2) reports (POLLERR on the write end).
    public static var stdoutIsPipe: Bool {
        var st = stat()
        guard fstat(1, &st) == 0 else { return false }
        return st.st_mode & S_IFMT == S_IFIFO
    }
}
