import Testing

@testable import FixcastCore

/// Paths in a config file mean the file's folder or the home folder; from the environment, as written.
struct ConfigPathTests {
    @Test(arguments: [
        ("", "/etc/fixcast/config.toml", "/root", ""),
        ("/srv/trip.gpx", "/etc/fixcast/config.toml", "/root", "/srv/trip.gpx"),
        ("trip.gpx", "/etc/fixcast/config.toml", "/root", "/etc/fixcast/trip.gpx"),
        (
            "../trips/a b.gpx", "/home/pi/.config/fixcast/config.toml", "/home/pi",
            "/home/pi/.config/fixcast/../trips/a b.gpx"
        ),
        ("trip.gpx", "/config.toml", nil, "/trip.gpx"),
        ("trip.gpx", "config.toml", "/root", "trip.gpx"),
        ("trip.gpx", "conf/config.toml", "/root", "conf/trip.gpx"),
        ("~/trips/a.gpx", "/etc/fixcast/config.toml", "/home/pi", "/home/pi/trips/a.gpx"),
        ("~/trips/a.gpx", "/etc/fixcast/config.toml", "/home/pi/", "/home/pi/trips/a.gpx"),
        ("~", "/etc/fixcast/config.toml", "/home/pi", "/home/pi"),
        ("~/a.gpx", "/etc/fixcast/config.toml", nil, "~/a.gpx"),
        ("~/a.gpx", "/etc/fixcast/config.toml", "", "~/a.gpx"),
        ("~pi/a.gpx", "/etc/fixcast/config.toml", "/root", "/etc/fixcast/~pi/a.gpx"),
    ])
    func aPathIsResolvedAsAPersonMeansIt(path: String, file: String, home: String?, expected: String) {
        #expect(ConfigPath.resolved(path, configFile: file, home: home) == expected)
    }

    @Test func thePathKeysOfAFileAreResolvedAndTheEnvironmentsAreNot() throws {
        let text = """
            [storage]
            path = "data/fixcast.sqlite"
            [mqtt]
            ca_file = "~/ca.pem"
            [ahead]
            route = "trip.gpx"
            [report]
            """
        let loaded = try ConfigLoader.load(
            file: ConfigFileText(path: "/etc/fixcast/config.toml", text: text, readableByOthers: false),
            environment: ["HOME": "/home/pi"])
        #expect(loaded.settings.storage.path == "/etc/fixcast/data/fixcast.sqlite")
        #expect(loaded.settings.mqtt.caFile == "/home/pi/ca.pem")
        #expect(loaded.settings.ahead.route == "/etc/fixcast/trip.gpx")
        let overridden = try ConfigLoader.load(
            file: ConfigFileText(path: "/etc/fixcast/config.toml", text: text, readableByOthers: false),
            environment: ["HOME": "/home/pi", "FIXCAST_AHEAD_ROUTE": "here.gpx"])
        #expect(overridden.settings.ahead.route == "here.gpx")
        // Every path key is a string key that exists.
        let known = Set(ConfigSchema.keys.filter { $0.kind == .string }.map { "\($0.section).\($0.name)" })
        #expect(ConfigPath.keys.isSubset(of: known))
    }
}
