import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Through a real gpsd: a 1 Hz receiver's SKY reports (GSA and GSV, as the bundled Garmin capture
/// sends them) are parsed once per `SkyThinning` interval and dropped unparsed between, the satellite
/// count still reaches the fixes, and the device is reported once.
@Suite("SKY reports are thinned before libgps parses them", .serialized, .scratch)
struct GPSDConnectionSkyTests {
    /// GGA and RMC for the epoch, then the Garmin capture's GSA and three GSV sentences (10 used, 12
    /// in view: shared/tracks/reno_tahoe_garmin.nmea's first epoch).
    static func epochWithSky(_ epoch: NMEAWriter.Epoch) -> [[UInt8]] {
        let sky = [
            "GPGSA,A,3,04,07,08,09,11,24,26,27,28,29,,,1.5,0.8,1.3",
            "GPGSV,3,1,12,04,16,162,46,07,84,207,48,08,34,135,45,09,17,315,38",
            "GPGSV,3,2,12,11,16,048,39,24,32,117,46,26,38,257,49,27,06,139,46",
            "GPGSV,3,3,12,28,52,059,42,29,34,242,50,35,10,105,41,47,13,252,00",
        ].map { Array((NMEAWriter.sentence($0) + "\r\n").utf8) }
        return NMEAWriter.log([epoch]) + sky
    }

    @Test func oneSkyInFiveIsParsedAtOneHertzAndTheCountReachesTheFixes() async throws {
        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        guard let connection = rig.openConnection() else { return }
        defer { connection.close() }
        var events: [GPSEvent] = []
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded(.down))
        try await rig.warmUp(
            connection, before: start, lat: 39.433, lon: -119.7656, into: &events, at: MonotonicInstant(seconds: 999))
        let seconds = 12
        for i in 0..<seconds {
            let epoch = NMEAWriter.Epoch(
                lat: 39.4328 - Double(i) * 0.0004, lon: -119.7656, time: start.addingTimeInterval(Double(i)))
            for chunk in Self.epochWithSky(epoch) { rig.gpsd.write(chunk) }
            #expect(await rig.recorder.wait { $0.fix?.time == epoch.time } != nil, "gpsd reported epoch \(i)")
            try await Task.sleep(for: .milliseconds(100))  // the same reports reach this connection
            // The receiver's second i in virtual monotonic time.
            let now = MonotonicInstant(seconds: 1_000 + Double(i))
            while connection.hasWaitingReport { #expect(connection.readAvailable(into: &events, at: now)) }
        }
        let sky = connection.skyReports
        // gpsd sends a SKY for each epoch's GSV cycle (a second per epoch here): parsed at 0, 5 and 10 s.
        #expect(sky.parsed == 3, "parsed \(sky.parsed), dropped \(sky.skipped)")
        #expect(sky.skipped >= seconds - 3 - 1, "the rest were dropped unparsed: \(sky.skipped)")
        #expect(events.contains(.satellites(used: 10, visible: 12)), "the parsed SKY gave gpsd's counts")
        let fixes = events.compactMap(\.fix)
        #expect(fixes.count >= seconds - 1)
        #expect(fixes.suffix(5).allSatisfy { $0.satellitesUsed == 10 }, "the count rides on every later fix")
        let devices = events.filter { if case .device = $0 { true } else { false } }
        #expect(devices.count == 1, "the device is reported when it is first named, not with every TPV")
    }
}
