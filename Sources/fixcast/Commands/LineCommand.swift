import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// `fixcast line`: one status-bar line from the last stored reading (CONTRACT.md "Status bars").
///
/// With `--watch` it prints the line again each time a new reading is stored, and each time the line
/// changes with time alone. It sleeps in `StoreChangeWatch` until the store's files are written or the
/// next moment the line can change comes (`StatusLineOutput.nextChange`: the reading turns stale, an
/// alert expires, the rain ahead passes, the age shown moves on, a new day begins for `%S`/`%s`), measured on the wall clock so a
/// laptop's sleep counts. A store write prints only when the last reading's id or the newest ahead
/// forecast it shows changed, or the line reads otherwise (track points and caches are written too,
/// and print nothing). It ends, quietly, when its reader has gone (a bar restarted without it).
struct LineCommand {
    let context: CommandContext
    let options: LineOptions

    /// How long the store's files must be unwritten before a change is read (see `watch`): a commit's
    /// writes come within microseconds of each other; 150 ms leaves a loaded machine room.
    static let quietSeconds = 0.15
    /// The longest the settling wait goes on while the files keep changing: then the store is read anyway.
    static let longestSettleSeconds = 2.0

    /// Where the line goes, watched for its reader going.
    static let output: Int32 = 1

    func run() async -> Int32 {
        let source = LineReadingSource(path: context.settings.storage.path)
        let reading: Reading?
        do {
            reading = try await source.lastReading()
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        var shown = Shown()
        guard shown.show(reading, render(reading, now: SystemClock().now())) else { return ExitCode.success }
        guard options.watch else { return ExitCode.success }
        return await watch(source, shown: shown)
    }

    func render(_ reading: Reading?, now: Date) -> String {
        let line = StatusLine(
            reading: reading, format: options.format, now: now, options: context.displayOptions,
            periodicMin: context.settings.trigger.periodicMin)
        return options.output.render(line, persistent: options.watch)
    }

    /// What the bar shows: the reading and the text last printed.
    struct Shown {
        var reading: Reading?
        var text: String?

        /// Prints `text` for `reading` when it is news (another reading, or other text); false when the
        /// output's reader has gone or the write failed (the exit status then says which).
        mutating func show(_ reading: Reading?, _ text: String) -> Bool {
            let news = text != self.text || LineCommand.isNews(reading, after: self.reading)
            self.reading = reading
            guard news else { return true }
            self.text = text
            return Console.out(text) == .written
        }
    }

    /// How the watch of the store's folder began: watching, or ended with this exit status.
    enum FolderWatch {
        case watching(StoreChangeWatch)
        case ended(Int32)
    }

    /// A watch of the store's folder, once the folder exists: with none yet (a bar started before the
    /// first `run`) or none any more, it sleeps until one is made. After a wait, or when `again` (the
    /// folder went and this is a new watch), it shows what the store holds: it may have been written
    /// before the watch began. Ends with 1 when inotify fails, which is said, and with 0 when the
    /// reader went away meanwhile.
    func folderWatch(_ path: String, _ source: LineReadingSource, shown: inout Shown, again: Bool = false) async
        -> FolderWatch
    {
        var waited = again
        var watch = StoreChangeWatch(storePath: path)
        while watch == nil, !StoreChangeWatch.folderExists(of: path) {
            // Blocks fixcast's own task thread, as `changes.wait` does: `line` has nothing else to run.
            switch StoreChangeWatch.waitForFolder(of: path, output: Self.output) {
            case .outputGone: return .ended(ExitCode.success)
            case .impossible: break
            case .exists:
                waited = true
                watch = StoreChangeWatch(storePath: path)
                continue
            }
            break
        }
        guard let watch else {
            Console.err(
                "storage: cannot watch the folder of \(path) for new readings (a file that is not a folder stands on its path, it cannot be read, or the system's inotify limit is reached); check the path given by --db or storage.path, or raise fs.inotify.max_user_instances, and restart fixcast line --watch.\n"
            )
            return .ended(ExitCode.failure)
        }
        if waited, let reading = try? await source.lastReading() {
            guard shown.show(reading, render(reading, now: SystemClock().now())) else {
                return .ended(ExitCode.success)
            }
        }
        return .watching(watch)
    }

    /// Whether `reading` is worth a line after `last`: another reading (by id and time: a store made
    /// anew numbers from 1 again), one where there was none or none where there was one, or a newer
    /// ahead forecast. The store's other writes (track, caches) change none of these.
    static func isNews(_ reading: Reading?, after last: Reading?) -> Bool {
        reading?.id != last?.id || (reading == nil) != (last == nil) || reading?.time != last?.time
            || reading?.ahead?.madeAt != last?.ahead?.madeAt
    }

    func watch(_ source: LineReadingSource, shown first: Shown) async -> Int32 {
        let path = context.settings.storage.path
        var shown = first
        var changes: StoreChangeWatch
        switch await folderWatch(path, source, shown: &shown) {
        case .watching(let watch): changes = watch
        case .ended(let status): return status
        }
        // What ended a settling wait that was not a change: acted on next, without waiting again.
        var pending: StoreChangeWatch.Wake?
        while true {
            let until = options.output.nextChange(
                of: shown.reading, format: options.format, now: SystemClock().now(),
                periodicMin: context.settings.trigger.periodicMin)
            let wake = pending ?? changes.wait(until: until, output: Self.output)
            pending = nil
            var reading = shown.reading
            switch wake {
            case .failed:
                Console.err(
                    "storage: stopped watching \(path) for new readings (inotify failed); restart fixcast line --watch.\n"
                )
                return ExitCode.failure
            case .outputGone:
                // The bar that read the line has gone (restarted without ending this): so does the watch.
                return ExitCode.success
            case .folderGone:
                // The store went with its folder: no reading is stored now, as a `line` would say (said
                // already when the files went first), and this watch ended with it. The bar is told,
                // then the person; then it waits for the folder (`run` makes it again at its next write).
                guard shown.show(nil, render(nil, now: SystemClock().now())) else { return ExitCode.success }
                Console.err(
                    "storage: the folder of \(path) was removed or moved; waiting for a store there again.\n")
                switch await folderWatch(path, source, shown: &shown, again: true) {
                case .watching(let watch): changes = watch
                case .ended(let status): return status
                }
                continue
            case .deadline:
                // The line may read otherwise now, with no new reading: drawn again below.
                break
            case .changed:
                // A commit appends to the -wal (the events) and then marks itself in the -shm, which is
                // mapped memory and raises no event: read once the writes have been quiet for a moment,
                // or the newest commit may not be visible yet (and nothing would wake us again).
                // At most `longestSettleSeconds`: every reader of the store writes its -wal and -shm too,
                // and a bar or a cron export reading without pause held new lines back for minutes.
                var settle = StoreChangeWatch.Wake.changed
                let settled = Syscall.monotonicSeconds() + Self.longestSettleSeconds
                while settle == .changed, Syscall.monotonicSeconds() < settled {
                    settle = changes.wait(seconds: Self.quietSeconds, output: Self.output)
                }
                if settle == .changed { settle = .deadline }
                if settle != .deadline {
                    pending = settle
                    continue
                }
                do {
                    reading = try await source.lastReading()
                } catch {
                    Console.err(error.message + "\n")
                    return ExitCode.failure
                }
            }
            guard shown.show(reading, render(reading, now: SystemClock().now())) else { return ExitCode.success }
        }
    }
}
