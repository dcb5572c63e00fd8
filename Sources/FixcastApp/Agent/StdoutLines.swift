import Dispatch
import FixcastAdapters
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `run`'s JSON lines, written in order by a thread of their own, so that a reader who stops reading
/// (`run --json | less` left at its first page, a consumer that hangs: the pipe's 64 kB fill and stay
/// full) holds back the lines and not the agent, whose fixes, readings and track go on being taken and
/// stored. Before, the agent's thread waited in write(2) with the reader.
///
/// Up to `limitBytes` wait, in order, for the reader to read again; a line beyond that is a loss
/// (`.readerStalled`: `Console.runReaderStalledSentence`), said and exited 1 like any other.
/// A write that fails, or finds its reader gone, is told through `onProblem`, from the writer's
/// thread. The thread runs only while there is a line to write.
final class StdoutLines: Sendable {
    /// 4 MiB: about 2,700 readings, days of travel with a reading every few minutes; the memory a Pi
    /// can spare for a reader who may come back.
    static let limitBytes = 4 << 20

    private let writer = ThreadExecutor(name: "fixcast-stdout")
    /// Bytes handed over and not yet written, and the lines they make.
    private let waiting = Atomic<Int>(0)
    private let waitingLines = Atomic<Int>(0)
    private let onProblem: @Sendable (Console.StdoutWrite) -> Void
    private let write: @Sendable (String) -> Console.StdoutWrite
    private let limit: Int

    /// - Parameter write: what writes a line (stdout; a test's pipe).
    init(
        limitBytes: Int = StdoutLines.limitBytes,
        write: @escaping @Sendable (String) -> Console.StdoutWrite = Console.out,
        onProblem: @escaping @Sendable (Console.StdoutWrite) -> Void
    ) {
        self.limit = limitBytes
        self.write = write
        self.onProblem = onProblem
    }

    /// Hands `line` to the writer: `.written` once it is queued (a later failure comes through
    /// `onProblem`), `.readerStalled` when the reader has left `limitBytes` unread.
    func print(_ line: String) -> Console.StdoutWrite {
        let size = line.utf8.count
        guard waiting.load(ordering: .acquiring) + size <= limit else { return .readerStalled }
        waiting.add(size, ordering: .relaxed)
        waitingLines.add(1, ordering: .relaxed)
        writer.execute { [self] in
            let outcome = write(line)
            waiting.subtract(size, ordering: .releasing)
            waitingLines.subtract(1, ordering: .releasing)
            if outcome != .written { onProblem(outcome) }
        }
        return .written
    }

    /// Waits up to `seconds` for the lines handed over to be written (at the stop); the lines left
    /// unwritten for a reader who did not read them (0: all were).
    func finish(seconds: Double) -> Int {
        let done = DispatchSemaphore(value: 0)
        writer.execute { done.signal() }
        _ = done.wait(timeout: .now() + seconds)
        writer.shutdown()
        return waitingLines.load(ordering: .acquiring)
    }
}
