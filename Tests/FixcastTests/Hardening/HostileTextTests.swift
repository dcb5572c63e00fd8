import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Issue 11 item 1 through the binary: hostile text from Nominatim, Open-Meteo geocoding, an HTTP
/// error reason and an argument never reaches stdout or stderr raw; JSON keeps it exactly.
@Suite(.serialized, .scratch) struct HostileTextTests {
    static let hostileTown = "\u{1B}]0;pwned\u{07}\u{1B}[2JTown"
    static let reverse = TestPaths.fixture("hostile/nominatim-reverse-hostile.json")
    static let geocoding = TestPaths.fixture("hostile/open-meteo-geocoding-hostile.json")

    static func server(forecast: [FixtureResponse]? = nil) throws -> FixtureServer {
        try FixtureServer.started(routes: [
            "/v1/forecast": forecast ?? [.file(Acceptance.forecastFixture)],
            "/reverse": [.file(reverse)],
            "/v1/search": [.file(geocoding)],
        ])
    }

    static func expectClean(_ r: CLIResult, allowCRLF: Bool = false, _ what: String) {
        #expect(
            OutputSafety.unsafeScalars(r.stdout, allowCRLF: allowCRLF).isEmpty,
            "\(what) stdout: \(r.stdout.debugDescription)")
        #expect(OutputSafety.unsafeScalars(r.stderr).isEmpty, "\(what) stderr: \(r.stderr.debugDescription)")
    }

    @Test("now, status and export --format csv show the hostile Nominatim town without its escapes; --json keeps it")
    func hostileReverseGeocoding() throws {
        let home = AcceptanceHome("hostile-reverse")
        defer { home.remove() }
        let server = try Self.server()
        defer { server.stop() }
        let env = Acceptance.env(server)

        let now = try home.run(["now", "--at", "50.9373,-6.9592"], env: env)
        #expect(now.status == 0, "stderr: \(now.stderr)")
        Self.expectClean(now, "now")
        #expect(now.stdout.contains("]0;pwned[2JTown"), "the letters stay: \(now.stdout)")
        #expect(now.stdout.contains("Bad State31m0;t"))

        let json = try home.run(["now", "--at", "50.9373,-6.9592", "--json"], env: env)
        #expect(json.status == 0, "stderr: \(json.stderr)")
        Self.expectClean(json, "now --json")
        let place = try #require(try Acceptance.object(json).dict("place"))
        #expect(place.string("name") == Self.hostileTown)
        #expect(place.string("country") == "\u{202E}Country\u{0}\u{8}\rEnd\u{2066}\u{200F}\u{61C}")

        let status = try home.run(["status", "--gpsd", "127.0.0.1:\(freeLoopbackPort())"], env: env)
        Self.expectClean(status, "status")
        #expect(status.stdout.contains("Town"), "\(status.stdout)")
        let statusJSON = try home.run(["status", "--json", "--gpsd", "127.0.0.1:\(freeLoopbackPort())"], env: env)
        Self.expectClean(statusJSON, "status --json")
        #expect(
            try Acceptance.object(statusJSON).dict("last_reading")?.dict("place")?.string("name") == Self.hostileTown)

        let csv = try home.run(["export", "--format", "csv"], env: env)
        #expect(csv.status == 0, "stderr: \(csv.stderr)")
        Self.expectClean(csv, allowCRLF: true, "export --format csv")
        #expect(csv.stdout.contains(",]0;pwned[2JTown,"), "\(csv.stdout)")
        // A numeric column's minus sign is not a formula: the longitude stays a number.
        #expect(csv.stdout.contains(",-6.9592,"), "\(csv.stdout)")
        #expect(!csv.stdout.contains("'-6.9592"))

        for format in ["gpx", "geojson"] {
            let out = try home.run(["export", "--format", format], env: env)
            #expect(out.status == 0, "stderr: \(out.stderr)")
            Self.expectClean(out, "export --format \(format)")
        }
        let gpx = try home.run(["export", "--format", "gpx"], env: env)
        #expect(gpx.stdout.contains("&#x9B;31m&#x9D;0;t&#x9C;"), "C1 kept as character references: \(gpx.stdout)")
        let gpxPath = home.path("hostile.gpx")
        try gpx.stdout.write(toFile: gpxPath, atomically: true, encoding: .utf8)
        let (lint, _, lintErr) = try Acceptance.runProgram("/usr/bin/xmllint", ["--noout", gpxPath])
        #expect(lint == 0, "the GPX stays well-formed: \(lintErr)")
        let geojson = try home.run(["export", "--format", "geojson"], env: env)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        let names = features.compactMap {
            (($0["properties"] as? [String: Any])?["place"] as? [String: Any])?["name"] as? String
        }
        #expect(names.contains(Self.hostileTown), "GeoJSON keeps the name exactly: \(names)")
    }

    @Test(
        "search and --place show hostile geocoding names cleaned and capped; the CSV quotes a formula; --json keeps them"
    )
    func hostileGeocoding() throws {
        let home = AcceptanceHome("hostile-search")
        defer { home.remove() }
        let server = try Self.server()
        defer { server.stop() }
        let env = Acceptance.env(server)

        let search = try home.run(["search", "evil"], env: env)
        #expect(search.status == 0, "stderr: \(search.stderr)")
        Self.expectClean(search, "search")
        // The escape's ESC is gone and the text it leaves stays text (cut to a cell's 24 columns).
        #expect(search.stdout.contains("=HYPERLINK(\"http://x\")[…"), "\(search.stdout)")
        #expect(search.stdout.contains("…"), "the 300-character name is capped: \(search.stdout)")
        #expect(!search.stdout.contains(String(repeating: "x", count: 100)))

        let searchJSON = try home.run(["search", "evil", "--json"], env: env)
        Self.expectClean(searchJSON, "search --json")
        let first = try #require(try Acceptance.array(searchJSON).first)
        #expect(first.string("name") == "=HYPERLINK(\"http://x\")\u{1B}[2J")

        let placed = try home.run(["now", "--place", "evil"], env: env)
        #expect(placed.status == 0, "stderr: \(placed.stderr)")
        Self.expectClean(placed, "now --place")
        #expect(placed.stdout.contains("Region"), "\(placed.stdout)")

        let csv = try home.run(["export", "--format", "csv"], env: env)
        Self.expectClean(csv, allowCRLF: true, "export --format csv")
        #expect(csv.stdout.contains(",\"'=HYPERLINK(\"\"http://x\"\")[2J\","), "formula quoted: \(csv.stdout)")
    }

    @Test("an HTTP error reason with escapes reaches stderr escaped, with and without --json")
    func hostileErrorReason() throws {
        let home = AcceptanceHome("hostile-reason")
        defer { home.remove() }
        let server = try Self.server(forecast: [
            .file(TestPaths.fixture("hostile/open-meteo-error-hostile.json"), status: 400)
        ])
        defer { server.stop() }
        for extra in [[], ["--json"]] {
            let r = try home.run(["now", "--at", "52.52,13.405"] + extra, env: Acceptance.env(server))
            #expect(r.status == 1)
            Self.expectClean(r, "now \(extra)")
            #expect(r.stderr.contains("Bad \\u{1B}]0;pwned\\u{07}request line two\\u{9B}2J\\u{202E}"), "\(r.stderr)")
            #expect(!r.stderr.contains(".;") && !r.stderr.contains(".."), "\(r.stderr)")
        }
    }

    @Test("a reason ending in a full stop gives no \".;\" or \"..\"")
    func reasonWithFullStop() throws {
        let home = AcceptanceHome("hostile-stop")
        defer { home.remove() }
        let server = try Self.server(forecast: [
            .file(TestPaths.fixture("hostile/open-meteo-error-full-stop.json"), status: 400)
        ])
        defer { server.stop() }
        let r = try home.run(["now", "--at", "52.52,13.405"], env: Acceptance.env(server))
        #expect(r.status == 1)
        #expect(r.stderr.contains("Given: 100"), "\(r.stderr)")
        #expect(!r.stderr.contains(".;") && !r.stderr.contains(".."), "\(r.stderr)")
    }

    @Test("--at echoing a hostile argument shows its escapes as \\u{…}; exit 2")
    func hostileArgumentEcho() throws {
        let home = AcceptanceHome("hostile-at")
        defer { home.remove() }
        let r = try home.run(["now", "--at", "\u{1B}]0;pwned\u{07}\u{9B}2J,\u{202E}0"], env: Acceptance.env(nil))
        #expect(r.status == 2)
        Self.expectClean(r, "--at")
        #expect(r.stderr.contains("--at") && r.stderr.contains("\\u{1B}]0;pwned\\u{07}\\u{9B}2J"), "\(r.stderr)")
    }
}
