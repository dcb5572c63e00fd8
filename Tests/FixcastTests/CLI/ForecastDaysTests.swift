import Foundation
import Testing

@testable import FixcastTestSupport

/// `forecast --days N` takes 1-16, while a provider's forecast (Open-Meteo's as fixcast asks for it:
/// 7 days) may have fewer. The table was cut without a word; now stderr says how many there are.
@Suite(.serialized, .scratch) struct ForecastDaysTests {
    @Test("--days 10 against a 7-day forecast: 7 rows, exit 0, and stderr says 7 of 10")
    func fewerDaysThanAskedAreSaid() throws {
        let home = AcceptanceHome("forecast-days")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let r = try home.run(
            ["forecast", "--at", "55.68,12.57", "--days", "10", "--json"], env: Acceptance.env(server))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Acceptance.array(r).count == 7)
        #expect(
            r.stderr.contains("forecast: open-meteo's forecast has 7 days from today; showing those of the 10 asked."),
            "\(r.stderr)")
        let asked = try home.run(["forecast", "--at", "55.68,12.57", "--days", "7"], env: Acceptance.env(server))
        #expect(asked.status == 0)
        #expect(!asked.stderr.contains("asked"), "\(asked.stderr)")
    }
}
