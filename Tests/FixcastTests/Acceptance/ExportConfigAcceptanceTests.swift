import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// A store filled the way a user fills it: a short replayed drive through `fixcast run --json` (real
/// gpsd, the Reno → Lake Tahoe NMEA, weather and Nominatim replayed by a loopback server) and then two
/// `fixcast now` runs. Made once and shared by the export tests and the Nominatim spacing test (they
/// only read it).
actor ReplayedDrive {
    static let shared = ReplayedDrive()

    struct Made: Sendable {
        let home: URL
        let db: String
        /// What the store holds, counted with the sqlite3 shell (not with fixcast's code).
        let readings: Int
        let trackPoints: Int
        /// The stored readings' (lat, lon), in time order, and the track's.
        let readingPositions: [[Double]]
        let trackPositions: [[Double]]
        /// When the server received each Nominatim request of the one `fixcast run` process.
        let reverseRequestTimes: [Double]
        /// The `run --json` readings, as printed (one JSON object a line).
        let printedLines: [String]
    }

    private var made: Made?

    func get() async throws -> Made {
        if let made { return made }
        // Its home outlives the test that happens to make it: the shared scratch, removed at exit.
        let m = try await TestScratch.$current.withValue(.shared) { try await Self.make() }
        made = m
        return m
    }

    static func sqlite(_ db: String, _ sql: String) throws -> String {
        let (status, out, err) = try Acceptance.runProgram("/usr/bin/sqlite3", ["-readonly", db, sql])
        guard status == 0 else { throw ReplayError.sqlite(err) }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func rows(_ db: String, _ sql: String) throws -> [[Double]] {
        try sqlite(db, sql).split(separator: "\n").map { $0.split(separator: "|").compactMap { Double($0) } }
    }

    enum ReplayError: Error {
        case sqlite(String)
        case agent(String)
    }

    private static func make() async throws -> Made {
        let rig = try await startRig()
        defer { rig.stop() }
        let lines = try String(contentsOfFile: AgentReplayTests.track, encoding: .utf8).split(separator: "\n").map(
            String.init)
        AgentReplayTests.feed(rig, lines: lines[0..<6], pause: 0.01)
        guard rig.agent.waitForLines(1, seconds: 30) else {
            throw ReplayError.agent("no startup reading: \(rig.agent.stderr)")
        }
        // About ten minutes of the drive (GGA + RMC a second), some 15 km.
        AgentReplayTests.feed(rig, lines: lines[6..<1200], pause: 0.002)
        try await Task.sleep(for: .seconds(2))
        rig.agent.signal(SIGTERM)
        guard rig.agent.waitForExit(seconds: 20) == 0 else {
            throw ReplayError.agent("run did not exit 0: \(rig.agent.stderr)")
        }
        let reverseTimes = rig.server.requestTimes(path: "/reverse")
        let printed = rig.agent.stdoutLines
        // Two one-shot readings elsewhere, as a user would add them.
        for at in ["39.0968,-120.0324", "39.5296,-119.8138"] {
            let r = try CLIRunner.run(
                ["now", "--at", at, "--json", "--db", rig.db],
                env: Acceptance.env(rig.server, ["FIXCAST_PLACES_PROVIDER": "offline"]), home: rig.home)
            guard r.status == 0 else { throw ReplayError.agent("now --at \(at): \(r.stderr)") }
        }
        return Made(
            home: rig.home, db: rig.db,
            readings: Int(try sqlite(rig.db, "SELECT count(*) FROM readings")) ?? -1,
            trackPoints: Int(try sqlite(rig.db, "SELECT count(*) FROM track_points")) ?? -1,
            readingPositions: try rows(rig.db, "SELECT lat, lon FROM readings ORDER BY time, id"),
            trackPositions: try rows(rig.db, "SELECT lat, lon FROM track_points ORDER BY time, id"),
            reverseRequestTimes: reverseTimes, printedLines: printed)
    }

    /// AgentReplayTests' rig, with place names from Nominatim on the loopback server instead of offline.
    private static func startRig() async throws -> AgentReplayTests.Rig {
        let home = TestPaths.temporaryDirectory("accept-drive")
        let gpsd = try GPSDOnPTY()
        let server = try Acceptance.recordedServer()
        let db = home.appendingPathComponent("fixcast.sqlite").path
        let agent = try RunningFixcast(
            ["run", "--json", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db], env: Acceptance.env(server), home: home)
        let observer = GPSDClient(
            address: try GPSDAddress(host: "127.0.0.1", port: Int(gpsd.port)), clock: SystemClock())
        observer.start()
        let recorder = EventRecorder(observer)
        let rig = AgentReplayTests.Rig(
            gpsd: gpsd, server: server, agent: agent, observer: observer, recorder: recorder, db: db, home: home)
        guard gpsd.waitForClient(count: 2, seconds: 20), await primeUntilSynced(gpsd, observer: recorder) else {
            rig.stop()
            throw ReplayError.agent("gpsd did not get both clients synced: \(agent.stderr)")
        }
        return rig
    }
}

/// gpxpy when the system Python has it (Debian python3-gpxpy, or pip).
let gpxpyPython: String? = {
    let candidates = [ProcessInfo.processInfo.environment["FIXCAST_GPXPY_PYTHON"], "/usr/bin/python3"].compactMap { $0 }
    return candidates.first { (try? Acceptance.runProgram($0, ["-c", "import gpxpy"]).0) == 0 }
}()

/// Issue 6's acceptance for exports, through the binary, read back by other people's tools.
@Suite(.serialized, .scratch) struct ExportAcceptanceTests {
    func export(_ drive: ReplayedDrive.Made, _ format: String, _ extra: [String] = [], file: String? = nil) throws
        -> CLIResult
    {
        var args = ["export", "--format", format, "--db", drive.db] + extra
        if let file { args += ["-o", file] }
        return try CLIRunner.run(args, env: Acceptance.env(nil), home: drive.home)
    }

    @Test("a GPX export of a replayed drive reads back in gpsbabel with the store's track points and waypoints")
    func gpxReadsBackInGpsbabel() async throws {
        let drive = try await ReplayedDrive.shared.get()
        #expect(drive.readings >= 4, "startup + moved readings + two now runs: \(drive.readings)")
        #expect(drive.trackPoints >= 20, "\(drive.trackPoints)")
        let file = drive.home.appendingPathComponent("drive.gpx").path
        let r = try export(drive, "gpx", file: file)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.isEmpty, "-o writes the file, not stdout")

        let waypoints = try Acceptance.runProgram(
            "/usr/bin/gpsbabel",
            ["-w", "-i", "gpx", "-f", file, "-x", "nuketypes,tracks,routes", "-o", "unicsv", "-F", "-"])
        #expect(waypoints.0 == 0, "gpsbabel: \(waypoints.2)")
        let wptRows = waypoints.1.split(whereSeparator: \.isNewline).dropFirst()  // the header
        #expect(wptRows.count == drive.readings)
        let track = try Acceptance.runProgram(
            "/usr/bin/gpsbabel",
            ["-t", "-i", "gpx", "-f", file, "-x", "nuketypes,waypoints,routes", "-o", "unicsv", "-F", "-"])
        #expect(track.0 == 0, "gpsbabel: \(track.2)")
        let trkRows = track.1.split(whereSeparator: \.isNewline).map(String.init)
        #expect(trkRows.count - 1 == drive.trackPoints)
        // gpsbabel's columns: the first track point where the store has it.
        let header = try #require(trkRows.first).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let latCol = try #require(header.firstIndex(of: "Latitude"), "\(header)")
        let lonCol = try #require(header.firstIndex(of: "Longitude"), "\(header)")
        let first = trkRows[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let want = try #require(drive.trackPositions.first)
        #expect(abs((Double(first[latCol]) ?? 0) - want[0]) < 1e-6)
        #expect(abs((Double(first[lonCol]) ?? 0) - want[1]) < 1e-6)
        #expect(try Acceptance.runProgram("/usr/bin/xmllint", ["--noout", file]).0 == 0)
    }

    @Test(
        "the same GPX reads back in gpxpy with the same counts",
        .enabled(
            if: gpxpyPython != nil,
            "gpxpy is not importable by /usr/bin/python3 (apt-get install python3-gpxpy, or pip install gpxpy)"))
    func gpxReadsBackInGpxpy() async throws {
        let drive = try await ReplayedDrive.shared.get()
        let file = drive.home.appendingPathComponent("drive-gpxpy.gpx").path
        #expect(try export(drive, "gpx", file: file).status == 0)
        let script = """
            import gpxpy, sys
            g = gpxpy.parse(open(sys.argv[1], encoding='utf-8'))
            print(len(g.waypoints), sum(len(s.points) for t in g.tracks for s in t.segments))
            """
        let (status, out, err) = try Acceptance.runProgram(try #require(gpxpyPython), ["-c", script, file])
        #expect(status == 0, "\(err)")
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "\(drive.readings) \(drive.trackPoints)")
    }

    @Test("the GeoJSON export is an RFC 7946 FeatureCollection: a Point per reading and a LineString, [lon, lat]")
    func geojsonIsAFeatureCollection() async throws {
        let drive = try await ReplayedDrive.shared.get()
        let r = try export(drive, "geojson")
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let root = try Acceptance.object(r)
        #expect(root.string("type") == "FeatureCollection")
        #expect(root["crs"] == nil, "RFC 7946 has no crs member")
        let features = try #require(root["features"] as? [[String: Any]])
        for f in features {
            #expect(f.string("type") == "Feature")
            #expect(f["properties"] != nil)
        }
        let geometries = features.compactMap { $0.dict("geometry") }
        #expect(geometries.count == features.count)
        let points = geometries.filter { $0.string("type") == "Point" }
        let lines = geometries.filter { $0.string("type") == "LineString" }
        #expect(points.count == drive.readings)
        #expect(lines.count == 1)
        // [lon, lat]: compared with what the store holds as (lat, lon).
        let pointCoordinates = points.compactMap { ($0["coordinates"] as? [NSNumber])?.map(\.doubleValue) }
        #expect(pointCoordinates.count == drive.readingPositions.count)
        for (got, want) in zip(pointCoordinates, drive.readingPositions) {
            #expect(got.count >= 2 && got.count <= 3)
            #expect(abs(got[0] - want[1]) < 1e-9 && abs(got[1] - want[0]) < 1e-9, "\(got) vs lat,lon \(want)")
        }
        let line = try #require((lines.first?["coordinates"] as? [[NSNumber]])?.map { $0.map(\.doubleValue) })
        #expect(line.count == drive.trackPoints)
        #expect(line.count >= 2, "a LineString has two or more positions")
        for (got, want) in zip(line, drive.trackPositions) {
            #expect(abs(got[0] - want[1]) < 1e-9 && abs(got[1] - want[0]) < 1e-9, "\(got) vs lat,lon \(want)")
        }
    }

    @Test("the CSV export opens with Python's csv module: the right header, one row per reading")
    func csvOpensInPythonsCsvModule() async throws {
        let drive = try await ReplayedDrive.shared.get()
        let file = drive.home.appendingPathComponent("drive.csv").path
        let r = try export(drive, "csv", file: file)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline='', encoding='utf-8') as f:
                rows = list(csv.reader(f, strict=True))
            print(json.dumps(rows))
            """
        let (status, out, err) = try Acceptance.runProgram("/usr/bin/python3", ["-c", script, file])
        #expect(status == 0, "python csv: \(err)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String]])
        let header = try #require(rows.first)
        #expect(header.first == "time")
        for column in [
            "trigger", "lat", "lon", "place_name", "place_country_code", "temperature_c", "feels_like_c",
            "humidity_pct",
            "pressure_hpa", "wind_speed_mps", "wind_dir_deg", "precipitation_mm", "weather_code", "description",
        ] {
            #expect(header.contains(column), "header has \(column): \(header)")
        }
        #expect(Set(header).count == header.count, "no duplicate columns")
        let body = rows.dropFirst()
        #expect(body.count == drive.readings)
        #expect(body.allSatisfy { $0.count == header.count })
        let latCol = try #require(header.firstIndex(of: "lat"))
        let lonCol = try #require(header.firstIndex(of: "lon"))
        for (row, want) in zip(body, drive.readingPositions) {
            #expect(
                abs((Double(row[latCol]) ?? 0) - want[0]) < 1e-9 && abs((Double(row[lonCol]) ?? 0) - want[1]) < 1e-9)
        }
    }

    @Test("--since and --until filter readings (ISO 8601 and YYYY-MM-DD)")
    func sinceAndUntilFilter() throws {
        let home = AcceptanceHome("export-range")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let env = Acceptance.env(server)
        func readingTime(_ at: String) throws -> String {
            let r = try home.run(["now", "--at", at, "--json"], env: env)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            return try #require(try Acceptance.object(r).string("time"))
        }
        func exportedTimes(_ extra: [String]) throws -> [String] {
            let r = try home.run(["export", "--format", "csv"] + extra, env: env)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            return r.stdout.split(whereSeparator: \.isNewline).dropFirst().map { String($0.prefix { $0 != "," }) }
        }
        let t1 = try readingTime("50.9373,6.9592")
        Thread.sleep(forTimeInterval: 1.2)  // the two readings fall in different seconds
        let t2 = try readingTime("52.52,13.405")
        #expect(t1 != t2)
        let afterFirst = try #require(UTCTime.parse(t1)).addingTimeInterval(1)

        #expect(try exportedTimes([]) == [t1, t2])
        #expect(try exportedTimes(["--since", t2]) == [t2])
        #expect(try exportedTimes(["--until", UTCTime.format(afterFirst)]) == [t1])
        let today = String(t2.prefix(10))
        let day = 86_400.0
        #expect(try exportedTimes(["--since", today, "--until", today]).count == (t1.prefix(10) == today ? 2 : 1))
        let yesterday = UTCTime.formatDate(try #require(UTCTime.parse(today)).addingTimeInterval(-day))
        #expect(try exportedTimes(["--until", yesterday]) == [])
    }

    @Test(
        "bad export values exit 2 naming the option",
        arguments: [
            (["--since", "yesterday"], "--since"),
            (["--until", "2026-13-01"], "--until"),
            (["--since", "2026-02-30"], "--since"),
            (["--until", "2026-01-30T25:00:00Z"], "--until"),
        ] as [([String], String)])
    func badValuesExit2(_ extra: [String], _ option: String) throws {
        let home = AcceptanceHome("export-bad")
        defer { home.remove() }
        let r = try home.run(["export", "--format", "gpx"] + extra, env: Acceptance.env(nil))
        #expect(r.status == 2)
        #expect(Acceptance.stderrLines(r).count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(option), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("an unknown --format exits 2 naming --format")
    func unknownFormatExits2() throws {
        let home = AcceptanceHome("export-format")
        defer { home.remove() }
        let r = try home.run(["export", "--format", "kml"], env: Acceptance.env(nil))
        #expect(r.status == 2)
        #expect(r.stderr.contains("--format"))
        #expect(r.stdout.isEmpty)
    }
}

/// Issue 6's acceptance for the config file, through the binary.
@Suite(.serialized, .scratch) struct ConfigAcceptanceTests {
    /// (what is wrong, file text, line, key)
    static let broken: [(String, String, Int, String)] = [
        ("unknown key", "[gps]\nport = 2947\n\n[weather]\ncache_minutes = 10\n", 5, "cache_minutes"),
        ("wrong type", "# mine\n[gps]\nhost = \"127.0.0.1\"\nport = \"2947\"\n", 4, "port"),
        ("syntax error", "[display]\nunits = \"metric\"\nlang = \"en\n", 3, "lang"),
    ]

    @Test(
        "a config with an unknown key, a wrong type or a syntax error: exit 2 naming file, line and key",
        arguments: broken.indices)
    func brokenConfigExits2(_ index: Int) throws {
        let (what, text, line, key) = Self.broken[index]
        let home = AcceptanceHome("config-broken")
        defer { home.remove() }
        let config = home.path("fixcast.toml")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let r = try home.run(
            ["now", "--at", "52.52,13.405", "--offline", "--config", config], env: Acceptance.env(nil))
        #expect(r.status == 2, "\(what): \(r.stderr)")
        let lines = Acceptance.stderrLines(r)
        #expect(lines.count == 1, "one sentence: \(r.stderr)")
        let sentence = lines.first ?? ""
        #expect(sentence.contains(config), "names the file: \(sentence)")
        #expect(sentence.contains("line \(line)"), "names line \(line): \(sentence)")
        #expect(sentence.contains("\"\(key)\"") || sentence.contains(" \(key) "), "names the key \(key): \(sentence)")
        #expect(r.stdout.isEmpty)
    }

    @Test("the config file is found in the documented order: --config, $FIXCAST_CONFIG, $XDG_CONFIG_HOME")
    func lookupOrder() throws {
        let home = AcceptanceHome("config-order")
        defer { home.remove() }
        // CLIRunner sets XDG_CONFIG_HOME to <home>/config. Each file is broken in its own way, so the
        // error tells which one was read.
        let xdg = home.dir.appendingPathComponent("config/fixcast")
        try FileManager.default.createDirectory(at: xdg, withIntermediateDirectories: true)
        try "[gps]\nfrom_xdg = 1\n".write(
            to: xdg.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let envFile = home.path("env.toml")
        try "[gps]\nfrom_env = 1\n".write(toFile: envFile, atomically: true, encoding: .utf8)
        let explicit = home.path("explicit.toml")
        try "[gps]\nfrom_option = 1\n".write(toFile: explicit, atomically: true, encoding: .utf8)
        let args = ["now", "--at", "52.52,13.405", "--offline"]

        let xdgOnly = try home.run(args, env: Acceptance.env(nil))
        #expect(xdgOnly.status == 2 && xdgOnly.stderr.contains("from_xdg"), "\(xdgOnly.stderr)")
        let withEnv = try home.run(args, env: Acceptance.env(nil, ["FIXCAST_CONFIG": envFile]))
        #expect(withEnv.status == 2 && withEnv.stderr.contains("from_env"), "\(withEnv.stderr)")
        let withOption = try home.run(
            args + ["--config", explicit], env: Acceptance.env(nil, ["FIXCAST_CONFIG": envFile]))
        #expect(withOption.status == 2 && withOption.stderr.contains("from_option"), "\(withOption.stderr)")
    }

    @Test("FIXCAST_<SECTION>_<KEY> overrides the file, and a command-line option overrides both")
    func environmentOverridesTheFile() throws {
        let home = AcceptanceHome("config-env")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let deadPort = freeLoopbackPort()
        let config = home.path("fixcast.toml")
        try """
        [weather]
        base_url = "http://127.0.0.1:\(deadPort)"

        [places]
        provider = "offline"

        [display]
        lang = "ru"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let args = ["now", "--at", "55.68,12.57", "--json", "--config", config]
        // Only the places URLs from the environment; the weather URL is the file's.
        var env = Acceptance.env(server)
        env["FIXCAST_WEATHER_BASE_URL"] = nil

        let fromFile = try home.run(args, env: env)
        #expect(fromFile.status == 1, "the file's dead weather URL is used: \(fromFile.stderr)")
        #expect(fromFile.stderr.contains("127.0.0.1:\(deadPort)"), "\(fromFile.stderr)")
        #expect(
            try Acceptance.object(fromFile).dict("place")?.string("source") == "offline", "the file's places.provider")

        env["FIXCAST_WEATHER_BASE_URL"] = server.baseURL
        let fromEnv = try home.run(args, env: env)
        #expect(fromEnv.status == 0, "stderr: \(fromEnv.stderr)")
        #expect(server.requestCount(path: "/v1/forecast") == 1, "FIXCAST_WEATHER_BASE_URL wins over the file")
        let ru = try #require(try Acceptance.object(fromEnv).dict("weather")?.dict("current")?.string("description"))
        #expect(ru.lowercased().contains("морось"), "the file's display.lang: \(ru)")

        env["FIXCAST_DISPLAY_LANG"] = "zh"
        let zh = try home.run(args, env: env)
        #expect(
            try Acceptance.object(zh).dict("weather")?.dict("current")?.string("description")?.contains("毛毛雨") == true)
        let en = try home.run(args + ["--lang", "en"], env: env)
        #expect(
            try Acceptance.object(en).dict("weather")?.dict("current")?.string("description")?.lowercased().contains(
                "drizzle")
                == true, "--lang wins over FIXCAST_DISPLAY_LANG")
    }
}
