import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Issue 4's acceptance through the binary: Nominatim and Open-Meteo geocoding replayed on a loopback
/// server, and the bundled offline table.
@Suite(.serialized, .scratch) struct PlacesAcceptanceTests {
    /// The first data row of a human `search` table (the line after the header).
    static func firstRow(_ r: CLIResult) -> String? {
        let lines = r.stdout.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("NAME") }), header + 1 < lines.count else {
            return nil
        }
        return lines[header + 1]
    }

    @Test(
        "against the recorded Cologne response, now --at 50.9373,6.9592 --json names Cologne, North Rhine-Westphalia, Germany, DE"
    )
    func nominatimNamesCologne() throws {
        let home = AcceptanceHome("places-cologne")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let r = try home.run(["now", "--at", "50.9373,6.9592", "--json"], env: Acceptance.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let place = try #require(try Acceptance.object(r).dict("place"))
        // What the recorded response says, read from it here.
        let address = try #require(try Acceptance.fileObject(Acceptance.cologneFixture).dict("address"))
        #expect(place.string("name") == address.string("city"))
        #expect(place.string("region") == address.string("state"))
        #expect(place.string("country") == address.string("country"))
        #expect(place.string("country_code") == address.string("country_code")?.uppercased())
        #expect(place.string("name") == "Cologne")
        #expect(place.string("region") == "North Rhine-Westphalia")
        #expect(place.string("country") == "Germany")
        #expect(place.string("country_code") == "DE")
        #expect(place.string("source") == "nominatim")
        let asked = server.queries(path: "/reverse")
        #expect(asked.count == 1)
        #expect(asked.first?["lat"] == "50.9373")
        #expect(asked.first?["lon"] == "6.9592")
        #expect(asked.first?["format"] == "jsonv2")
        #expect(server.requests().first { $0.path == "/reverse" }?.headers["user-agent"]?.hasPrefix("fixcast/") == true)
    }

    @Test("ten readings in a row 100 m apart cause one Nominatim request")
    func tenReadingsHundredMetresApartAskOnce() throws {
        let home = AcceptanceHome("places-ten")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let start = Coordinate(lat: 50.9373, lon: 6.9592)!
        for i in 0..<10 {
            let c = start.movedEast(metres: Double(i) * 100)
            let r = try home.run(["now", "--at", "\(c.lat),\(c.lon)", "--json"], env: Acceptance.env(server))
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try Acceptance.object(r).dict("place")?.string("name") == "Cologne")
        }
        #expect(server.requestCount(path: "/reverse") == 1)
    }

    @Test("fixcast run on a replayed drive: each reading more than 5 km on asks Nominatim, never twice within 1 s")
    func nominatimRequestsOfOneProcessAreASecondApart() async throws {
        let drive = try await ReplayedDrive.shared.get()
        let printed = drive.printedLines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(printed.count == drive.printedLines.count, "every line is a JSON reading")
        let named = printed.filter { $0.dict("place")?.string("source") == "nominatim" }
        #expect(named.count == printed.count, "every reading of the run is named by Nominatim")
        let times = drive.reverseRequestTimes
        // The readings are more than 5 km apart, so beyond the 1 km place cache: one request each.
        #expect(times.count == printed.count, "\(times.count) requests for \(printed.count) readings")
        #expect(times.count >= 3, "enough requests to see the spacing: \(times.count)")
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(b - a >= 1.0, "Nominatim requests \(b - a) s apart")
        }
    }

    @Test("now --at 52.52,13.405 --offline --json names Berlin and makes no network request")
    func offlineNamesBerlinWithoutANetworkRequest() throws {
        let home = AcceptanceHome("places-offline")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let env = Acceptance.env(server)

        // Nothing stored: Berlin from the bundled table, no weather (exit 1), and not a single request.
        let r = try home.run(["now", "--at", "52.52,13.405", "--offline", "--json"], env: env)
        #expect(r.status == 1, "no weather stored yet; stderr: \(r.stderr)")
        let reading = try Acceptance.object(r)
        let place = try #require(reading.dict("place"))
        #expect(place.string("name") == "Berlin")
        #expect(place.string("country_code") == "DE")
        #expect(place.string("source") == "offline")
        #expect(reading.isNull("weather"))
        #expect(server.requestCount() == 0, "\(server.requests().map(\.path))")

        // With weather stored by an online run, --offline serves it, still without a request.
        let online = try home.run(
            ["now", "--at", "52.52,13.405", "--json"],
            env: Acceptance.env(server, ["FIXCAST_PLACES_PROVIDER": "offline"]))
        #expect(online.status == 0, "stderr: \(online.stderr)")
        let before = server.requestCount()
        let again = try home.run(["now", "--at", "52.52,13.405", "--offline", "--json"], env: env)
        #expect(again.status == 0, "stderr: \(again.stderr)")
        let second = try Acceptance.object(again)
        #expect(second.dict("place")?.string("name") == "Berlin")
        #expect(second.dict("weather")?.bool("cached") == true)
        #expect(server.requestCount() == before)
    }

    @Test("search \"new york\" --offline lists New York City first, in the table and in --json")
    func offlineSearchListsNewYorkCityFirst() throws {
        let home = AcceptanceHome("places-search-offline")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let env = Acceptance.env(server)

        let table = try home.run(["search", "new york", "--offline"], env: env)
        #expect(table.status == 0, "stderr: \(table.stderr)")
        let row = try #require(Self.firstRow(table), "\(table.stdout)")
        #expect(row.hasPrefix("New York City "), "\(row)")

        let json = try home.run(["search", "new york", "--offline", "--json"], env: env)
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let results = try Acceptance.array(json)
        let first = try #require(results.first)
        #expect(first.string("name") == "New York City")
        #expect(first.string("country_code") == "US")
        #expect(first.string("source") == "offline")
        #expect(abs((first.double("lat") ?? 0) - 40.71) < 0.05)
        #expect(abs((first.double("lon") ?? 0) + 74.01) < 0.05)
        #expect(results.allSatisfy { $0.string("source") == "offline" })
        #expect(server.requestCount() == 0)
    }

    @Test("search --offline in Cyrillic finds the place romanized and says how it read the name")
    func offlineSearchInCyrillic() throws {
        let home = AcceptanceHome("places-search-cyrillic")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let env = Acceptance.env(server)
        let table = try home.run(["search", "Новосибирск", "--offline"], env: env)
        #expect(table.status == 0, "stderr: \(table.stderr)")
        let row = try #require(Self.firstRow(table), "\(table.stdout)")
        #expect(row.hasPrefix("Novosibirsk "), "\(row)")
        #expect(table.stdout.contains("spells names in Latin letters: this is what it has for \"novosibirsk\""))
        // With no online search configured the table answers too, and says so the same way.
        var tableOnly = env
        tableOnly["FIXCAST_PLACES_PROVIDER"] = "offline"
        let configured = try home.run(["search", "Новосибирск"], env: tableOnly)
        #expect(configured.status == 0, "stderr: \(configured.stderr)")
        #expect(try #require(Self.firstRow(configured)).hasPrefix("Novosibirsk "))
        #expect(configured.stdout.contains("spells names in Latin letters"))
        let json = try home.run(["search", "Новосибирск", "--offline", "--json"], env: env)
        #expect(try Acceptance.array(json).first?.string("country_code") == "RU")
        // A script the table cannot read: no match, and a hint instead of a bare "no place".
        let chinese = try home.run(["search", "北京", "--offline"], env: env)
        #expect(chinese.status == 0)
        #expect(chinese.stdout.contains("No place matches"))
        #expect(chinese.stdout.contains("try the name in Latin letters"))
        // --place picks one place unseen: not by a romanized guess.
        let place = try home.run(["now", "--place", "Новосибирск", "--offline", "--json"], env: env)
        #expect(place.status != 0)
        #expect(server.requestCount() == 0)
    }

    @Test("search online through the recorded Open-Meteo geocoding response: best match first, all fields")
    func onlineSearchListsTheRecordedResults() throws {
        let home = AcceptanceHome("places-search-online")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let env = Acceptance.env(server)
        let recorded = try #require(
            try Acceptance.fileObject(Acceptance.geocodingFixture)["results"] as? [[String: Any]])

        let json = try home.run(["search", "Enschede", "--json"], env: env)
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let results = try Acceptance.array(json)
        #expect(results.count == recorded.count)
        for (got, want) in zip(results, recorded) {
            #expect(got.string("name") == want.string("name"))
            #expect(got.string("region") == want.string("admin1"))
            #expect(got.string("country") == want.string("country"))
            #expect(got.string("country_code") == want.string("country_code"))
            #expect(got.double("lat") == want.double("latitude"))
            #expect(got.double("lon") == want.double("longitude"))
            if let population = want.int("population") {
                #expect(got.int("population") == population)
            } else {
                #expect(got.isNull("population"))
            }
            #expect(got.string("source") == "open-meteo")
        }
        let asked = server.queries(path: "/v1/search")
        #expect(asked.first?["name"] == "Enschede")

        let table = try home.run(["search", "Enschede"], env: env)
        #expect(table.status == 0, "stderr: \(table.stderr)")
        #expect(Self.firstRow(table)?.hasPrefix("Enschede ") == true, "\(table.stdout)")
        #expect(table.stdout.contains("Overijssel"))
        #expect(server.requestCount(path: "/v1/search") == 2)
    }

    @Test("now --place NAME uses the best match: position source manual, place source search")
    func placeOptionUsesTheBestMatch() throws {
        let home = AcceptanceHome("places-place")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let best = try #require(
            (try Acceptance.fileObject(Acceptance.geocodingFixture)["results"] as? [[String: Any]])?.first)

        let r = try home.run(["now", "--place", "Enschede", "--json"], env: Acceptance.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let reading = try Acceptance.object(r)
        let position = try #require(reading.dict("position"))
        #expect(position.string("source") == "manual")
        #expect(position.double("lat") == best.double("latitude"))
        #expect(position.double("lon") == best.double("longitude"))
        let place = try #require(reading.dict("place"))
        #expect(place.string("name") == best.string("name"))
        #expect(place.string("region") == best.string("admin1"))
        #expect(place.string("country") == best.string("country"))
        #expect(place.string("source") == "search")
        #expect(server.queries(path: "/v1/search").first?["name"] == "Enschede")
        // The weather is for the place found (the request gives coordinates to 4 decimals, ~11 m).
        let forecast = server.queries(path: "/v1/forecast")
        #expect(forecast.count == 1)
        let askedLat = try #require(forecast.first?["latitude"].flatMap(Double.init))
        let askedLon = try #require(forecast.first?["longitude"].flatMap(Double.init))
        #expect(abs(askedLat - (best.double("latitude") ?? 0)) < 1e-4)
        #expect(abs(askedLon - (best.double("longitude") ?? 0)) < 1e-4)
    }

    @Test("an unknown --place exits 1 with \"no place named …\"", arguments: [false, true])
    func unknownPlaceExits1(offline: Bool) throws {
        let home = AcceptanceHome("places-unknown")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: ["/v1/search": [.file(Acceptance.geocodingEmptyFixture)]])
        defer { server.stop() }
        let name = "Xyzzy Nowhereville"
        let r = try home.run(
            ["now", "--place", name, "--json"] + (offline ? ["--offline"] : []), env: Acceptance.env(server))
        #expect(r.status == 1)
        let lines = Acceptance.stderrLines(r)
        #expect(lines.count == 1, "one sentence: \(r.stderr)")
        #expect(lines.first?.contains("no place named") == true, "\(r.stderr)")
        #expect(lines.first?.contains(name) == true, "\(r.stderr)")
        #expect(server.requestCount() == (offline ? 0 : 1))
    }
}
