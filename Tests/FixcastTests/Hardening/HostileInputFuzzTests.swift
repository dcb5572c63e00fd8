import FixcastCore
import FixcastFuzz
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport
@testable import fixcast

/// Issue 11's fuzz test: argument lists and config files built from a fixed seed. In process, the
/// argument parser and config loader take a few hundred cases; through the binary, 30 cases (with
/// `--offline`, a temp store, and every URL on a closed loopback port) must exit 0, 1 or 2 within a
/// time bound, print valid JSON with `--json`, and never print a raw control character.
@Suite(.serialized, .scratch) struct HostileInputFuzzTests {
    static let hostile = [
        "\u{1B}]0;pwned\u{07}", "\u{1B}[2J", "\u{9B}31m", "\u{9D}0;x\u{9C}", "\u{0}", "\u{8}", "\r", "\n", "\t",
        "\u{7F}",
        "\u{202E}", "\u{2066}", "\u{200F}", "\u{2028}", "=HYPERLINK(\"http://x\")", "'", "\"", "\\", "é", "北京", "😀",
        String(repeating: "x", count: 5000), "", " ", "-", "--", "=", "0x10", "1e308", "nan", "-inf",
        "99999999999999999999",
    ]

    static func word(_ g: inout FuzzRandom) -> String {
        let pieces = Int.random(in: 1...3, using: &g)
        return (0..<pieces).map { _ in hostile.randomElement(using: &g)! }.joined()
    }

    static func argumentList(_ g: inout FuzzRandom, closedPort: UInt16, dir: String) -> [String] {
        let commands = ["now", "forecast", "search", "export", "status", "help", "bogus", ""]
        var args: [String] = []
        if Bool.random(using: &g) { args.append(commands.randomElement(using: &g)!) }
        let optionCount = Int.random(in: 0...4, using: &g)
        for _ in 0..<optionCount {
            switch Int.random(in: 0..<16, using: &g) {
            case 0:
                args += ["--at", ["52.52,13.405", "0x10,0", "91,0", "-33.9,18.4", word(&g)].randomElement(using: &g)!]
            case 1: args += ["--place", ["Berlin", "Köln", word(&g)].randomElement(using: &g)!]
            case 2: args.append(["--json", "--json=yes", "--json=false", "--json="].randomElement(using: &g)!)
            case 3:
                args += [
                    "--gpsd",
                    ["127.0.0.1:\(closedPort)", ":::", "[::1]:\(closedPort)", word(&g)].randomElement(using: &g)!,
                ]
            case 4: args += ["--units", ["metric", "imperial", word(&g)].randomElement(using: &g)!]
            case 5: args += ["--lang", ["en", "ru", "zh", word(&g)].randomElement(using: &g)!]
            case 6: args += ["--days", ["1", "16", "0", "17", word(&g)].randomElement(using: &g)!]
            case 7: args += ["--limit", ["1", "100", "-1", word(&g)].randomElement(using: &g)!]
            case 8: args += ["--format", ["gpx", "csv", "geojson", word(&g)].randomElement(using: &g)!]
            case 9: args += ["--since", ["2026-01-01", "2026-13-40", word(&g)].randomElement(using: &g)!]
            case 10: args += ["-o", ["-", "", dir + "/out.file", dir + "/missing/out.file"].randomElement(using: &g)!]
            case 11: args.append(["--force", "--help", "-V", "--unknown", "-x"].randomElement(using: &g)!)
            case 12: args.append(word(&g))
            case 13: args += ["--config", [dir + "/none.toml", dir, "/dev/null"].randomElement(using: &g)!]
            case 14: args.append("--at")  // an option missing its value
            default: args += ["--until", word(&g)]
            }
        }
        return args
    }

    /// A command line that makes sense, with outside text (a query, a place name) hostile: these
    /// cases get past the parser and run the command.
    static func plausibleArgumentList(_ g: inout FuzzRandom, dir: String) -> [String] {
        var args: [String]
        switch Int.random(in: 0..<5, using: &g) {
        case 0:
            args =
                ["now"]
                + (Bool.random(using: &g)
                    ? ["--at", "52.52,13.405"] : ["--place", ["Berlin", word(&g)].randomElement(using: &g)!])
        case 1: args = ["forecast", "--at", "-33.9,18.4", "--days", String(Int.random(in: 1...16, using: &g))]
        case 2: args = ["search", word(&g)] + (Bool.random(using: &g) ? ["--limit", "5"] : [])
        case 3:
            args = [
                "export", "--format", ["gpx", "csv", "geojson"].randomElement(using: &g)!, "-o",
                ["-", dir + "/out.x"].randomElement(using: &g)!,
            ]
        default: args = ["status"]
        }
        if Bool.random(using: &g) { args.append("--json") }
        if Bool.random(using: &g) { args += ["--units", ["metric", "imperial"].randomElement(using: &g)!] }
        return args
    }

    static let keys = [
        "gps.host", "gps.port", "gps.fix_timeout_s", "gps.fix_retries", "trigger.move_km", "trigger.periodic_min",
        "weather.provider", "weather.api_key", "weather.cache_min", "places.provider", "places.language",
        "display.units", "display.lang", "storage.track_interval_s", "mqtt.password", "bogus.key",
    ]

    static func configText(_ g: inout FuzzRandom) -> [UInt8] {
        var bytes: [UInt8] = Bool.random(using: &g) && Int.random(in: 0..<4, using: &g) == 0 ? [0xEF, 0xBB, 0xBF] : []
        var lastSection = ""
        for _ in 0..<Int.random(in: 0...6, using: &g) {
            let key = keys.randomElement(using: &g)!.split(separator: ".").map(String.init)
            var line = ""
            if key[0] != lastSection || Int.random(in: 0..<5, using: &g) == 0 {
                line += "[\(key[0])]\n"
                lastSection = key[0]
            }
            let values = [
                "\"127.0.0.1\"", "2947", "-1", "1e308", "nan", "true", "\"metric\"", "\"open-meteo\"", "'lit'",
                "\"\(word(&g).replacingOccurrences(of: "\"", with: ""))\"", word(&g), "\"unterminated", "[1,2]",
                "{a=1}",
            ]
            line += "\(key[1]) = \(values.randomElement(using: &g)!)\n"
            bytes += Array(line.utf8)
            if Int.random(in: 0..<10, using: &g) == 0 { bytes += [0xC3, 0x28, 0x0A] }  // invalid UTF-8
        }
        return bytes
    }

    @Test("300 argument lists in process: the parser answers or throws a one-line usage error")
    func argumentParserInProcess() {
        var g = FuzzRandom(seed: 0xF1C5_CA57)
        for n in 0..<300 {
            let args = Self.argumentList(&g, closedPort: 9, dir: "/nonexistent")
            do {
                _ = try Arguments.parse(args)
            } catch {
                #expect(
                    error.message.hasPrefix("fixcast") || error.message.hasPrefix("config: "),
                    "case \(n) \(args): \(error.message)")
                let shown = TerminalText.forStderrMessage(error.message)
                #expect(OutputSafety.isClean(shown) && !shown.contains("\n"), "case \(n): \(shown.debugDescription)")
                #expect(shown.count < 1000, "case \(n): an echo is capped")
            }
        }
    }

    @Test("300 config files in process: settings or a config error naming the file, never a secret")
    func configLoaderInProcess() {
        var g = FuzzRandom(seed: 0xC0FF_1C)
        for n in 0..<300 {
            let bytes = Self.configText(&g)
            guard case .success(let text) = ConfigFileBytes.text(bytes) else { continue }
            let file = ConfigFileText(path: "/fuzz.toml", text: text, readableByOthers: false)
            do {
                _ = try ConfigLoader.load(file: file, environment: [:])
            } catch {
                #expect(error.message.hasPrefix("config: /fuzz.toml"), "case \(n): \(error.message)")
            }
        }
    }

    @Test("30 cases through the binary: exit 0, 1 or 2 within 15 s, valid JSON with --json, no raw control character")
    func throughTheBinary() throws {
        var g = FuzzRandom(seed: 0x5EED_0011)
        let home = AcceptanceHome("fuzz")
        defer { home.remove() }
        let closed = freeLoopbackPort()
        let env = Acceptance.env(
            nil,
            [
                "FIXCAST_GPS_HOST": "127.0.0.1", "FIXCAST_GPS_PORT": String(closed), "FIXCAST_GPS_FIX_RETRIES": "0",
                "FIXCAST_GPS_FIX_TIMEOUT_S": "1", "FIXCAST_STORAGE_PATH": home.db,
            ])
        var exits: [Int32: Int] = [:]
        for n in 0..<30 {
            var args =
                ["--offline"]
                + (n % 2 == 0
                    ? Self.plausibleArgumentList(&g, dir: home.dir.path)
                    : Self.argumentList(&g, closedPort: closed, dir: home.dir.path))
            if Int.random(in: 0..<3, using: &g) == 0 {
                let config = home.path("fuzz-\(n).toml")
                try Data(Self.configText(&g)).write(to: URL(fileURLWithPath: config))
                args += ["--config", config]
            }
            args += ["--db", home.db]
            let started = Date()
            let r = try CLIRunner.run(args, env: env, home: home.dir, timeout: 15)
            let label = "case \(n) \(args.map { $0.debugDescription }.joined(separator: " ").prefix(300))"
            #expect(!r.timedOut, "\(label) timed out")
            #expect([0, 1, 2].contains(r.status), "\(label) exit \(r.status): \(r.stderr)")
            #expect(Date().timeIntervalSince(started) < 15)
            exits[r.status, default: 0] += 1
            let csv = args.contains("csv")
            #expect(
                OutputSafety.isClean(r.stdout, allowCRLF: csv),
                "\(label) stdout \(r.stdout.prefix(500).debugDescription)")
            #expect(OutputSafety.isClean(r.stderr), "\(label) stderr \(r.stderr.prefix(500).debugDescription)")
            // What the parser says was asked for decides whether stdout must be JSON.
            let parsed = try? Arguments.parse(args)
            let jsonCommands: Set<CommandName> = [.now, .forecast, .search, .status]
            if let parsed, parsed.json, !parsed.help, !parsed.version, let c = parsed.command, jsonCommands.contains(c),
                !r.stdout.isEmpty
            {
                let parsed = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8), options: [.fragmentsAllowed])
                #expect(parsed != nil, "\(label): stdout is not JSON: \(r.stdout.prefix(300))")
            }
        }
        // The seed reaches past the parser: some cases run a command to the end.
        #expect(exits[0, default: 0] + exits[1, default: 0] >= 8, "exit codes: \(exits)")
        print("fuzz exit codes: \(exits.sorted { $0.key < $1.key })")
    }
}
