import FixcastCore
import Foundation
import Testing

@testable import FixcastApp
@testable import FixcastTestSupport

/// The one join-in-flight helper of the weather, alert and place services (issue 19 item 7).
@Suite struct RequestsInFlightTests {
    static let berlin = Coordinate(lat: 52.52, lon: 13.405)!
    static let nearBerlin = Coordinate(lat: 52.521, lon: 13.405)!  // ~110 m
    static let potsdam = Coordinate(lat: 52.39, lon: 13.06)!  // ~27 km

    @Test func aQuestionNearARequestInFlightFindsItAndOneFarAwayDoesNot() async {
        var flights = RequestsInFlight<String, Int>()
        #expect(flights.isEmpty && flights.newest == nil)
        let a = flights.start(tag: "nws", at: Self.berlin) { _ in 7 }
        #expect(flights.near(Self.nearBerlin, withinKm: 1)?.id == a.id)
        #expect(flights.near(Self.potsdam, withinKm: 1) == nil)
        #expect(flights.near(Self.potsdam, withinKm: 50)?.id == a.id)
        #expect(await a.task.value == 7)
    }

    @Test func theTagDecidesWhoMayJoinAndTheNewestIsFoundFirst() async {
        var flights = RequestsInFlight<String, Int>()
        let nws = flights.start(tag: "nws", at: Self.berlin) { _ in 1 }
        let met = flights.start(tag: "metalerts", at: Self.berlin) { _ in 2 }
        #expect(flights.near(Self.berlin, withinKm: 5, where: { $0 == "nws" })?.id == nws.id)
        #expect(flights.near(Self.berlin, withinKm: 5)?.id == met.id)
        #expect(flights.newest?.id == met.id)
        #expect(flights.near(Self.berlin, withinKm: 5, where: { $0 == "eccc" }) == nil)
        _ = await (nws.task.value, met.task.value)
    }

    @Test func finishingARequestStopsJoinsAndTheOperationGetsItsOwnID() async {
        var flights = RequestsInFlight<Void, Int>()
        let first = flights.start(tag: (), at: Self.berlin) { id in id * 10 }
        let second = flights.start(tag: (), at: Self.potsdam) { id in id * 10 }
        #expect(first.id != second.id)
        #expect(await first.task.value == first.id * 10)
        flights.finish(first.id)
        #expect(flights.near(Self.berlin, withinKm: 1) == nil)
        #expect(flights.newest?.id == second.id)
        flights.finish(second.id)
        #expect(flights.isEmpty)
        _ = await second.task.value
    }
}
