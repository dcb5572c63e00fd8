import FixcastCore
import Foundation
import Testing

@testable import FixcastTestSupport

/// Issue 23 item 1 and issue 24 item 10 (the MQTT part) through the binary: MQTT settings that
/// crashed (SIGSEGV) or hung the agent, or that a broker silently ignores, are refused where they
/// are read (exit 2 naming the key) or end in one `mqtt:` sentence; never a signal, never a hang.
@Suite(.serialized, .scratch) struct MQTTSettingsHardeningTests {
    static func env(port: UInt16, _ more: [String: String]) -> [String: String] {
        var e = [
            "FIXCAST_MQTT_ENABLED": "true", "FIXCAST_MQTT_HOST": "127.0.0.1", "FIXCAST_MQTT_PORT": String(port),
            "FIXCAST_MQTT_DEVICE_ID": "hostile1",
        ]
        e.merge(more) { _, new in new }
        return e
    }

    static let runArgs = ["run", "--json", "--at", "52.52,13.405", "--offline"]

    /// An 80 KB "character": one letter and 40,000 combining acute accents (one grapheme).
    static let hugeGrapheme = "e" + String(repeating: "\u{0301}", count: 40_000)

    @Test(
        "a value MQTT cannot carry, or a broker's own topic, is exit 2 naming the key, for mqtt test and run",
        arguments: [
            ("FIXCAST_MQTT_USERNAME", String(repeating: "u", count: 70_000)),
            ("FIXCAST_MQTT_USERNAME", "fleet\u{0085}"),
            ("FIXCAST_MQTT_PASSWORD", String(repeating: "p", count: 70_000)),
            ("FIXCAST_MQTT_TOPIC_PREFIX", "fix\u{0085}cast"),
            ("FIXCAST_MQTT_TOPIC_PREFIX", "fix\u{009B}31mcast"),
            ("FIXCAST_MQTT_TOPIC_PREFIX", hugeGrapheme),
            ("FIXCAST_MQTT_TOPIC_PREFIX", "$SYS"),
            ("FIXCAST_MQTT_TOPIC_PREFIX", "$share/g"),
            ("FIXCAST_MQTT_DISCOVERY_PREFIX", "home\u{0085}assistant"),
            ("FIXCAST_MQTT_DISCOVERY_PREFIX", "$SYS/ha"),
            ("FIXCAST_MQTT_HOST", "-x"),
        ])
    func refusedAtValidation(_ variable: String, _ value: String) throws {
        let home = AcceptanceHome("mqtt-setting")
        defer { home.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        for args in [["mqtt", "test"], Self.runArgs] {
            let r = try home.run(
                args, env: Acceptance.env(nil, Self.env(port: broker.port, [variable: value])), timeout: 30)
            #expect(!r.timedOut, "\(args) \(variable)")
            #expect(r.status == 2, "\(args) \(variable): exit \(r.status), stderr: \(r.stderr.prefix(300))")
            #expect(r.stderr.hasPrefix("config: environment variable \(variable)"), "\(r.stderr.prefix(300))")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.count < 600, "\(r.stderr.prefix(300))")
            #expect(OutputSafety.isClean(r.stderr))
            if variable == "FIXCAST_MQTT_PASSWORD" { #expect(!r.stderr.contains("ppppp")) }
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("the same values in a config file are exit 2 naming the file, line and key")
    func refusedInAConfigFile() throws {
        let home = AcceptanceHome("mqtt-setting-file")
        defer { home.remove() }
        for (key, value) in [
            ("topic_prefix", "\"$SYS\""), ("topic_prefix", "\"a\\u0085b\""),
            ("username", "\"\(String(repeating: "u", count: 70_000))\""),
        ] {
            let config = home.path("config.toml")
            try "[mqtt]\nenabled = true\n\(key) = \(value)\n".write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o600)
            let r = try home.run(["mqtt", "test", "--config", config], env: Acceptance.env(nil))
            #expect(r.status == 2, "\(key): \(r.stderr.prefix(300))")
            #expect(r.stderr.hasPrefix("config: \(config) line 3: \"\(key)\" in [mqtt]"), "\(r.stderr.prefix(300))")
            #expect(r.stderr.count < 600)
        }
    }

    /// A CA file that is missing, a FIFO or a folder: `mqtt test` says so in one sentence (it was a
    /// SIGSEGV, and a FIFO hung for good); `run` says it once and keeps taking readings.
    @Test(
        "mqtt.ca_file missing, a FIFO or a folder: one mqtt sentence, no crash, no hang",
        arguments: ["missing", "fifo", "folder"])
    func unusableCAFile(_ kind: String) throws {
        let home = AcceptanceHome("mqtt-ca")
        defer { home.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let ca = home.path("ca-\(kind).pem")
        switch kind {
        case "fifo": #expect(mkfifo(ca, 0o600) == 0)
        case "folder": try FileManager.default.createDirectory(atPath: ca, withIntermediateDirectories: false)
        default: break
        }
        let env = Acceptance.env(
            nil, Self.env(port: broker.port, ["FIXCAST_MQTT_TLS": "true", "FIXCAST_MQTT_CA_FILE": ca]))
        let expected = ["missing": "does not exist", "fifo": "is a FIFO", "folder": "is a folder"][kind] ?? ""

        let test = try home.run(["mqtt", "test"], env: env, timeout: 20)
        #expect(!test.timedOut, "mqtt test must not hang on a \(kind) CA file")
        #expect(test.status == 1, "exit \(test.status) (139 was the SIGSEGV): \(test.stderr.prefix(400))")
        #expect(test.stderr.hasPrefix("mqtt: "), "\(test.stderr.prefix(400))")
        #expect(test.stderr.contains("mqtt.ca_file") && test.stderr.contains(expected), "\(test.stderr)")
        #expect(test.stderr.split(separator: "\n").count == 1)

        let run = try RunningFixcast(Self.runArgs + ["--db", home.db], env: env, home: home.dir)
        #expect(run.waitForLines(1, seconds: 30), "run prints its first reading: \(run.stderr.prefix(400))")
        let deadline = Date().addingTimeInterval(10)
        while !run.stderr.contains("mqtt.ca_file"), run.process.isRunning, Date() < deadline { usleep(50_000) }
        #expect(run.process.isRunning, "run is alive")
        run.signal(SIGTERM)
        let status = run.waitForExit()
        #expect(status == 0, "run ends on SIGTERM: \(String(describing: status)) \(run.stderr.prefix(400))")
        #expect(run.stderr.components(separatedBy: "mqtt.ca_file").count == 2, "said once: \(run.stderr)")
    }
}
