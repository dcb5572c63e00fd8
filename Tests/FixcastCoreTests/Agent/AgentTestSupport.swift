import FixcastCore
import FoundationEssentials

/// Builders for the reducer's tests: fixes, readings and a reducer at `PolicyFixture.t0`.
enum AgentFixture {
    typealias F = PolicyFixture

    static let gpsd = "127.0.0.1:2947"

    /// A 3D fix received (and timed) at `t` seconds after t0.
    static func fix(_ c: Coordinate, at t: Double, sats: Int = 8) -> Fix {
        Fix(time: F.at(t), receivedAt: F.at(t), coordinate: c, mode: .threeD, satellitesUsed: sats)
    }

    static func position(_ fix: Fix) -> Position { Position(fix: fix) }

    /// A finished reading whose weather was asked for at `position`.
    static func reading(
        _ trigger: Trigger, at position: Position, time t: Double, errors: [ReadingIssue] = [], weather: Bool = true
    ) -> Reading {
        let report = WeatherReport(
            provider: .openMeteo, fetchedAt: F.at(t), coordinate: position.coordinate,
            current: CurrentConditions(temperatureC: 3))
        return Reading(
            time: F.at(t), trigger: trigger, position: position, weather: weather ? report : nil, errors: errors)
    }

    static func reducer(
        _ configuration: AgentReducer.Configuration = .init(), lastKnown: Position? = nil, fixed: Position? = nil
    ) -> AgentReducer {
        AgentReducer(configuration: configuration, startedAt: F.at(0), lastKnown: lastKnown, fixedPosition: fixed)
    }

    /// The reading requests among `effects`.
    static func requests(_ effects: [AgentEffect]) -> [ReadingRequest] {
        effects.compactMap { if case .takeReading(let r) = $0 { return r } else { return nil } }
    }

    /// `position` as a reading at the last known position carries it.
    static func lastKnown(_ position: Position) -> Position {
        var p = position
        p.source = .lastKnown
        return p
    }
}
