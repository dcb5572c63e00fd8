import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// libcurl, libgps, libmosquitto and libxml2 are opened by their shims at first use (dlopen), not linked:
/// each shim opens the soname of the headers it was built with, and one that cannot be opened is one
/// sentence, never a crash.
@Suite(.scratch) struct LoadableLibraryTests {
    static let libraries: [(name: String, library: LoadableLibrary)] = [
        ("libcurl", .curl), ("libgps", .gps), ("libmosquitto", .mosquitto), ("libxml2", .xml),
    ]

    @Test(arguments: [0, 1, 2, 3])
    func aSonameThatIsNotThereIsTheLoadersReasonAndAPackage(index: Int) throws {
        let library = Self.libraries[index].library
        let missing = try #require(library.probe(soname: "libfixcast-absent.so.9"))
        #expect(missing.soname == "libfixcast-absent.so.9")
        #expect(missing.detail.contains("cannot open shared object file"), "\(missing.detail)")
        #expect(missing.clause.hasSuffix("; install it with apt install libfixcast-absent9"), "\(missing.clause)")
        // The probe left the shim's own library alone: it still opens.
        #expect(library.load() == nil)
    }

    @Test(arguments: [0, 1, 2, 3])
    func aLibraryWithoutTheFunctionsIsRefusedByName(index: Int) throws {
        // libz is a real library that has none of them: the first function looked up is named.
        let library = Self.libraries[index].library
        let missing = try #require(library.probe(soname: "libz.so.1"))
        #expect(missing.detail.hasPrefix("libz.so.1 has no "), "\(missing.detail)")
    }

    @Test(arguments: [0, 1, 2, 3])
    func eachShimOpensTheSonameOfTheLibraryItWasBuiltAgainst(index: Int) throws {
        let (name, library) = Self.libraries[index]
        #expect(library.probe(soname: library.soname) == nil)
        #expect(library.load() == nil)
        // The development library (the headers' own) names its soname: the shim must open that one.
        let multiarch = try ShellRun.run("/usr/bin/dpkg-architecture", ["-qDEB_HOST_MULTIARCH"])
        let dev = "/usr/lib/\(multiarch.stdout.trimmingCharacters(in: .whitespacesAndNewlines))/\(name).so"
        let dump = try ShellRun.run("/usr/bin/objdump", ["-p", dev])
        let soname = dump.stdout.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count == 2 && fields[0] == "SONAME" ? String(fields[1]) : nil
        }.first
        #expect(soname == library.soname, "\(dev)")
    }

    /// What `line` leaves out is not only loadable later: it is not in the process at all. `line --watch`
    /// stays running, so its mappings can be read (/proc/PID/maps) once it has printed its line.
    @Test func lineMapsNoneOfThem() throws {
        let home = TestPaths.temporaryDirectory("line-maps")
        let db = home.appendingPathComponent("s.sqlite").path
        let maps = try Self.mapsOnceItPrints(["line", "--watch", "--db", db], env: [:], home: home)
        for (_, library) in Self.libraries {
            #expect(!maps.contains(library.soname), "\(library.soname) is mapped")
        }
        #expect(!maps.contains("libicu"), "libxml2's libicu")
    }

    /// A route is read with libxml2 at start, and libxml2 (with libicu) leaves the process after it: `run`
    /// does not carry the parser for the drive.
    @Test func runWithARouteKeepsNoXMLParser() throws {
        let home = TestPaths.temporaryDirectory("route-maps")
        let db = home.appendingPathComponent("s.sqlite").path
        let env = ["FIXCAST_AHEAD_ENABLED": "true"]
        // The route is read at start: a file that is not GPX stops `run` there.
        let notGPX = home.appendingPathComponent("not.gpx")
        try Data("<kml/>".utf8).write(to: notGPX)
        let refused = try CLIRunner.run(
            ["run", "--json", "--offline", "--at", "39.53,-119.81", "--route", notGPX.path, "--db", db], env: env,
            home: home)
        #expect(refused.status == 2 && refused.stderr.contains("is not GPX"), "\(refused.stderr)")
        let route = TestPaths.repoRoot.appendingPathComponent("demo/reno_tahoe_route.gpx").path
        let maps = try Self.mapsOnceItPrints(
            ["run", "--json", "--offline", "--at", "39.53,-119.81", "--route", route, "--db", db], env: env, home: home)
        #expect(!maps.contains(LoadableLibrary.xml.soname), "libxml2 is mapped")
        #expect(!maps.contains("libicu"), "libxml2's libicu is mapped")
    }

    /// The mappings (/proc/PID/maps) of `fixcast args…`, a command that stays running, once it has
    /// printed its first line; then it is stopped.
    static func mapsOnceItPrints(_ args: [String], env: [String: String], home: URL) throws -> String {
        let running = try RunningFixcast(args, env: env, home: home)
        defer {
            running.signal(SIGTERM)
            _ = running.waitForExit(seconds: 5)
        }
        #expect(running.waitForLines(1, seconds: 20), "stderr: \(running.stderr)")
        let maps = try String(contentsOfFile: "/proc/\(running.process.processIdentifier)/maps", encoding: .utf8)
        #expect(maps.contains("libc.so"), "the maps were read")
        return maps
    }
}

/// Through the binary, in a mount namespace of its own where libcurl, libgps, libmosquitto and libxml2 are
/// /dev/null (a library that is not there, as on a machine without it; needs root for `unshare -m`).
/// Before the shims opened them with dlopen, the binary did not start at all there (exit 127, the
/// dynamic loader's "error while loading shared libraries").
@Suite(.serialized, .scratch, .enabled(if: MaskedLibraries.canMask))
struct MissingLibraryBinaryTests {
    @Test func lineRunsWithoutThemAndEachComponentSaysWhatToInstall() throws {
        let home = TestPaths.temporaryDirectory("masked-libraries")
        let db = home.appendingPathComponent("s.sqlite").path
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let env = ["FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline"]
        let seeded = try CLIRunner.run(["now", "--json", "--at", "55.68,12.57", "--db", db], env: env, home: home)
        #expect(seeded.status == 0, "\(seeded.stderr)")

        let line = try MaskedLibraries.run(["line", "--db", db, "--format", "%l|%t"], env: env, home: home)
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.stdout == "Copenhagen|17 °C\n")

        // A store of its own: the seeded one holds a fresh forecast for here, which needs no request.
        let weather = try MaskedLibraries.run(
            ["now", "--at", "55.68,12.57", "--db", home.appendingPathComponent("fresh.sqlite").path], env: env,
            home: home)
        #expect(weather.status == 1)
        Self.expectOneSentence(weather.stderr, component: "weather", library: "libcurl.so.4", package: "libcurl4")

        let gps = try MaskedLibraries.run(
            ["now", "--gpsd", "127.0.0.1:9", "--db", home.appendingPathComponent("none.sqlite").path], env: env,
            home: home)
        #expect(gps.status == 1)
        let libgps = LoadableLibrary.gps.soname
        Self.expectOneSentence(
            gps.stderr, component: "gps", library: libgps, package: MissingLibrary(soname: libgps, detail: "").package)

        let mqtt = try MaskedLibraries.run(
            ["mqtt", "test"],
            env: ["FIXCAST_MQTT_HOST": "127.0.0.1", "FIXCAST_MQTT_PORT": "9", "FIXCAST_MQTT_DEVICE_ID": "masked"],
            home: home)
        #expect(mqtt.status == 1)
        Self.expectOneSentence(mqtt.stderr, component: "mqtt", library: "libmosquitto.so.1", package: "libmosquitto1")
    }

    /// libxml2 alone missing: the feed is fetched (libcurl is there), and reading it is the sentence.
    @Test func aMeteoAlarmFeedWithoutLibxml2SaysWhatToInstall() throws {
        let home = TestPaths.temporaryDirectory("masked-libxml2")
        let feed = try AlertFixtures.shifted(
            AlertFixtures.meteoAlarmFrance, reference: AlertFixtures.meteoAlarmFranceUpdated, in: home)
        let server = try FixtureServer(routes: ["/feeds/meteoalarm-legacy-atom-france": [.file(feed)]])
        defer { server.stop() }
        let env = [
            "FIXCAST_ALERTS_ENABLED": "true", "FIXCAST_ALERTS_METEOALARM_BASE_URL": server.baseURL,
            "FIXCAST_PLACES_PROVIDER": "offline",
        ]
        let libxml2 = LoadableLibrary.xml.soname
        let alerts = try MaskedLibraries.run(
            ["alerts", "--at", "45.8992,6.1294", "--db", home.appendingPathComponent("s.sqlite").path], env: env,
            home: home, masking: [libxml2])
        #expect(alerts.status == 1, "\(alerts.stdout)")
        Self.expectOneSentence(
            alerts.stderr, component: "alerts", library: libxml2,
            package: MissingLibrary(soname: libxml2, detail: "").package)
        #expect(server.requestCount() == 1, "the feed was fetched")
    }

    static func expectOneSentence(
        _ stderr: String, component: String, library: String, package: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(stderr)", sourceLocation: sourceLocation)
        let text = String(lines.first ?? "")
        #expect(text.hasPrefix("\(component): "), "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains("\(library) cannot be loaded"), "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains("apt install \(package)"), "\(text)", sourceLocation: sourceLocation)
    }
}

/// Runs the built fixcast with libcurl, libgps, libmosquitto and libxml2 (or the ones named) bind-mounted
/// over by /dev/null, in a private mount namespace (`unshare -m`: nothing outside it sees the mounts, and
/// they end with it).
enum MaskedLibraries {
    static let sonames = ["libcurl.so.4", LoadableLibrary.gps.soname, "libmosquitto.so.1", LoadableLibrary.xml.soname]

    /// Whether this machine lets the tests make a mount namespace (root, util-linux's unshare).
    static let canMask: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), getuid() == 0 else { return false }
        return (try? ShellRun.run("/usr/bin/unshare", ["-m", "/bin/true"]).status) == 0
    }()

    static func run(_ args: [String], env: [String: String], home: URL, masking: [String] = sonames) throws
        -> CLIResult
    {
        let multiarch = try ShellRun.run("/usr/bin/dpkg-architecture", ["-qDEB_HOST_MULTIARCH"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let paths = masking.map { "/usr/lib/\(multiarch)/\($0)" }
        // Each path is a symlink to the library file; the bind mount covers the file it names.
        let script = #"for f in $MASKED; do mount --bind /dev/null "$f" || exit 125; done; exec "$@""#
        var environment = fixcastEnvironment(home: home, adding: env)
        environment["MASKED"] = paths.joined(separator: " ")
        return try CLIRunner.run(
            executable: "/usr/bin/unshare",
            arguments: ["-m", "/bin/sh", "-c", script, "sh", TestPaths.fixcastBinary] + args,
            environment: environment, timeout: 60)
    }
}
