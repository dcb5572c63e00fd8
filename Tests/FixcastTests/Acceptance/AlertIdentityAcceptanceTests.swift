import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastTestSupport

/// Issue 21.4 through the binary: one alert, one identity, against the loopback server answering
/// NWS GeoJSON made with times around now. (`run`'s wiring of it, across checks and to the `alert`
/// topic, is RunAlertTriggerTests.)
@Suite(.serialized, .scratch) struct AlertIdentityAcceptanceTests {
    static let phoenix = "33.25,-112.30"
    static let geo = ["Content-Type": "application/geo+json"]

    static func iso(_ minutesFromNow: Double) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date().addingTimeInterval(minutesFromNow * 60))
    }

    /// One NWS feature: `id`, its type (and `event`), when it was sent (minutes from now), and the ids it references.
    static func feature(
        _ id: String, _ type: String, sent: Double, headline: String, references: [(String, Double)] = [],
        event: String = "Excessive Heat Warning"
    ) -> String {
        let refs = references.map { #"{"identifier":"\#($0.0)","sender":"w-nws","sent":"\#(iso($0.1))"}"# }
        return #"""
            {"id":"https://nws.test/\#(id)","type":"Feature","geometry":null,"properties":{"@id":"https://nws.test/\#(id)","id":"\#(id)","areaDesc":"Maricopa","sent":"\#(iso(sent))","effective":"\#(iso(sent))","onset":"\#(iso(-30))","expires":"\#(iso(240))","ends":"\#(iso(300))","status":"Actual","messageType":"\#(type)","severity":"Severe","certainty":"Likely","urgency":"Expected","event":"\#(event)","headline":"\#(headline)","description":"Hot.","instruction":null,"references":[\#(refs.joined(separator: ","))]}}
            """#
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    static let first = feature("urn:a", "Alert", sent: -20, headline: "Heat warning issued")
    static let update = feature(
        "urn:b", "Update", sent: -10, headline: "Heat warning extended", references: [("urn:a", -20)])
    static let cancel = feature(
        "urn:c", "Cancel", sent: -5, headline: "Heat warning cancelled",
        references: [("urn:a", -20), ("urn:b", -10)])

    static func env(_ server: FixtureServer, _ extra: [String: String] = [:]) -> [String: String] {
        var e = Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true",
                "FIXCAST_ALERTS_NWS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_METALERTS_BASE_URL": server.baseURL,
                "FIXCAST_PLACES_PROVIDER": "offline",
            ])
        e.merge(extra) { _, new in new }
        return e
    }

    @Test("alerts lists an alert and its update, listed update first, as one row with the update's text")
    func oneRowPerIdentity() throws {
        let home = AcceptanceHome("alerts-identity")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [.body(Self.collection([Self.update, Self.first]), headers: Self.geo)]
        ])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let active = try Acceptance.object(r)["active"] as? [[String: Any]] ?? []
        #expect(active.count == 1)
        #expect(active.first?["id"] as? String == "urn:a", "the alert keeps its first id")
        #expect(active.first?["headline"] as? String == "Heat warning extended")
        #expect(active.first?["url"] as? String == "https://nws.test/urn:b")
    }

    /// The stored answer is the cancel's, whichever message of the chain is listed first: nothing active.
    @Test func aCancelNamingTheAlertAndItsUpdateEndsIt() throws {
        let home = AcceptanceHome("alerts-cancel")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [.body(Self.collection([Self.update, Self.cancel, Self.first]), headers: Self.geo)]
        ])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect((try Acceptance.object(r)["active"] as? [Any])?.isEmpty == true)
        #expect(server.requestCount(path: "/alerts/active") == 1)
    }
}
