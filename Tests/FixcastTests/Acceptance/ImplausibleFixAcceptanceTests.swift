import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `fixcast now` against a real gpsd fed crafted NMEA: a fix at 0,0 is never the reading's position,
/// and `status` (another process) shows it counted.
@Suite("Implausible fixes, through the binary", .serialized, .scratch)
struct ImplausibleFixAcceptanceTests {
    @Test("gpsd sends 0,0 and then Berlin: `now` reports Berlin, and `status` counts the 0,0 fix")
    func nowSkipsNullIslandAndStatusCountsIt() async throws {
        let home = AcceptanceHome("null-island")
        defer { home.remove() }
        let watched = try await WatchedGPSD.start(primed: false)
        defer { watched.stop() }
        let gpsd = watched.gpsd
        let server = try Acceptance.recordedServer()
        defer { server.stop() }

        let fixcast = try RunningFixcast(
            ["now", "--json", "--gpsd", watched.address, "--db", home.db], env: Acceptance.env(server),
            home: home.dir)
        #expect(await watched.syncedWithSecondClient())
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 30).rounded(.down))
        var epochs = [NMEAWriter.Epoch(lat: 0, lon: 0, time: start)]
        for i in 1..<6 {
            epochs.append(NMEAWriter.Epoch(lat: 52.52, lon: 13.405, time: start.addingTimeInterval(Double(i))))
        }
        let lines = NMEAWriter.log(epochs)
        let feeding = Task.detached {
            for line in lines {
                gpsd.write(line)
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { feeding.cancel() }
        let status = fixcast.waitForExit(seconds: 60)
        #expect(status == 0, "stderr: \(fixcast.stderr)")
        let line = try #require(fixcast.stdoutLines.first, "stderr: \(fixcast.stderr)")
        let reading = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let position = try #require(reading.dict("position"))
        #expect(position.string("source") == "gps")
        #expect(abs((position.double("lat") ?? 0) - 52.52) < 1e-4, "position: \(position)")
        // The observer saw gpsd deliver the 0,0 fix too, and dropped it as well.
        #expect(!watched.recorder.events.contains { $0.fix.map { abs($0.coordinate.lat) < 1 } ?? false })

        let shown = try home.run(
            ["status", "--json"], env: Acceptance.env(nil, ["FIXCAST_GPS_PORT": String(freeLoopbackPort())]))
        let rejected = try #require(try Acceptance.object(shown).dict("gpsd")?.dict("rejected_fixes"))
        #expect((rejected.int("null_island") ?? 0) >= 1, "rejected: \(rejected)")
    }
}
