import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// fixcast's own handling of gpsd's reports (libgps parses the JSON; what fixcast does with the numbers
/// is its own): TPV reports through `TPVFilter` (validity, duplicates, plausibility), the fixes it
/// delivers stamped by `BatchArrival`, and fed to what follows a fix (the trajectory ahead, the samples).
extension FuzzTargets {
    /// Doubles libgps can hand over from a hostile or broken receiver.
    static let gpsDoubles: [Double] = [
        .nan, .infinity, -.infinity, 0, -0.0, 1e-300, -1e-300, 1e308, -1e308, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, 90, -90, 180, -180, 90.0000001, 180.0000001, 360, 1e6, -1, 0.5, 1e-7, 600, 601, 1e4,
    ]

    /// Seconds since 1970 a receiver can claim (`time_t`): rollovers, the epoch, far past and future.
    static let gpsSeconds: [Int64] = [
        0, -1, 1, 1_769_774_400, 1_769_774_400 - 619_315_200, 1_769_774_400 + 86_401, 2_147_483_647, 2_147_483_648,
        4_102_444_800, 7_258_118_400, 253_402_300_800, Int64.max, Int64.min, Int64.max / 1000,
    ]

    /// Reads reports out of bytes: each field takes a selector byte (a plausible value near the last, a
    /// value from the pools above, or raw bits from the bytes after it).
    struct ReportReader {
        let bytes: [UInt8]
        var i = 0
        var last = (lat: 39.5, lon: -119.8, seconds: Int64(1_769_774_400))

        mutating func byte() -> UInt8 {
            defer { i += 1 }
            return i < bytes.count ? bytes[i] : 0
        }

        mutating func raw() -> UInt64 {
            (0..<8).reduce(0) { v, k in v | UInt64(byte()) << (8 * UInt64(k)) }
        }

        mutating func double(near base: Double, step: Double) -> Double {
            let s = byte()
            switch s {
            case 0..<128: return base + (Double(s) - 64) * step
            case 128..<224: return gpsDoubles[Int(s - 128) % gpsDoubles.count]
            default: return Double(bitPattern: raw())
            }
        }

        mutating func report() -> (TPVReport, readGapS: Double) {
            let modeSelector = byte()
            let mode = [0, 1, 2, 3, 3, 3, 2, Int(Int8(bitPattern: modeSelector))][Int(modeSelector % 8)]
            let timeSelector = byte()
            var time: Date?
            switch timeSelector {
            case 0..<32: time = nil
            case 32..<192:
                last.seconds = last.seconds &+ Int64(timeSelector % 4)
                time = Date(timeIntervalSince1970: Double(last.seconds))
            default:
                // As `GPSDConnection.tpv(from:)` builds it: seconds and nanoseconds, either hostile.
                let seconds = gpsSeconds[Int(timeSelector) % gpsSeconds.count]
                let nanoseconds = Int64(bitPattern: raw())
                time = Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
            }
            let lat = double(near: last.lat, step: 1e-4)
            let lon = double(near: last.lon, step: 1e-4)
            if lat.isFinite, abs(lat) <= 90 { last.lat = lat }
            if lon.isFinite, abs(lon) <= 180 { last.lon = lon }
            let report = TPVReport(
                mode: mode, time: time, lat: lat, lon: lon, altitudeM: double(near: 1400, step: 1),
                speedMps: double(near: 20, step: 0.5), trackDeg: double(near: 180, step: 3),
                horizontalErrorM: double(near: 5, step: 0.1), verticalErrorM: double(near: 8, step: 0.1),
                satellitesUsed: byte() < 32 ? nil : Int(Int8(bitPattern: byte())))
            return (report, Double(byte() % 16) / 4)
        }
    }

    static let gpsd = FuzzTarget(
        name: "gpsd", about: "TPV reports through TPVFilter and BatchArrival, the fixes into the trajectory ahead",
        seedNames: []
    ) { _, _ in
        let seeds = (0..<8).map { n -> [UInt8] in
            var g = FuzzRandom(seed: 0x6905D + UInt64(n))
            return (0..<(n == 0 ? 64 : 2000)).map { _ in UInt8(g.below(n < 4 ? 128 : 256)) }
        }
        let route = (try? GPXRouteReader.read(Array(gpxSeeds[0]))).flatMap(RouteGeometry.init)
        return FuzzCampaign(seeds: seeds, mutator: { g in ByteMutator.mutate(g.pick(seeds), &g) }) { bytes in
            var check = FuzzCheck()
            var reader = ReportReader(bytes: bytes)
            var filter = TPVFilter()
            var trajectory = AheadTrajectory(route: route, routeID: "fuzz", offRouteM: 500)
            var clock = UTCTime.parse("2026-01-30T12:00:00Z") ?? Date(timeIntervalSince1970: 0)
            var previousRead: Date?
            var delivered = 0
            var track: [TrackSample] = []
            while reader.i < bytes.count, delivered < 4000 {
                // One read of up to 8 reports, stamped as `GPSDConnection` stamps a read.
                var reports: [TPVReport] = []
                for _ in 0..<(1 + Int(reader.byte() % 8)) where reader.i < bytes.count {
                    let (report, gap) = reader.report()
                    reports.append(report)
                    clock = clock.addingTimeInterval(gap)
                }
                var arrival = BatchArrival(
                    fixTimes: reports.filter(\.claimsFix).map(\.time), readAt: clock, previousReadAt: previousRead)
                previousRead = clock
                for report in reports {
                    let receivedAt = report.claimsFix ? arrival.next(receiverTime: report.time) : clock
                    check.require(receivedAt.timeIntervalSince1970.isFinite, "a fix was stamped \(receivedAt)")
                    guard case .fix(let fix) = filter.classify(report, receivedAt: receivedAt) else { continue }
                    delivered += 1
                    check.fix(fix)
                    trajectory.observe(fix)
                    track.append(TrackSample(time: receivedAt, coordinate: fix.coordinate))
                    if track.count > 64 { track.removeFirst(32) }
                    let speed = TravelSpeed.learn(track: track, now: receivedAt, receiverMps: fix.speedMps)
                    if let speed { check.within(speed.mps, 0...600, "the learned speed") }
                    if let plan = trajectory.plan(from: fix.coordinate, speed: speed, now: receivedAt) {
                        let samples = AheadSampling.samples(
                            along: plan.path, speedMps: speed?.mps ?? 0, now: receivedAt, settings: AheadSettings())
                        check.require(samples.count <= AheadSampling.maxSamples, "\(samples.count) samples ahead")
                    }
                }
            }
            // A case that delivered no fix at all tested nothing past the filter: counted apart, so a
            // filter that dropped every report shows as all refused, not as a clean pass.
            return check.result(delivered > 0 ? .decoded : .refused)
        }
    }
}

extension FuzzCheck {
    /// A delivered fix: a real coordinate that is not (0,0), and finite numbers or none.
    mutating func fix(_ fix: Fix) {
        require(!FixPlausibility.isNullIsland(fix.coordinate), "a fix at (0,0) was delivered")
        for (name, v) in [
            ("altitude", fix.altitudeM), ("speed", fix.speedMps), ("track", fix.trackDeg),
            ("eph", fix.horizontalErrorM), ("epv", fix.verticalErrorM),
        ] {
            finite(v, "a fix's \(name)")
        }
        if let time = fix.time { finite(time.timeIntervalSince1970, "a fix's time") }
    }
}
