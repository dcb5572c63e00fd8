import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport
@testable import fixcast

/// Issue 11 items 7 and 9 through the binary: odd arguments and config files are exit 2 naming the
/// option or key, a secret is never echoed, a BOM is fine, a FIFO as --config does not hang.
@Suite(.serialized, .scratch) struct UsageHardeningTests {
    static func run(_ home: AcceptanceHome, _ args: [String], env: [String: String] = [:], timeout: Double = 20) throws
        -> CLIResult
    {
        try home.run(args, env: Acceptance.env(nil, env), timeout: timeout)
    }

    static func writeConfig(_ home: AcceptanceHome, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = home.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    @Test(
        "exit 2 naming the option",
        arguments: [
            (["now", "--at", "0x10,0"], "--at"),
            (["now", "--at", "1e1,0"], "--at"),
            (["now", "--at", "nan,0"], "--at"),
            (["now", "--at", "52.52,13.4", "--json=yes"], "--json"),
            (["now", "--at", "52.52,13.4", "--json=false"], "--json"),
            (["now", "--at", "52.52,13.4", "--offline=1"], "--offline"),
            (["now", "--gpsd", ":::"], "--gpsd"),
            (["now", "--gpsd", "1::2::3"], "--gpsd"),
            (["now", "--gpsd", String(repeating: "h", count: 100_000)], "--gpsd"),
            (["export", "--format", "csv", "-o", ""], "-o"),
        ])
    func badArguments(_ args: [String], _ option: String) throws {
        let home = AcceptanceHome("usage-args")
        defer { home.remove() }
        let r = try Self.run(home, args)
        #expect(r.status == 2, "stdout: \(r.stdout) stderr: \(r.stderr)")
        #expect(r.stderr.contains(option), "\(r.stderr)")
        #expect(r.stderr.count < 600, "the echo is capped: \(r.stderr.count) characters")
        #expect(OutputSafety.isClean(r.stderr))
    }

    @Test("--gpsd keeps accepting real IPv6 addresses")
    func ipv6StillAccepted() throws {
        for text in ["::1", "[::1]:2948", "fe80::1%eth0", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1"] {
            #expect((try? GPSDAddress(parsing: text)) != nil, "\(text)")
        }
        for text in [":::", "1::2::3", "12345::1", "1:2:3:4:5:6:7:8:9", "::1.2.3.999"] {
            #expect((try? GPSDAddress(parsing: text)) == nil, "\(text)")
        }
    }

    @Test("a 100,000-character gps.host is exit 2 naming the key, without echoing it")
    func hugeHost() throws {
        let home = AcceptanceHome("usage-host")
        defer { home.remove() }
        let config = try Self.writeConfig(
            home, "big.toml", Array("[gps]\nhost = \"\(String(repeating: "a", count: 100_000))\"\n".utf8))
        let r = try Self.run(home, ["now", "--config", config])
        #expect(r.status == 2)
        #expect(r.stderr.contains("host") && r.stderr.contains("line 2"), "\(r.stderr)")
        #expect(r.stderr.count < 600)
    }

    @Test("--config pointing at a FIFO is exit 2 at once, not a hang")
    func fifoConfig() throws {
        let home = AcceptanceHome("usage-fifo")
        defer { home.remove() }
        let fifo = home.path("config.toml")
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let r = try Self.run(home, ["now", "--at", "52.52,13.4", "--config", fifo], timeout: 10)
        #expect(!r.timedOut)
        #expect(r.status == 2)
        #expect(r.stderr.contains(fifo) && r.stderr.contains("not a regular file"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("invalid UTF-8 in a config file is exit 2 naming the file and the line")
    func invalidUTF8() throws {
        let home = AcceptanceHome("usage-utf8")
        defer { home.remove() }
        let config = try Self.writeConfig(
            home, "bad.toml", Array("[display]\nunits = \"metric\"\n# caf".utf8) + [0xC3, 0x28] + Array("\n".utf8))
        let r = try Self.run(home, ["now", "--at", "52.52,13.4", "--config", config])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(config) line 3") && r.stderr.contains("UTF-8"), "\(r.stderr)")
    }

    @Test("a UTF-8 BOM at the start of a config file is accepted")
    func byteOrderMark() throws {
        let home = AcceptanceHome("usage-bom")
        defer { home.remove() }
        let config = try Self.writeConfig(
            home, "bom.toml", [0xEF, 0xBB, 0xBF] + Array("[display]\nunits = \"imperial\"\n".utf8))
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let r = try home.run(["now", "--at", "52.52,13.405", "--config", config], env: Acceptance.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains("°F"), "\(r.stdout)")
    }

    @Test(
        "an error about weather.api_key or mqtt.password never shows the value",
        arguments: [
            "[weather]\napi_key = k3ySECRETvalue\n",
            "[weather]\napi_key = 'k3ySECRETvalue\n",
            "[weather]\napi_key = \"k3ySECRETvalue\" trailing\n",
            "[weather]\napi_key = \"k3y SECRETvalue\"\n",
            "[weather]\napi_key = 12345678\n",
            "[mqtt]\npassword = k3ySECRETvalue\n",
        ])
    func secretNeverShown(_ text: String) throws {
        let home = AcceptanceHome("usage-secret")
        defer { home.remove() }
        let config = try Self.writeConfig(home, "secret.toml", Array(text.utf8))
        let r = try Self.run(home, ["now", "--at", "52.52,13.4", "--config", config])
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("SECRET") && !r.stderr.contains("12345678"), "\(r.stderr)")
        #expect(r.stderr.contains("line 2") || r.stderr.contains("[mqtt]"), "\(r.stderr)")
    }

    @Test("the secret rule is one list naming weather.api_key and mqtt.password")
    func secretList() throws {
        #expect(ConfigSchema.isSecret(section: "weather", key: "api_key"))
        #expect(ConfigSchema.isSecret(section: "mqtt", key: "password"))
        #expect(!ConfigSchema.isSecret(section: "gps", key: "host"))
        // The environment route: a wrong type for a secret would quote the variable's text; a
        // string key cannot have a wrong type, so check the loader's rule directly.
        let file = ConfigFileText(path: "/x.toml", text: "[weather]\napi_key = 0x5EC12E7\n", readableByOthers: false)
        #expect(throws: ConfigError.self) { try ConfigLoader.load(file: file, environment: [:]) }
        do {
            _ = try ConfigLoader.load(file: file, environment: [:])
        } catch {
            #expect(!error.message.contains("5EC12E7"), "\(error.message)")
        }
    }
}
