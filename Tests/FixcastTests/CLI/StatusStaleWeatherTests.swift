import Foundation
import Testing

@testable import FixcastTestSupport

/// A reading taken over stored weather served because it could not be refreshed (here: offline, a
/// day after the fetch) is new while its weather is not: `status` said only "just now".
@Suite(.serialized, .scratch) struct StatusStaleWeatherTests {
    @Test("status names the weather's own age beside a new reading over day-old weather")
    func statusSaysTheWeathersAge() throws {
        let home = AcceptanceHome("status-stale-weather")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let fetched = try home.run(["now", "--at", "55.68,12.57", "--json"], env: Acceptance.env(server))
        #expect(fetched.status == 0, "\(fetched.stderr)")
        // The stored weather, fetched a day earlier than it was.
        _ = try StoreTestData.sqlite3(
            home.db,
            """
            UPDATE weather_cache SET fetched_at = fetched_at - 86400,
              json = json_set(json, '$.fetched_at', strftime('%Y-%m-%dT%H:%M:%SZ', fetched_at - 86400, 'unixepoch'));
            """)
        let offline = try home.run(["now", "--at", "55.68,12.57", "--offline", "--json"], env: Acceptance.env(nil))
        #expect(try Acceptance.object(offline).dict("weather")?["stale"] as? Bool == true, "\(offline.stdout)")
        let status = try home.run(["status", "--gpsd", "127.0.0.1:9"], env: Acceptance.env(nil))
        let line = status.stdout.split(separator: "\n").first { $0.hasPrefix("reading ") }.map(String.init) ?? ""
        #expect(line.contains("just now") && line.contains("(weather open-meteo · updated 24 h"), "\(line)")
        #expect(line.contains("stale"), "\(line)")
    }
}
