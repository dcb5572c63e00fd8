import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// `fixcast line`: one status-bar line from the last stored reading (CONTRACT.md "Status bars").
///
/// With `--watch` it prints the line again each time a new reading is stored: it sleeps in
/// `StoreChangeWatch` until the store's files are written, then prints only when the last reading's
/// id or the newest ahead forecast it shows changed (track points and caches are written too, and
/// print nothing). The one timed wake is the
/// moment the last reading turns stale, so a bar shows `~` when `run` stopped; while readings keep
/// coming that moment never arrives.
struct LineCommand {
    let context: CommandContext
    let options: LineOptions

    /// How long the store's files must be unwritten before a change is read (see `watch`): a commit's
    /// writes come within microseconds of each other; 150 ms leaves a loaded machine room.
    static let quietSeconds = 0.15

    func run() async -> Int32 {
        let source = LineReadingSource(path: context.settings.storage.path)
        let reading: Reading?
        do {
            reading = try await source.lastReading()
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        Console.out(render(reading, now: SystemClock().now()))
        guard options.watch else { return ExitCode.success }
        return await watch(source, last: reading)
    }

    func render(_ reading: Reading?, now: Date) -> String {
        let line = StatusLine(
            reading: reading, format: options.format, now: now, options: context.displayOptions,
            periodicMin: context.settings.trigger.periodicMin)
        return options.output.render(line)
    }

    /// A watch of the store's folder, once the folder exists: with none yet (a bar started before the
    /// first `run`) or none any more, it sleeps until one is made. After a wait, or when `again` (the
    /// folder went and this is a new watch), it shows what the store holds: it may have been written
    /// before the watch began. nil when inotify fails, which is said.
    func folderWatch(
        _ path: String, _ source: LineReadingSource, last: inout Reading?, again: Bool = false
    ) async -> StoreChangeWatch? {
        var waited = again
        var watch = StoreChangeWatch(storePath: path)
        while watch == nil, !StoreChangeWatch.folderExists(of: path) {
            // Blocks fixcast's own task thread, as `changes.wait` does: `line` has nothing else to run.
            guard StoreChangeWatch.waitForFolder(of: path) else { break }
            waited = true
            watch = StoreChangeWatch(storePath: path)
        }
        guard let watch else {
            Console.err(
                "storage: cannot watch the folder of \(path) for new readings (a file that is not a folder stands on its path, it cannot be read, or the system's inotify limit is reached); check the path given by --db or storage.path, or raise fs.inotify.max_user_instances, and restart fixcast line --watch.\n"
            )
            return nil
        }
        if waited, let reading = try? await source.lastReading(), Self.isNews(reading, after: last) {
            last = reading
            Console.out(render(reading, now: SystemClock().now()))
        }
        return watch
    }

    /// Whether `reading` is worth a line after `last`: another reading (by id and time: a store made
    /// anew numbers from 1 again), one where there was none or none where there was one, or a newer
    /// ahead forecast. The store's other writes (track, caches) change none of these.
    static func isNews(_ reading: Reading?, after last: Reading?) -> Bool {
        reading?.id != last?.id || (reading == nil) != (last == nil) || reading?.time != last?.time
            || reading?.ahead?.madeAt != last?.ahead?.madeAt
    }

    /// Seconds until `reading` turns stale, nil when it already is (or there is none): no wake needed.
    func secondsUntilStale(_ reading: Reading?, now: Date) -> Double? {
        guard let reading, reading.position != nil else { return nil }
        let left = reading.time.timeIntervalSince(now) + 2 * context.settings.trigger.periodicMin * 60
        return left > 0 ? left + 1 : nil
    }

    func watch(_ source: LineReadingSource, last first: Reading?) async -> Int32 {
        let path = context.settings.storage.path
        var last = first
        guard var changes = await folderWatch(path, source, last: &last) else { return ExitCode.failure }
        // What ended a settling wait that was not a change: acted on next, without waiting again.
        var pending: StoreChangeWatch.Wake?
        while true {
            let clock = SystemClock()
            let wake = pending ?? changes.wait(deadline: secondsUntilStale(last, now: clock.now()))
            pending = nil
            switch wake {
            case .failed:
                Console.err(
                    "storage: stopped watching \(path) for new readings (inotify failed); restart fixcast line --watch.\n"
                )
                return ExitCode.failure
            case .folderGone:
                // The store went with its folder: no reading is stored now, as a `line` would say (said
                // already when the files went first), and this watch ended with it. The bar is told,
                // then the person; then it waits for the folder (`run` makes it again at its next write).
                if last != nil { Console.out(render(nil, now: clock.now())) }
                last = nil
                Console.err(
                    "storage: the folder of \(path) was removed or moved; waiting for a store there again.\n")
                guard let watch = await folderWatch(path, source, last: &last, again: true) else {
                    return ExitCode.failure
                }
                changes = watch
            case .deadline:
                Console.out(render(last, now: clock.now()))
            case .changed:
                // A commit appends to the -wal (the events) and then marks itself in the -shm, which is
                // mapped memory and raises no event: read once the writes have been quiet for a moment,
                // or the newest commit may not be visible yet (and nothing would wake us again).
                var settle = StoreChangeWatch.Wake.changed
                while settle == .changed { settle = changes.wait(deadline: Self.quietSeconds) }
                if settle == .failed || settle == .folderGone {
                    pending = settle
                    continue
                }
                let reading: Reading?
                do {
                    reading = try await source.lastReading()
                } catch {
                    Console.err(error.message + "\n")
                    return ExitCode.failure
                }
                guard Self.isNews(reading, after: last) else { continue }
                last = reading
                Console.out(render(reading, now: clock.now()))
            }
        }
    }
}
