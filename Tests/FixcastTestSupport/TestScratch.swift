import Foundation
import Testing

// How a test leaves nothing behind (issue 25): read this before writing a test that makes files or
// starts processes.
//
// 1. Put `.scratch` on the suite: `@Suite(.scratch) struct MyTests { … }` (or on one test:
//    `@Test(.scratch)`). Every test of the suite (every case of a parameterized one) then runs inside
//    its own `TestScratch`: a folder `$TMPDIR/test-<id>` that is removed when the test ends, whether it
//    passed, failed or threw.
// 2. Folders: `TestPaths.temporaryDirectory("label")` is a fresh folder inside the test's scratch (homes,
//    stores, exports, sockets). Called in a test that has no `.scratch`, it records an issue, so the test
//    fails and names itself instead of leaking a folder.
// 3. Processes: the harnesses (FixtureServer, GPSDOnPTY, GPSFake, MosquittoBroker, TopicRecorder,
//    RunningFixcast) register their own stop. A `Process` you start yourself: `TestScratch.own(process)`
//    (SIGKILLed at the end if it still runs). Anything else to undo at the end, e.g. a tmux server:
//    `TestScratch.atEnd { … }` (the last registered runs first).
// 4. Last, every process still alive whose command line or environment names the scratch folder (a
//    fixcast with HOME there, a tmux server on a socket there, a server reading its config there), and
//    everything it started, is SIGKILLed; then the folder is removed.
// 5. Made once for several tests (a shared fixture): make it inside
//    `TestScratch.$current.withValue(.shared) { … }`; that scratch closes when the test process exits.
// 6. `scripts/test.sh` runs the suite with a TMPDIR of its own and fails, listing them, if any folder
//    or process outlives the run.
//
// State is handed to the test through a task-local, so it reaches the test's child tasks, but not a
// Thread or DispatchQueue the test starts: there, capture `let scratch = TestScratch.current` first and
// run under `TestScratch.$current.withValue(scratch) { … }` (as FixtureServer.started does).

/// What one test made and started: a folder and processes that end with the test. See the top of this file.
final class TestScratch: @unchecked Sendable {
    @TaskLocal static var current: TestScratch?

    /// For what is made once and shared by the tests of several suites (ReplayedDrive): made current by
    /// `TestScratch.$current.withValue(.shared) { … }` while it is made, closed when the test process exits.
    static let shared: TestScratch = {
        atexit { TestScratch.shared.close() }
        return TestScratch()
    }()

    /// The test's folder; everything `TestPaths.temporaryDirectory` makes is inside it.
    let root: URL
    private let lock = NSLock()
    private var processes: [Process] = []
    private var endActions: [@Sendable () -> Void] = []

    /// Whether anything was made or started: a test that did neither costs no /proc scan at its end.
    private var used = false

    /// The folder itself is made on first use.
    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("test-\(Self.shortID())")
    }

    private func markUsed() {
        lock.lock()
        used = true
        lock.unlock()
    }

    /// A fresh folder for one use. Short names (12 hex digits, not a UUID): a Unix socket path inside
    /// must stay under the 108 bytes of `sun_path`.
    static func folder(_ label: String) -> URL {
        let parent: URL
        if let current {
            current.markUsed()
            parent = current.root
        } else {
            if Test.current != nil {
                Issue.record(
                    "a temporary folder outside a TestScratch: put `.scratch` on the suite (see TestScratch.swift)")
            }
            parent = FileManager.default.temporaryDirectory
        }
        let dir = parent.appendingPathComponent("\(label)-\(shortID())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Kills `process` at the end of the current test if it is still running (no-op outside a scratch).
    static func own(_ process: Process) { current?.own(process) }

    /// Runs `action` at the end of the current test (no-op outside a scratch: then stop it yourself).
    static func atEnd(_ action: @escaping @Sendable () -> Void) { current?.atEnd(action) }

    func own(_ process: Process) {
        lock.lock()
        used = true
        processes.append(process)
        lock.unlock()
    }

    func atEnd(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        used = true
        endActions.append(action)
        lock.unlock()
    }

    /// Ends everything: end actions (newest first), owned processes, any process that still names the
    /// folder and its descendants, then the folder. Idempotent.
    func close() {
        lock.lock()
        let actions = endActions
        let owned = processes
        let wasUsed = used
        endActions = []
        processes = []
        used = false
        lock.unlock()
        guard wasUsed else { return }
        for action in actions.reversed() { action() }
        for process in owned { stopProcess(process) }
        let stragglers = Self.processes(naming: root.path)
        let family = stragglers + stragglers.flatMap { descendants(of: $0) }
        for pid in family { kill(pid, SIGKILL) }
        Self.waitUntilGone(family, seconds: 5)
        try? FileManager.default.removeItem(at: root)
    }

    /// Runs `body` with a fresh scratch as the current one, and closes it however `body` ends.
    static func with<T>(_ body: () async throws -> T) async throws -> T {
        let scratch = TestScratch()
        defer { scratch.close() }
        return try await $current.withValue(scratch) { try await body() }
    }

    /// PIDs (not this process) whose command line or environment contains `text`.
    static func processes(naming text: String) -> [Int32] {
        let me = getpid()
        let needle = Array(text.utf8)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), pid != me else { return nil }
            for file in ["cmdline", "environ"] {
                if let bytes = readProcBytes("/proc/\(entry)/\(file)"), contains(bytes, needle) { return pid }
            }
            return nil
        }
    }

    private static func waitUntilGone(_ pids: [Int32], seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let alive = pids.filter { pid in
                guard let stat = readProcFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else {
                    return false
                }
                return !stat[stat.index(after: close)...].hasPrefix(" Z")
            }
            if alive.isEmpty { return }
            usleep(10_000)
        }
    }

    /// The whole of a /proc file as bytes (they report size 0: read until EOF).
    private static func readProcBytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    private static func shortID() -> String {
        String(UInt64.random(in: 0..<(1 << 48)), radix: 16)
    }
}

/// `.scratch` on a suite or a test: each test runs inside its own `TestScratch` (see the top of this file),
/// and its body on Swift's global executor, never on `fixcast-tasks`.
///
/// Why the second: a task with no executor preference that awaits an actor `fixcast-tasks` is running
/// (a `ReadingPublisher` handling its broker's events) may go on, after the call, on that thread: the
/// runtime lets a caller leaving a default actor keep the thread it has. A test body that then blocks
/// (a recorder's wait, `usleep`, `waitUntilExit`) blocks the one thread every fixcast task runs on, and
/// the component it waits for cannot move (CI failed so in stop 39: readings held up for 20 s by the
/// wait for them). Preferring the global executor makes the runtime hop back to it.
struct ScratchTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(globalConcurrentExecutor) {
            try await TestScratch.with { try await function() }
        }
    }
}

extension Trait where Self == ScratchTrait {
    /// Each test gets a folder and a process list of its own, removed and stopped when it ends.
    static var scratch: Self { ScratchTrait() }
}
