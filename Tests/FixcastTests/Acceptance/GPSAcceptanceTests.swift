import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Issue 2's acceptance, run as a new user would: the real `fixcast` binary against a real gpsd.
/// (`--gpsd nonsense:port`, `--at 91,0`, `--at abc` → exit 2 are CLIUsageTests.usageErrorsExit2NamingTheOption.)
@Suite(.serialized, .scratch) struct GPSAcceptanceTests {
    /// A position stored as last known, `ageS` seconds ago.
    static func storeLastKnown(_ db: String, lat: Double, lon: Double, ageS: Double) async throws -> Date {
        // A whole second: a fraction a hair under the next second can round up on the way through
        // SQLite's REAL and Date's two epochs, and the note prints whole seconds.
        let obtained = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - ageS).rounded(.down))
        let store = try SQLiteStore(path: db)
        try await store.saveLastKnownPosition(
            Position(
                coordinate: try #require(Coordinate(lat: lat, lon: lon)), altitudeM: 34, mode: .threeD,
                fixTime: obtained, obtainedAt: obtained, source: .gps))
        return obtained
    }

    @Test(
        "gpsd replaying a real log with a fix: `now --json` prints its first usable fixed position, from gps, before the 8 s timeout"
    )
    func nowPrintsTheFirstFixOfARealLog() async throws {
        let home = AcceptanceHome("gps-fix")
        defer { home.remove() }
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/haicom-305N.log"))
        // The log is from 2007: its first fixes are held until 3 agree (FixPlausibility's time rule).
        let expected = try #require(NMEAReference.firstUsedPositionOfAnOldLog(in: log.lines))
        // A client of the test's own tells when gpsd is synced to the stream.
        let watched = try await WatchedGPSD.start(primed: false)
        defer { watched.stop() }
        let gpsd = watched.gpsd
        let server = try Acceptance.recordedServer()
        defer { server.stop() }

        let began = Date()
        let fixcast = try RunningFixcast(
            ["now", "--json", "--gpsd", watched.address, "--db", home.db], env: Acceptance.env(server),
            home: home.dir)
        #expect(await watched.syncedWithSecondClient())
        let feeding = feedInBackground(gpsd, log)
        defer { feeding.cancel() }
        let status = fixcast.waitForExit(seconds: 60)
        let elapsed = Date().timeIntervalSince(began)

        #expect(status == 0, "stderr: \(fixcast.stderr)")
        let line = try #require(fixcast.stdoutLines.first, "stderr: \(fixcast.stderr)")
        let reading = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let position = try #require(reading.dict("position"))
        #expect(position.string("source") == "gps")
        #expect(["2d", "3d"].contains(position.string("mode") ?? "none"))
        let lat = try #require(position.double("lat"))
        let lon = try #require(position.double("lon"))
        #expect(abs(lat - expected.lat) < 1e-5, "lat \(lat) vs the log's \(expected.lat)")
        #expect(abs(lon - expected.lon) < 1e-5, "lon \(lon) vs the log's \(expected.lon)")
        #expect((position.int("age_s") ?? -1) >= 0 && (position.int("age_s") ?? 99) <= 1)
        let errors = reading["errors"] as? [[String: Any]] ?? []
        #expect(!errors.contains { $0.string("component") == "gps" }, "no gps note: \(errors)")
        // A behaviour bound (the first try succeeded, no timeout or retry happened), not a benchmark.
        #expect(elapsed < 8, "took \(elapsed) s from launch to exit")

        // The fix is now the stored last-known position: with gpsd gone, the same --db answers with it.
        gpsd.stop()
        let again = try home.run(["now", "--json", "--gpsd", "127.0.0.1:\(gpsd.port)"], env: Acceptance.env(server))
        let sinceFirst = Date().timeIntervalSince(began)
        #expect(again.status == 0, "stderr: \(again.stderr)")
        let stored = try #require(try Acceptance.object(again).dict("position"))
        #expect(stored.string("source") == "last-known")
        #expect(stored.double("lat") == lat)
        #expect(stored.double("lon") == lon)
        let age = try #require(stored.int("age_s"))
        #expect(age >= 0 && Double(age) <= sinceFirst, "age_s \(age) within the \(sinceFirst) s since the fix")
    }

    @Test("no gpsd listening, nothing stored: exit 1, one sentence naming gpsd, the address and what to do")
    func noGpsdNothingStoredExits1() throws {
        let home = AcceptanceHome("gps-none")
        defer { home.remove() }
        let port = freeLoopbackPort()
        let r = try home.run(["now", "--json", "--gpsd", "127.0.0.1:\(port)"], env: Acceptance.env(nil))
        #expect(r.status == 1)
        let lines = Acceptance.stderrLines(r)
        #expect(lines.count == 1, "one sentence: \(r.stderr)")
        let sentence = try #require(lines.first)
        #expect(sentence.contains("gpsd"))
        #expect(sentence.contains("127.0.0.1:\(port)"))
        #expect(sentence.contains("start gpsd"))
        #expect(sentence.contains("--at"))
        #expect(sentence.hasSuffix("."))
    }

    @Test("no gpsd listening: `now` and headless `run` say the same one sentence (issue 19.6)")
    func noGpsdSameSentenceForNowAndRun() throws {
        let home = AcceptanceHome("gps-none-both")
        defer { home.remove() }
        let port = freeLoopbackPort()
        let now = try home.run(["now", "--json", "--gpsd", "127.0.0.1:\(port)"], env: Acceptance.env(nil))
        #expect(now.status == 1)
        let sentence = try #require(Acceptance.stderrLines(now).first)
        let run = try RunningFixcast(
            ["run", "--json", "--gpsd", "127.0.0.1:\(port)", "--db", home.path("run.sqlite")], env: Acceptance.env(nil),
            home: home.dir)
        let said = run.waitForStderr(containing: "127.0.0.1:\(port)", seconds: 20)
        run.signal(SIGTERM)
        #expect(run.waitForExit(seconds: 20) != nil, "stderr: \(run.stderr)")
        #expect(said?.line == sentence, "run said: \(run.stderr)")
    }

    @Test("no gpsd listening, a stored position: exit 0, source last-known with its age")
    func noGpsdWithStoredPositionUsesIt() async throws {
        let home = AcceptanceHome("gps-stored")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let ageS = 3.0 * 3600
        // From before the position is stored: its age is counted from then (a loaded machine can
        // take more than a second to open the store).
        let began = Date()
        _ = try await Self.storeLastKnown(home.db, lat: 50.9373, lon: 6.9592, ageS: ageS)
        let port = freeLoopbackPort()
        let r = try home.run(["now", "--json", "--gpsd", "127.0.0.1:\(port)"], env: Acceptance.env(server))
        let took = Date().timeIntervalSince(began)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let reading = try Acceptance.object(r)
        let position = try #require(reading.dict("position"))
        #expect(position.string("source") == "last-known")
        #expect(position.double("lat") == 50.9373)
        #expect(position.double("lon") == 6.9592)
        let age = try #require(position.int("age_s"))
        #expect(Double(age) >= ageS && Double(age) <= ageS + took + 1, "age_s \(age)")
        let notes = (reading["errors"] as? [[String: Any]] ?? []).filter { $0.string("component") == "gps" }
        #expect(notes.count == 1)
        #expect(notes.first?.string("message")?.contains("127.0.0.1:\(port)") == true)
        #expect(notes.first?.string("message")?.contains("last known position") == true)
    }

    /// `gps.fix_timeout_s` set to 1 s reaches the wait (the default's 3 tries of 8 s are
    /// `FixWaitPolicy`'s, in virtual time, and `Settings`' defaults, CONTRACT.md's). Human and JSON mode
    /// run side by side against the same gpsd, so the wait is paid once.
    @Test("a log that never gets a fix: 3 tries of gps.fix_timeout_s, then the stored position, and it says so")
    func neverAFixFallsBackAfterTwoRetries() async throws {
        let human = AcceptanceHome("gps-nofix-human")
        let json = AcceptanceHome("gps-nofix-json")
        defer {
            human.remove()
            json.remove()
        }
        let fake = try GPSFake(log: TestPaths.fixture("gpsd/skytraq.log"))
        defer { fake.stop() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let obtained = try await Self.storeLastKnown(human.db, lat: 52.52, lon: 13.405, ageS: 7200)
        _ = try await Self.storeLastKnown(json.db, lat: 52.52, lon: 13.405, ageS: 7200)
        let gpsdArg = "127.0.0.1:\(fake.port)"
        let env = Acceptance.env(server, ["FIXCAST_GPS_FIX_TIMEOUT_S": "1"])

        let began = Date()
        let background = try RunningFixcast(["now", "--gpsd", gpsdArg, "--db", human.db], env: env, home: human.dir)
        let r = try json.run(["now", "--json", "--gpsd", gpsdArg], env: env, timeout: 90)
        let humanStatus = background.waitForExit(seconds: 60)
        let waited = Date().timeIntervalSince(began)

        // JSON: the stored position, and the note in `errors`.
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let reading = try Acceptance.object(r)
        let position = try #require(reading.dict("position"))
        #expect(position.string("source") == "last-known")
        #expect(position.double("lat") == 52.52)
        #expect(position.double("lon") == 13.405)
        #expect((position.int("age_s") ?? 0) >= 7200)
        let notes = (reading["errors"] as? [[String: Any]] ?? []).filter { $0.string("component") == "gps" }
        let note = try #require(notes.first?.string("message"), "errors: \(reading["errors"] ?? "none")")
        #expect(notes.count == 1)
        #expect(note.contains("no fix after 3 tries of 1 s"), "\(note)")
        #expect(note.contains("last known position from \(UTCTime.format(obtained))"), "\(note)")

        // Human mode: the reading on stdout, the same note on stderr.
        #expect(humanStatus == 0, "stderr: \(background.stderr)")
        #expect(background.stdoutLines.contains { $0.contains("52.5200") }, "\(background.stdoutLines)")
        #expect(background.stderr.contains("no fix after 3 tries of 1 s"), "stderr: \(background.stderr)")
        #expect(background.stderr.contains("last known position"), "stderr: \(background.stderr)")
        // Three tries of 1 s and two pauses of 1 s did happen (a lower bound on behaviour, not a timing
        // benchmark).
        #expect(waited >= 5)
    }
}
