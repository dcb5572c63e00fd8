import FixcastCore
import FixcastRendering
import Foundation
import Testing

@Suite struct ViridisScaleTests {
    @Test func lightnessRisesMonotonicallyAcrossTheScale() {
        // At 64 steps (finer than the report's 48): below that, adjacent colours differ by less
        // than one 8-bit channel step and rounding alone can wobble L* by ±0.05.
        var previous = -1.0
        for i in 0...64 {
            let l = ViridisScale.color(at: Double(i) / 64).lightness
            #expect(l > previous, "lightness falls at \(i)/64")
            previous = l
        }
        #expect(ViridisScale.anchors.first!.lightness < 20)
        #expect(ViridisScale.anchors.last!.lightness > 85)
    }

    @Test func theEndsAreTheLegendsEnds() {
        let scale = TemperatureColorScale(temperaturesC: [12.5, 3.0, 19.0, .nan])
        #expect(scale.lowC == 3.0)
        #expect(scale.highC == 19.0)
        #expect(scale.color(3.0) == ViridisScale.anchors.first)
        #expect(scale.color(19.0) == ViridisScale.anchors.last)
        // Outside the range: clamped to the ends, never a colour off the legend.
        #expect(scale.color(-40) == ViridisScale.anchors.first)
        #expect(scale.color(60) == ViridisScale.anchors.last)
        #expect(ViridisScale.color(at: .nan) == ViridisScale.anchors.first)
        #expect(RGB(0x44, 0x01, 0x54).hex == "#440154")
    }

    @Test func aSingleTemperatureGetsTheMiddle() {
        let scale = TemperatureColorScale(temperaturesC: [7, 7])
        #expect(scale.highC - scale.lowC == 1)
        #expect(abs(scale.fraction(7) - 0.5) < 1e-12)
    }
}

@Suite struct TemperatureTimelineTests {
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    @Test func interpolatesLinearlyAndHoldsTheEnds() throws {
        let line = TemperatureTimeline([
            .init(time: t0.addingTimeInterval(600), value: 20), .init(time: t0, value: 10),
            .init(time: t0.addingTimeInterval(900), value: .nan),
        ])
        #expect(line.samples.count == 2)
        #expect(try #require(line.value(at: t0.addingTimeInterval(150))) == 12.5)
        #expect(line.value(at: t0.addingTimeInterval(-50)) == 10)
        #expect(line.value(at: t0.addingTimeInterval(5000)) == 20)
        #expect(TemperatureTimeline([]).value(at: t0) == nil)
    }
}

/// A trip's JSON line and the length of its track (`TripSplitter` itself: FixcastCoreTests/Report).
@Suite struct TripSummaryTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func summaryJSONHasTheContractKeys() {
        let s = TripSummary(
            number: 2, start: t0, end: t0.addingTimeInterval(3725), distanceKm: 12.3456, startPlace: "A", endPlace: nil,
            readings: 3, minC: 1.5, maxC: nil)
        let keys = s.json().objectValue?.map(\.0)
        #expect(
            keys == [
                "trip", "start", "end", "distance_km", "duration_s", "start_place", "end_place", "readings", "min_c",
                "max_c", "ahead_checks",
            ])
        #expect(s.json()["ahead_checks"]?["pairs"]?.intValue == 0)
        #expect(s.json()["distance_km"]?.doubleValue == 12.35)
        #expect(s.json()["duration_s"]?.intValue == 3725)
        #expect(s.json()["end_place"]?.isNull == true)
        #expect(DurationText.text(seconds: 3725) == "1 h 02 min")
        #expect(DurationText.text(seconds: 840) == "14 min")
    }

    @Test func distanceAlongATrack() {
        let track = [Coordinate(lat: 0, lon: 0)!, Coordinate(lat: 0, lon: 1)!, Coordinate(lat: 1, lon: 1)!]
        let cum = TrackDistance.cumulativeKm(track)
        #expect(cum.count == 3 && cum[0] == 0)
        #expect(abs(cum[1] - 111.195) < 0.01)
        #expect(abs(cum[2] - 2 * 111.195) < 0.05)
        #expect((TrackDistance.cumulativeKm([]).last ?? 0) == 0)
    }
}
