import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `forecast` and `alerts` find their position as `now` does (issue 19.6): the agent's one-reading
/// run, stopped where its reading would start (`Agent.position()`). Through the binary against a
/// real gpsd, or a port where none listens: the same sentence, the same last-known note, the live
/// fix saved as the last known position.
@Suite(.serialized, .scratch) struct PositionCommandsAcceptanceTests {
    @Test("no gpsd listening, nothing stored: forecast and alerts say `now`'s one sentence and exit 1")
    func noGpsdNothingStoredIsNowsSentence() throws {
        let home = AcceptanceHome("position-none")
        defer { home.remove() }
        let gpsd = "127.0.0.1:\(freeLoopbackPort())"
        let now = try home.run(["now", "--json", "--gpsd", gpsd], env: Acceptance.env(nil))
        #expect(now.status == 1)
        let sentence = try #require(Acceptance.stderrLines(now).first)
        #expect(sentence.hasPrefix("gps: gpsd at \(gpsd) is not answering"), "\(sentence)")
        for command in [["forecast"], ["forecast", "--json"], ["alerts"], ["alerts", "--json"]] {
            let r = try home.run(
                command + ["--gpsd", gpsd], env: Acceptance.env(nil, ["FIXCAST_ALERTS_ENABLED": "true"]))
            #expect(r.status == 1, "\(command): \(r.stderr)")
            #expect(Acceptance.stderrLines(r) == [sentence], "\(command)")
            #expect(r.stdout.isEmpty, "\(command): \(r.stdout)")
        }
    }

    @Test("no gpsd listening, a stored position: forecast uses it and says `now`'s note, exit 0")
    func noGpsdStoredPositionHasNowsNote() async throws {
        let home = AcceptanceHome("position-stored")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        _ = try await GPSAcceptanceTests.storeLastKnown(home.db, lat: 50.9373, lon: 6.9592, ageS: 3 * 3600)
        let gpsd = "127.0.0.1:\(freeLoopbackPort())"
        let forecast = try home.run(["forecast", "--json", "--gpsd", gpsd], env: Acceptance.env(server))
        #expect(forecast.status == 0, "stderr: \(forecast.stderr)")
        #expect(!(try Acceptance.array(forecast)).isEmpty)
        // The forecast was asked for the stored position (the first request: nothing was cached).
        let asked = server.requests().filter { $0.path == "/v1/forecast" }.map(\.query)
        #expect(asked.count == 1)
        #expect(asked.allSatisfy { $0.contains("latitude=50.9373") && $0.contains("longitude=6.9592") }, "\(asked)")

        let now = try home.run(["now", "--json", "--gpsd", gpsd], env: Acceptance.env(server))
        #expect(now.status == 0, "stderr: \(now.stderr)")
        let errors = try Acceptance.object(now)["errors"] as? [[String: Any]] ?? []
        let note = try #require(errors.first { $0.string("component") == "gps" }?.string("message"))
        #expect(note.contains("using the last known position from"), "\(note)")
        #expect(note.hasSuffix(", 3 h old."), "\(note)")
        #expect(Acceptance.stderrLines(forecast) == [note], "forecast says the note `now` puts in its errors")
    }

    @Test(
        "gpsd replaying a real log with a fix: forecast is for its first usable fix, saved as the last known position")
    func forecastAtALiveFix() async throws {
        let home = AcceptanceHome("position-fix")
        defer { home.remove() }
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/haicom-305N.log"))
        let expected = try #require(NMEAReference.firstUsedPositionOfAnOldLog(in: log.lines))
        // A client of the test's own tells when gpsd is synced to the stream.
        let watched = try await WatchedGPSD.start(primed: false)
        defer { watched.stop() }
        let gpsd = watched.gpsd
        let server = try Acceptance.recordedServer()
        defer { server.stop() }

        let fixcast = try RunningFixcast(
            ["forecast", "--json", "--gpsd", watched.address, "--db", home.db], env: Acceptance.env(server),
            home: home.dir)
        #expect(await watched.syncedWithSecondClient())
        let feeding = feedInBackground(gpsd, log)
        defer { feeding.cancel() }
        #expect(fixcast.waitForExit(seconds: 60) == 0, "stderr: \(fixcast.stderr)")
        #expect(fixcast.stderr.isEmpty, "a live fix needs no note: \(fixcast.stderr)")

        // The fix is the stored last-known position now: with gpsd gone, `now` answers with it.
        gpsd.stop()
        let again = try home.run(["now", "--json", "--gpsd", "127.0.0.1:\(gpsd.port)"], env: Acceptance.env(server))
        #expect(again.status == 0, "stderr: \(again.stderr)")
        let stored = try #require(try Acceptance.object(again).dict("position"))
        #expect(stored.string("source") == "last-known")
        let lat = try #require(stored.double("lat"))
        let lon = try #require(stored.double("lon"))
        #expect(abs(lat - expected.lat) < 1e-5, "lat \(lat) vs the log's \(expected.lat)")
        #expect(abs(lon - expected.lon) < 1e-5, "lon \(lon) vs the log's \(expected.lon)")
    }
}
