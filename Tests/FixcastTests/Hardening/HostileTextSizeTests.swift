import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 23 item 5 through the binary: a place name of 600 KB (or one grapheme of 400 KB) from a
/// loopback Nominatim is stored capped and printed as a bounded line; a 5 MB answer is refused by the
/// HTTP body cap; an alert with a 600 KB headline is listed capped.
@Suite(.serialized, .scratch) struct HostileTextSizeTests {
    static let cologne = "50.9373,6.9592"

    /// The recorded Cologne answer with `city` (the name fixcast shows) replaced by `name`.
    static func reverse(city name: String, in home: AcceptanceHome) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: Acceptance.cologneFixture))
        var obj = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var address = try #require(obj["address"] as? [String: Any])
        address["city"] = name
        address["city_district"] = name
        obj["address"] = address
        let path = home.path("reverse-\(name.utf8.count).json")
        try JSONSerialization.data(withJSONObject: obj).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func sqlite(_ db: String, _ sql: String) throws -> String {
        let (status, out, err) = try Acceptance.runProgram("/usr/bin/sqlite3", [db, sql])
        #expect(status == 0, "\(err)")
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A few track points around the stored reading, so `trips` has a trip that names the place.
    /// The reading (taken with `--at`) becomes one from gpsd: a position given by hand is in no trip.
    static func addTrack(_ db: String) throws {
        _ = try sqlite(
            db,
            """
            UPDATE readings SET position_source = 'gps', json = json_set(json, '$.position.source', 'gps');
            WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < 19)
            INSERT INTO track_points (time, lat, lon, mode)
            SELECT (SELECT min(time) FROM readings) - 60 + i * 6, 50.93 + i * 0.001, 6.95, '3d' FROM k;
            """)
    }

    @Test(
        "a 600 KB place name (and a 400 KB single grapheme) is stored capped; now, trips and trips --json print bounded lines",
        arguments: [
            "Big" + String(repeating: "x", count: 600_000),
            "e" + String(repeating: "\u{301}", count: 200_000),
        ])
    func hugePlaceNameIsCapped(name: String) throws {
        let home = AcceptanceHome("huge-place")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/reverse": [.file(try Self.reverse(city: name, in: home))],
        ])
        defer { server.stop() }
        let env = Acceptance.env(server)
        let now = try home.run(["now", "--at", Self.cologne, "--json"], env: env)
        #expect(now.status == 0, "stderr: \(now.stderr)")
        #expect(now.stdout.utf8.count < 16_384, "now --json is \(now.stdout.utf8.count) bytes")
        let place = try #require(try Acceptance.object(now).dict("place"))
        let shown = try #require(place.string("name"))
        #expect(shown.utf8.count <= TextCap.placeName && shown.hasSuffix("…"), "\(shown.utf8.count) bytes")
        #expect(shown.unicodeScalars.first == name.unicodeScalars.first)

        let stored = try Self.sqlite(
            home.db, "SELECT max(length(CAST(place_name AS BLOB))), max(length(json)) FROM readings;")
        let parts = stored.split(separator: "|").compactMap { Int($0) }
        #expect(parts.count == 2 && parts[0] <= TextCap.placeName && parts[1] < 16_384, "stored: \(stored)")

        try Self.addTrack(home.db)
        for args in [["trips"], ["trips", "--json"]] {
            let r = try home.run(args, env: env)
            #expect(r.status == 0, "\(args) stderr: \(r.stderr)")
            #expect(r.stdout.contains("…"), "\(args): the trip names the capped place")
            let longest = r.stdout.split(separator: "\n").map(\.utf8.count).max() ?? 0
            #expect(longest < 8_192, "\(args) printed a \(longest)-byte line")
        }
    }

    @Test("a 5 MB place answer is refused by the body cap: a place error, the offline name instead, bounded output")
    func fiveMegabyteNameIsRefused() throws {
        let home = AcceptanceHome("huge-place-5mb")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/reverse": [.file(try Self.reverse(city: String(repeating: "z", count: 5_000_000), in: home))],
        ])
        defer { server.stop() }
        let r = try home.run(["now", "--at", Self.cologne, "--json"], env: Acceptance.env(server), timeout: 30)
        #expect(!r.timedOut)
        #expect(r.stdout.utf8.count < 16_384 && r.stderr.utf8.count < 4_096)
        let obj = try Acceptance.object(r)
        #expect(obj.dict("place")?.string("source") == "offline", "\(obj["place"] ?? "missing")")
        let errors = obj["errors"] as? [[String: Any]] ?? []
        #expect(
            errors.contains {
                $0.string("component") == "place" && ($0.string("message")?.contains("larger than") ?? false)
            }, "\(errors)")
    }

    @Test("an NWS alert with a 600 KB headline and a 700 KB description is listed with both capped")
    func hugeAlertTextIsCapped() throws {
        let home = AcceptanceHome("huge-alert")
        defer { home.remove() }
        let f = ISO8601DateFormatter()
        let feature: [String: Any] = [
            "type": "Feature", "id": "x", "geometry": NSNull(),
            "properties": [
                "id": "huge", "event": "Heat", "headline": String(repeating: "h", count: 600_000), "severity": "Severe",
                "status": "Actual", "messageType": "Alert", "expires": f.string(from: Date().addingTimeInterval(3600)),
                "description": String(repeating: "d ", count: 350_000),
            ] as [String: Any],
        ]
        let path = home.path("nws.json")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": [feature]]).write(
            to: URL(fileURLWithPath: path))
        let server = try FixtureServer.started(routes: ["/alerts/active": [.file(path)]])
        defer { server.stop() }
        let env = Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true", "FIXCAST_ALERTS_NWS_BASE_URL": server.baseURL,
            ])
        let r = try home.run(["alerts", "--at", "33.25,-112.30", "--json"], env: env)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let alert = try #require((try Acceptance.object(r)["active"] as? [[String: Any]])?.first)
        #expect((alert.string("headline")?.utf8.count ?? 0) <= TextCap.alertLine)
        #expect((alert.string("description")?.utf8.count ?? 0) <= TextCap.alertParagraph)
        #expect(alert.string("headline")?.hasSuffix("…") == true)
    }
}
