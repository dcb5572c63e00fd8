import FixcastCore
import Testing

@testable import FixcastApp

/// The alerts the loop looks up when the reducer says which are news: the last two checks' only.
@Suite struct LatestAlertsTests {
    static func alerts(_ ids: [String]) -> [Alert] { ids.map { Alert(id: $0, event: "Wind", severity: .severe) } }

    @Test func theLastTwoChecksAreFoundAndOlderOnesAreLetGo() {
        let latest = LatestAlerts()
        latest.keep(Self.alerts(["a", "b"]))
        latest.keep(Self.alerts(["b", "c"]))
        #expect(latest.find(["a", "c", "x"]).map(\.id) == ["a", "c"])
        latest.keep(Self.alerts(["d"]))
        #expect(latest.find(["a", "b", "c", "d"]).map(\.id) == ["b", "c", "d"])
        #expect(latest.count == 3)
    }

    /// A run of months checks thousands of times: what is held stays the last two checks' alerts.
    @Test func aLongRunHoldsNoMoreThanTwoChecks() {
        let latest = LatestAlerts()
        for check in 0..<1_000 { latest.keep(Self.alerts((0..<5).map { "c\(check)-\($0)" })) }
        #expect(latest.count == 10)
        #expect(latest.find(["c999-0", "c998-4", "c997-0"]).map(\.id) == ["c999-0", "c998-4"])
    }

    @Test func theSameIDTwiceInOneCheckKeepsTheFirst() {
        let latest = LatestAlerts()
        latest.keep([
            Alert(id: "a", event: "Wind", severity: .severe), Alert(id: "a", event: "Rain", severity: .minor),
        ])
        #expect(latest.find(["a"]).map(\.event) == ["Wind"])
    }
}
