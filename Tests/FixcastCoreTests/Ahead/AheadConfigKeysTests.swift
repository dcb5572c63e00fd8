import FixcastCore
import Testing

@Suite struct AheadConfigKeysTests {
    func load(_ text: String, env: [String: String] = [:]) throws(ConfigError) -> LoadedConfig {
        try ConfigLoader.load(
            file: ConfigFileText(path: "/etc/fixcast/config.toml", text: text, readableByOthers: false),
            environment: env)
    }

    @Test func defaultsMatchTheContract() {
        let a = Settings().ahead
        #expect(a.enabled && a.provider == .openMeteo && a.baseURL.isEmpty && a.route.isEmpty)
        #expect(a.hours == 3 && a.stepMin == 15 && a.minStepKm == 5 && a.refreshMin == 15)
        #expect(a.offRouteM == 500 && a.rainMmH == 0.2)
        #expect(AheadSettings(a) == AheadSettings())
    }

    @Test func everyKeyIsReadFromTheFile() throws {
        let c = try load(
            """
            [ahead]
            enabled = false
            provider = "none"
            base_url = "http://127.0.0.1:8080/"
            hours = 6
            step_min = 10
            min_step_km = 2.5
            refresh_min = 30
            route = "/home/me/trip.gpx"
            off_route_m = 800
            rain_mm_h = 0.5
            """)
        let a = c.settings.ahead
        #expect(!a.enabled && a.provider == AheadProvider.none && a.baseURL == "http://127.0.0.1:8080")
        #expect(a.hours == 6 && a.stepMin == 10 && a.minStepKm == 2.5 && a.refreshMin == 30)
        #expect(a.route == "/home/me/trip.gpx" && a.offRouteM == 800 && a.rainMmH == 0.5)
        let core = AheadSettings(a)
        #expect(core.hours == 6 && core.stepMin == 10 && core.minStepKm == 2.5 && core.offRouteM == 800)
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        let c = try load(
            "[ahead]\nhours = 6\n",
            env: [
                "FIXCAST_AHEAD_HOURS": "2", "FIXCAST_AHEAD_ENABLED": "false", "FIXCAST_AHEAD_ROUTE": "/tmp/r.gpx",
                "FIXCAST_AHEAD_RAIN_MM_H": "1.5",
            ])
        #expect(c.settings.ahead.hours == 2 && !c.settings.ahead.enabled)
        #expect(c.settings.ahead.route == "/tmp/r.gpx" && c.settings.ahead.rainMmH == 1.5)
    }

    /// The route file is read only when weather ahead starts; where its path was set is kept so that
    /// a file that cannot be followed then names the line (or the variable) to mend.
    @Test func whereTheRouteWasSetIsKept() throws {
        let fromFile = try load("# trips\n[ahead]\nhours = 6\nroute = \"/home/me/trip.gpx\"\n")
        #expect(fromFile.settings.ahead.routeOrigin == .file(path: "/etc/fixcast/config.toml", line: 4))
        #expect(fromFile.settings.ahead.routeOrigin?.setting == "set at /etc/fixcast/config.toml line 4")
        let fromEnvironment = try load(
            "[ahead]\nroute = \"/home/me/trip.gpx\"\n", env: ["FIXCAST_AHEAD_ROUTE": "/tmp/r.gpx"])
        #expect(fromEnvironment.settings.ahead.routeOrigin == .environment(variable: "FIXCAST_AHEAD_ROUTE"))
        // Emptied by the environment: no route, so nothing to name.
        let emptied = try load("[ahead]\nroute = \"/home/me/trip.gpx\"\n", env: ["FIXCAST_AHEAD_ROUTE": ""])
        #expect(emptied.settings.ahead.route.isEmpty && emptied.settings.ahead.routeOrigin == nil)
        #expect(try load("[ahead]\nhours = 6\n").settings.ahead.routeOrigin == nil)
    }

    @Test(arguments: [
        ("hours = 0", "hours"), ("hours = 13", "hours"), ("step_min = 0", "step_min"),
        ("min_step_km = -1", "min_step_km"), ("refresh_min = 0.5", "refresh_min"),
        ("off_route_m = 5", "off_route_m"), ("rain_mm_h = 0", "rain_mm_h"), ("rain_mm_h = 500", "rain_mm_h"),
        ("provider = \"dark-sky\"", "provider"), ("base_url = \"http://example.com\"", "base_url"),
        ("hours = \"three\"", "hours"), ("enabled = 1", "enabled"),
    ])
    func aBadValueIsRefusedNamingTheKey(line: String, key: String) {
        do {
            _ = try load("[ahead]\n\(line)\n")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.message.contains("\"\(key)\" in [ahead]"))
        }
    }

    @Test func theBoundsThemselvesAreAccepted() throws {
        let c = try load("[ahead]\nhours = 12\nstep_min = 1\nmin_step_km = 0\nrefresh_min = 1\nrain_mm_h = 100\n")
        #expect(c.settings.ahead.hours == 12 && c.settings.ahead.minStepKm == 0 && c.settings.ahead.rainMmH == 100)
    }
}
