import Foundation

/// The headless agent the run tests start most: `fixcast run --json` at a fixed position (no gpsd: a
/// closed loopback port for it), weather from the recorded Open-Meteo answer on a fixture server,
/// offline place names, so a reading comes at once and nothing leaves the machine.
enum FixedPositionAgent {
    /// A fixture server with the recorded Open-Meteo forecast on `/v1/forecast`.
    static func weatherServer() throws -> FixtureServer {
        try FixtureServer(routes: ["/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]])
    }

    /// `run --json --at 52.52,13.405` with its store at `db`.
    static func arguments(db: String) -> [String] {
        ["run", "--json", "--at", "52.52,13.405", "--gpsd", "127.0.0.1:\(freeLoopbackPort())", "--db", db]
    }

    /// The weather from `server` and offline place names, over `extra`.
    static func environment(_ server: FixtureServer, adding extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline"]) { $1 }
    }

    /// The agent, started with `arguments(db:)` and `environment(server, adding:)`.
    static func start(db: String, server: FixtureServer, home: URL, env extra: [String: String] = [:]) throws
        -> RunningFixcast
    {
        try RunningFixcast(arguments(db: db), env: environment(server, adding: extra), home: home)
    }
}
