import Foundation
import Synchronization
import Testing

@testable import FixcastTestSupport

/// `fixcast line` through the binary: the store written by a real `run`, read while it runs; `--watch`
/// printing once per stored reading and sleeping between them.
@Suite(.serialized, .scratch) struct LineCommandTests {
    static let here = "55.68,12.57"

    func env(_ server: FixtureServer) -> [String: String] {
        ["FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline"]
    }

    @Test func aLineFromTheStoreWithoutNetworkOrGpsd() throws {
        let home = TestPaths.temporaryDirectory("line-once")
        defer { try? FileManager.default.removeItem(at: home) }
        let db = home.appendingPathComponent("s.sqlite").path
        // No store yet: "no fix", exit 0; the store is not created by reading it.
        let empty = try CLIRunner.run(["line", "--db", db, "--waybar"], home: home)
        #expect(empty.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(empty.stdout.utf8)) as? [String: Any])
        #expect(object["class"] as? [String] == ["no-fix"])
        #expect(!FileManager.default.fileExists(atPath: db))

        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let now = try CLIRunner.run(
            ["now", "--json", "--at", Self.here, "--db", db], env: env(server), home: home, timeout: 30)
        #expect(now.status == 0, "\(now.stderr)")
        let requests = server.requestCount()
        // The weather base URL points at the server, gpsd at a port where nothing listens: line asks neither.
        let line = try CLIRunner.run(
            ["line", "--db", db, "--gpsd", "127.0.0.1:9", "--format", "%l|%t|%f|%h|%w|%a"], env: env(server), home: home
        )
        #expect(line.status == 2, "line takes no --gpsd: it never asks gpsd")
        let plain = try CLIRunner.run(
            ["line", "--db", db, "--format", "%l|%t|%f|%h|%w|%a"], env: env(server), home: home)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == "Copenhagen|17 °C|17 °C|84 %|↙2.5 m/s|just now\n")
        #expect(server.requestCount() == requests)
        let i3 = try CLIRunner.run(
            ["line", "--db", db, "--i3blocks", "--units", "imperial", "--lang", "ru"], home: home)
        #expect(i3.stdout == "Copenhagen 🌦 62 °F ↙6 mph\n🌦 62 °F\n")
        let bad = try CLIRunner.run(["line", "--db", db, "--waybar", "--i3blocks"], home: home)
        #expect(bad.status == 2 && bad.stderr.contains("--waybar") && bad.stdout.isEmpty)
    }

    /// A real `run --at … --json` stores a reading at start and one per SIGUSR1; `line --watch` prints
    /// the first line at once and exactly one more per stored reading.
    @Test func watchPrintsOncePerStoredReading() throws {
        let home = TestPaths.temporaryDirectory("line-watch")
        defer { try? FileManager.default.removeItem(at: home) }
        let db = home.appendingPathComponent("s.sqlite").path
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let watch = try RunningFixcast(["line", "--watch", "--db", db, "--format", "%l %t"], env: [:], home: home)
        defer {
            watch.signal(SIGTERM)
            _ = watch.waitForExit(seconds: 5)
        }
        #expect(watch.waitForLines(1, seconds: 20), "stderr: \(watch.stderr)")
        #expect(watch.stdoutLines.first == "no fix")

        let agent = try RunningFixcast(["run", "--json", "--at", Self.here, "--db", db], env: env(server), home: home)
        defer {
            agent.signal(SIGTERM)
            _ = agent.waitForExit(seconds: 20)
        }
        #expect(agent.waitForLines(1, seconds: 30), "stderr: \(agent.stderr)")
        #expect(watch.waitForLines(2, seconds: 10), "watch: \(watch.stdoutLines) \(watch.stderr)")
        for n in 2...3 {
            // A forced request within 2 s of the last forced reading's start joins it
            // (ReadingScheduler.forcedJoinWindowS): each of these must be a reading of its own. The
            // startup reading is not forced, so only the second request waits the window out.
            if n > 2 { Thread.sleep(forTimeInterval: 2.2) }
            agent.signal(SIGUSR1)
            #expect(agent.waitForLines(n, seconds: 20))
            #expect(watch.waitForLines(n + 1, seconds: 10), "watch: \(watch.stdoutLines)")
        }
        // Settle: the agent's other writes (track, caches, state) print nothing.
        Thread.sleep(forTimeInterval: 1.5)
        let lines = watch.stdoutLines
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0 == "Copenhagen 17 °C" }, "\(lines)")
        #expect(agent.stdoutLines.count == 3)
    }

    /// Readers of the store write its -wal and -shm too (a second bar, a cron export): `--watch` waits
    /// for the files to be quiet before it reads, but no longer than 2 s. A reader every 50 ms held a
    /// new reading back for as long as the readers went on.
    @Test func watchIsNotHeldBackByReadersWithoutPause() throws {
        let home = TestPaths.temporaryDirectory("line-readers")
        defer { try? FileManager.default.removeItem(at: home) }
        let db = home.appendingPathComponent("s.sqlite").path
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let first = try CLIRunner.run(
            ["now", "--at", Self.here, "--db", db], env: env(server), home: home, timeout: 30)
        #expect(first.status == 0, "\(first.stderr)")
        let watch = try RunningFixcast(["line", "--watch", "--db", db, "--format", "%l %a"], env: [:], home: home)
        defer {
            watch.signal(SIGTERM)
            _ = watch.waitForExit(seconds: 5)
        }
        #expect(watch.waitForLines(1, seconds: 20), "stderr: \(watch.stderr)")
        let reading = Mutex(true)
        let readers = Thread {
            while reading.withLock({ $0 }) {
                _ = try? StoreTestData.sqlite3(db, "SELECT count(*) FROM readings")
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        readers.start()
        defer { reading.withLock { $0 = false } }
        Thread.sleep(forTimeInterval: 0.5)
        let second = try CLIRunner.run(
            ["now", "--at", "55.69,12.58", "--db", db], env: env(server), home: home, timeout: 30)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(watch.waitForLines(2, seconds: 6), "watch: \(watch.stdoutLines)")
    }

    /// `--watch` follows the store at its path, not the file it first opened: started before the store's
    /// folder exists it says "no fix" and shows the first reading stored there; a store deleted is "no
    /// fix", one made anew in its place shows its reading; when the folder itself goes it says so on
    /// the bar and once on stderr, and shows the store made there again (as `run` makes it).
    @Test func watchFollowsAStoreReplacedAndItsFolderGoingAndComingBack() throws {
        let home = TestPaths.temporaryDirectory("line-replaced")
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("data/store")
        let db = folder.appendingPathComponent("s.sqlite").path
        let offline = ["FIXCAST_PLACES_PROVIDER": "offline"]
        func now(_ at: String) throws {
            let r = try CLIRunner.run(["now", "--offline", "--at", at, "--db", db], env: offline, home: home)
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        }
        let watch = try RunningFixcast(["line", "--watch", "--db", db, "--format", "%l"], env: [:], home: home)
        defer {
            watch.signal(SIGTERM)
            _ = watch.waitForExit(seconds: 5)
        }
        #expect(watch.waitForLines(1, seconds: 20), "stderr: \(watch.stderr)")
        try now(Self.here)
        #expect(watch.waitForLines(2, seconds: 10), "\(watch.stdoutLines) \(watch.stderr)")
        #expect(watch.stdoutLines == ["no fix", "Copenhagen"], "the store's folder made after the start")

        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        }
        #expect(watch.waitForLines(3, seconds: 10), "\(watch.stdoutLines) \(watch.stderr)")
        try now("52.52,13.405")
        #expect(watch.waitForLines(4, seconds: 10), "\(watch.stdoutLines) \(watch.stderr)")
        #expect(watch.stdoutLines == ["no fix", "Copenhagen", "no fix", "Berlin"], "a new store in its place is read")

        // The folder and the one above it go (`rm -rf`), and `now` makes both again.
        try FileManager.default.moveItem(
            at: home.appendingPathComponent("data"), to: home.appendingPathComponent("old"))
        #expect(watch.waitForLines(5, seconds: 10), "\(watch.stdoutLines) \(watch.stderr)")
        try now(Self.here)
        #expect(watch.waitForLines(6, seconds: 10), "\(watch.stdoutLines) \(watch.stderr)")
        #expect(watch.stdoutLines == ["no fix", "Copenhagen", "no fix", "Berlin", "no fix", "Copenhagen"])
        #expect(
            watch.stderrLines.map(\.line) == [
                "storage: the folder of \(db) was removed or moved; waiting for a store there again."
            ])
        #expect(watch.waitForExit(seconds: 0.5) == nil, "still watching")
    }

    /// A file where the store's folder should be: no store can ever be made there, so `line` says so and
    /// exits 1, with `--watch` too instead of waiting for ever (as the folder, or one above it, or a watch
    /// of the file).
    @Test(arguments: ["file/s.sqlite", "file/sub/s.sqlite"])
    func watchRefusesAFileWhereTheFolderShouldBe(_ relative: String) throws {
        let home = TestPaths.temporaryDirectory("line-file-folder")
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(FileManager.default.createFile(atPath: home.appendingPathComponent("file").path, contents: nil))
        let db = home.appendingPathComponent(relative).path
        // Not "no fix" (which a bar would show for ever): the path cannot be looked at, and that is said.
        for watching in [false, true] {
            let line = try CLIRunner.run(["line", "--db", db] + (watching ? ["--watch"] : []), home: home, timeout: 10)
            #expect(line.status == 1, "\(line.stdout) \(line.stderr)")
            #expect(line.stdout.isEmpty)
            #expect(
                line.stderr
                    == "storage: cannot open the database \(db) (Not a directory); check that its folder exists and is writable, or pass --db PATH.\n"
            )
        }
    }

    /// A bar that goes away (restarted without ending its child) ends the watch: it does not wait for the
    /// next reading to find out, with no store written at all.
    @Test func watchEndsWhenItsReaderGoes() throws {
        let home = TestPaths.temporaryDirectory("line-reader-gone")
        defer { try? FileManager.default.removeItem(at: home) }
        let db = home.appendingPathComponent("s.sqlite").path
        // fixcast's own status (PIPESTATUS), not head's.
        let pipeline =
            "'\(TestPaths.fixcastBinary)' line --watch --db '\(db)' | head -1; echo \"done ${PIPESTATUS[0]}\""
        let r = try CLIRunner.run(
            executable: "/bin/bash", arguments: ["-c", pipeline],
            environment: fixcastEnvironment(home: home, adding: [:]), timeout: 15)
        #expect(!r.timedOut, "still watching after its reader went: \(r.stdout) \(r.stderr)")
        #expect(r.stdout == "no fix\ndone 0\n")
        #expect(r.stderr.isEmpty)
    }

    /// Between readings `--watch` does not run at all: its threads' context switches do not grow over
    /// three seconds with the store untouched.
    @Test func watchSleepsBetweenReadings() throws {
        let home = TestPaths.temporaryDirectory("line-idle")
        defer { try? FileManager.default.removeItem(at: home) }
        let db = home.appendingPathComponent("s.sqlite").path
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let now = try CLIRunner.run(
            ["now", "--json", "--at", Self.here, "--db", db], env: env(server), home: home, timeout: 30)
        #expect(now.status == 0, "\(now.stderr)")
        let watch = try RunningFixcast(["line", "--watch", "--db", db], env: [:], home: home)
        defer {
            watch.signal(SIGTERM)
            _ = watch.waitForExit(seconds: 5)
        }
        #expect(watch.waitForLines(1, seconds: 20), "stderr: \(watch.stderr)")
        Thread.sleep(forTimeInterval: 0.5)
        let pid = "\(watch.process.processIdentifier)"
        func switches() -> [String: Int] {
            Dictionary(ProcessThreads.of(pid).compactMap { t in t.contextSwitches.map { (t.tid + " " + t.name, $0) } })
            { a, _ in a }
        }
        let before = switches()
        Thread.sleep(forTimeInterval: 3)
        let after = switches()
        #expect(!before.isEmpty)
        for (thread, count) in after {
            #expect(count == before[thread], "\(thread) woke \(count - (before[thread] ?? 0)) times")
        }
        #expect(watch.stdoutLines.count == 1)
    }
}
