import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// A kept frame with its position line redrawn must be exactly the frame a whole render gives, whatever
/// happens between two fixes: minutes turning, the weather ageing, an alert expiring, the fix lost, a
/// new reading, a resize.
@Suite struct LiveScreenFramesTests {
    static let start = DisplayFixture.fetched

    static func position(_ i: Int, at time: Date) -> Position {
        Position(
            coordinate: Coordinate(lat: 52.52 + Double(i) * 3e-4, lon: 13.41 - Double(i) * 2e-4)!, mode: .threeD,
            obtainedAt: time, source: .gps, satellitesUsed: 7 + i % 4)
    }

    static func alerts(expiring: Date) -> AlertReport {
        AlertReport(
            source: .nws, covered: true, fetchedAt: start, stale: false,
            active: [
                Alert(
                    id: "a1", event: "Wind Advisory", headline: "Wind Advisory until noon", severity: .moderate,
                    certainty: "Likely", urgency: "Expected", onset: start, expires: expiring, ends: expiring,
                    area: "Somewhere", description: "Gusts", instruction: "Hold on", url: nil)
            ])
    }

    @Test func aKeptFrameIsTheFrameAWholeRenderGives() {
        var frames = LiveScreenFrames()
        var reading = DisplayFixture.reading()
        reading.alerts = Self.alerts(expiring: Self.start.addingTimeInterval(95))
        var status = AgentStatus(reading: reading)
        var width = 100
        var height = 24
        var kept = 0
        for second in 0..<400 {
            let now = Self.start.addingTimeInterval(Double(second) + 0.3)
            status.position = Self.position(second, at: now)
            if second == 150 { status.fixLostSince = now }  // the fix lost: the position line says since when
            if second == 180 { status.fixLostSince = nil }
            if second == 200 { status.updating = true }
            if second == 210 {
                status.updating = false
                status.reading = DisplayFixture.reading(weather: DisplayFixture.weather(cached: true))
            }
            if second == 300 {
                width = 80
                height = 12
            }
            if second == 350 { height = 3 }  // too short to show the position line
            let frame = frames.frame(
                status, demo: false, now: now, width: width, height: height, options: DisplayOptions())
            let whole = LiveScreen.render(
                LiveScreen.State(
                    reading: status.reading, position: status.position, fixLostSince: status.fixLostSince,
                    problems: status.problems, updating: status.updating),
                now: now, width: width, height: height)
            #expect(frame == whole, "second \(second)")
            kept += 1
        }
        // Whole only at a wall-clock minute (7), a minute of the weather's age (7, fetched 22 s past a
        // minute), the alert's expiry, the fix lost and back, the reading under way and in, the resizes.
        #expect(frames.wholeRenders <= 24, "\(frames.wholeRenders) of \(kept) frames rendered whole")
    }

    @Test func aClockSetBackRendersWhole() {
        var frames = LiveScreenFrames()
        var status = AgentStatus(reading: DisplayFixture.reading())
        for (i, offset) in [30.0, 31, -3_600, -3_599].enumerated() {
            let now = Self.start.addingTimeInterval(offset)
            status.position = Self.position(i, at: now)
            let frame = frames.frame(status, demo: false, now: now, width: 100, height: 24, options: DisplayOptions())
            let state = LiveScreen.State(reading: status.reading, position: status.position)
            #expect(frame == LiveScreen.render(state, now: now, width: 100, height: 24), "offset \(offset)")
        }
        #expect(frames.wholeRenders == 2)  // the first frame, and the first after the clock went back
    }

    @Test func theNextChangeIsTheFirstOfTheMinutesAndTheExpiries() {
        let fetched = Self.start  // 22 s past a wall-clock minute
        var reading = DisplayFixture.reading()
        let now = fetched.addingTimeInterval(10)
        #expect(LiveScreenFrames.nextChange(after: now, reading: nil) == fetched.addingTimeInterval(38))
        let late = fetched.addingTimeInterval(45)
        #expect(LiveScreenFrames.nextChange(after: late, reading: reading) == fetched.addingTimeInterval(60))
        reading.alerts = Self.alerts(expiring: fetched.addingTimeInterval(20))
        #expect(LiveScreenFrames.nextChange(after: now, reading: reading) == fetched.addingTimeInterval(20))
        #expect(LiveScreenFrames.nextChange(after: late, reading: reading) == fetched.addingTimeInterval(60))
    }

    @Test func theFramesPositionRowIsThePositionLine() {
        let state = LiveScreen.State(reading: DisplayFixture.reading(), position: Self.position(1, at: Self.start))
        let frame = LiveScreen.frame(state, now: Self.start, width: 100, height: 24)
        let row = frame.positionRow
        #expect(row.map { frame.lines[$0].contains("GPS 3D fix") } == true)
        #expect(LiveScreen.frame(state, now: Self.start, width: 100, height: 3).positionRow == nil)
    }
}
