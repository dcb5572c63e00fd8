// `fixcast-bench --ahead-eta [--track F.nmea] [--route F.gpx|none] [--answer F.json] [--refresh-min N] [-v]`
// (bench/ahead.sh): replays a recorded drive through AheadService in virtual time (AheadReplay) and
// checks every forecast's samples 30 and 60 min ahead against when the drive later got there; counts
// the ahead requests and their call units. Nothing here is a fixed result: it is all what the
// replayed code forecast and what the drive then did.
import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// One sample checked: what was forecast and what happened.
struct ETACheck {
    var madeAt: Double
    var minutes: Int
    var predictedS: Double
    /// Seconds from the forecast to the drive's arrival; nil when it never got there.
    var actualS: Double?
    /// Metres between the sample and where the drive was at the sample's ETA; nil in a gap or after the drive.
    var atETAOffM: Double?
    /// A stop (2 min below 1 m/s) or a gap in the fixes between the forecast and the arrival.
    var interrupted: Bool
    var basis: AheadBasis

    var errorPct: Double? { actualS.map { ($0 > 0 ? (predictedS - $0) / $0 : .infinity) * 100 } }
}

func runAheadETABench(_ arguments: [String]) -> Int32 {
    var track = "demo/reno_tahoe_demo.nmea"
    var route: String? = "demo/reno_tahoe_route.gpx"
    var answer = "Tests/FixcastTests/Fixtures/api/open-meteo-ahead-multi-location.json"
    var refreshMin = 15.0
    var verbose = false
    var k = 0
    while k < arguments.count {
        let a = arguments[k]
        let value = k + 1 < arguments.count ? arguments[k + 1] : nil
        switch a {
        case "--track": track = value ?? track
        case "--route": route = value == "none" ? nil : value
        case "--answer": answer = value ?? answer
        case "--refresh-min": refreshMin = value.flatMap(Double.init) ?? refreshMin
        case "-v", "--verbose":
            verbose = true
            k += 1
            continue
        default:
            Console.err("fixcast-bench: --ahead-eta: unknown option \(a)\n")
            return 2
        }
        k += 2
    }
    guard let fixes = NMEADrive.fixes(path: track), fixes.count >= 2 else {
        Console.err("fixcast-bench: \(track): no RMC fixes\n")
        return 1
    }
    guard let recorded = DataFiles.readBytes(answer) else {
        Console.err("fixcast-bench: cannot read \(answer)\n")
        return 1
    }
    var template = Array("/tmp/fixcast-bench-ahead-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template).map({ String(cString: $0) }) else {
        Console.err("fixcast-bench: cannot make a temporary folder\n")
        return 1
    }
    defer {
        for name in ["ahead-replay.sqlite", "ahead-replay.sqlite-wal", "ahead-replay.sqlite-shm"] {
            unlink(dir + "/" + name)
        }
        rmdir(dir)
    }
    let cpu0 = processCPUSeconds()
    let replayed: AheadReplay
    let geometry: RouteGeometry?
    let (routePath, interval) = (route, refreshMin)
    do {
        geometry = try AheadService.loadRoute(route ?? "")
        let result: Result<AheadReplay, any Error> = ThreadExecutor.tasks.runBlocking {
            do {
                return .success(
                    try await AheadReplay.run(
                        fixes: fixes, routePath: routePath, recorded: recorded, refreshMin: interval,
                        storeDirectory: dir))
            } catch {
                return .failure(error)
            }
        }
        replayed = try result.get()
    } catch {
        Console.err("fixcast-bench: the replay failed: \(error)\n")
        return 1
    }
    let replayCPU = processCPUSeconds() - cpu0
    let truth = DriveTruth(fixes: fixes, route: geometry, offRouteM: Settings().ahead.offRouteM)
    let span = truth.times[truth.times.count - 1] - truth.times[0]
    var movingS = 0.0
    for j in 1..<fixes.count {
        let dt = truth.times[j] - truth.times[j - 1]
        if dt <= DriveTruth.gapS, (fixes[j].speedMps ?? 0) >= TravelSpeed.movingMps { movingS += dt }
    }
    print("drive: \(track): \(fixes.count) fixes over \(fixed(span / 3600, 2)) h, \(fixed(movingS / 3600, 2)) h moving")
    if let geometry {
        print("route: \(route ?? ""): \(geometry.points.count) points, \(fixed(geometry.lengthM / 1000, 1)) km")
    } else {
        print("route: none (dead reckoning along the course)")
    }
    print(
        "replayed through AheadService at every fix, refresh_min \(fixed(refreshMin, 0)); CPU \(fixed(replayCPU, 2)) s")
    var byBasis: [AheadBasis: Int] = [:]
    for f in replayed.forecasts { byBasis[f.forecast.basis, default: 0] += 1 }
    print(
        "forecasts: \(replayed.forecasts.count) (route \(byBasis[.route] ?? 0), course \(byBasis[.course] ?? 0), "
            + "stationary \(byBasis[.stationary] ?? 0)); requests \(replayed.asked.count)")

    // ETA of the samples 30 and 60 min ahead.
    var checks: [ETACheck] = []
    for made in replayed.forecasts where made.forecast.basis != .stationary {
        let f = made.forecast
        let t0 = f.madeAt.timeIntervalSince1970
        for target in [30, 60] {
            guard
                let s = f.samples.min(by: { abs($0.minutes - target) < abs($1.minutes - target) }),
                abs(s.minutes - target) <= 7
            else { continue }
            let predicted = s.eta.timeIntervalSince1970 - t0
            var arrival: Double?
            if f.basis == .route, let geometry, let remaining = f.route?.remainingKm {
                arrival = truth.arrival(alongM: geometry.lengthM - remaining * 1000 + s.distanceKm * 1000, after: t0)
            } else {
                arrival = truth.arrival(near: s.coordinate, after: t0, radiusM: courseRadiusM)?.time
            }
            let atETA = truth.position(at: s.eta.timeIntervalSince1970).map { GreatCircle.distanceM($0, s.coordinate) }
            let end = arrival ?? s.eta.timeIntervalSince1970
            let interrupted = truth.hasGap(from: t0, to: end) || truth.hasStop(from: t0, to: end)
            checks.append(
                ETACheck(
                    madeAt: t0, minutes: target, predictedS: predicted, actualS: arrival.map { $0 - t0 },
                    atETAOffM: atETA, interrupted: interrupted, basis: f.basis))
        }
    }
    if verbose {
        print("  made (min into drive)  basis   sample  forecast  actual   error   off at ETA  interrupted")
        for c in checks {
            print(
                "  \(pad(fixed((c.madeAt - truth.times[0]) / 60, 1), 22)) \(pad(c.basis.rawValue, 7)) "
                    + "\(pad("\(c.minutes)", 7)) \(pad(fixed(c.predictedS / 60, 1), 9)) "
                    + "\(pad(c.actualS.map { fixed($0 / 60, 1) } ?? "never", 8)) "
                    + "\(pad(c.errorPct.map { fixed($0, 1) + " %" } ?? "-", 7)) "
                    + "\(pad(c.atETAOffM.map { fixed($0 / 1000, 2) + " km" } ?? "-", 11)) \(c.interrupted ? "yes" : "")"
            )
        }
    }
    print("ETA error = (forecast lead - actual lead) / actual lead: - means the drive got there later than forecast")
    for target in [30, 60] {
        let all = checks.filter { $0.minutes == target }
        let reached = all.compactMap(\.errorPct)
        let steady = all.filter { !$0.interrupted }.compactMap(\.errorPct)
        let within = reached.filter { abs($0) <= 10 }.count
        let off = all.compactMap(\.atETAOffM)
        print(
            "  \(target) min: \(all.count) forecasts with the sample, \(reached.count) reached; "
                + "median |error| \(pct(median(reached.map(abs)))), signed median \(pct(median(reached))), "
                + "within 10 %: \(within) of \(reached.count)")
        print(
            "          without a stop or gap before the arrival: \(steady.count), median |error| "
                + "\(pct(median(steady.map(abs)))); the drive at the ETA was a median "
                + "\(off.isEmpty ? "-" : fixed(median(off) / 1000, 2)) km from the sample (\(off.count) known)")
    }

    // Requests and call units.
    let asked = replayed.asked
    let units = asked.reduce(0) { $0 + $1.locations }
    var maxHourUnits = 0
    var maxHourStart = 0.0
    for (i, a) in asked.enumerated() {
        let t = a.at.timeIntervalSince1970
        let inHour = asked[i...].prefix { $0.at.timeIntervalSince1970 < t + 3600 }.reduce(0) { $0 + $1.locations }
        if inHour > maxHourUnits {
            maxHourUnits = inHour
            maxHourStart = t - truth.times[0]
        }
    }
    var gaps: [Double] = []
    for i in 1..<max(1, asked.count) { gaps.append(asked[i].at.timeIntervalSince(asked[i - 1].at)) }
    let early = gaps.filter { $0 < refreshMin * 60 - 1e-6 }
    print(
        "requests: \(asked.count), call units \(units) (locations per request \(asked.map(\.locations).min() ?? 0)-"
            + "\(asked.map(\.locations).max() ?? 0)); \(fixed(Double(units) / max(movingS / 3600, 1e-9), 1)) units "
            + "per moving hour, \(fixed(Double(units) / (span / 3600), 1)) per hour of the drive; "
            + "most in any 60 min: \(maxHourUnits) (from minute \(fixed(maxHourStart / 60, 0)))")
    print(
        "between requests: min \(gaps.min().map { fixed($0 / 60, 1) } ?? "-") min, \(early.count) sooner than "
            + "refresh_min (a basis change: off the route or back on it)")
    return 0
}

/// Without a route the samples are on a straight line along the course: "got there" is coming
/// within 5 km (the radius `AheadCheck` pairs a sample with a later reading by).
let courseRadiusM = AheadCheck.withinKm * 1000

func fixed(_ x: Double, _ decimals: Int) -> String {
    guard x.isFinite else { return "\(x)" }
    return NumberText.fixed(x, decimals: decimals)
}

func pct(_ x: Double) -> String { x.isNaN ? "-" : fixed(x, 1) + " %" }

/// This process's CPU time (user + system, every thread), for the timings that should not count the
/// time other programs on a shared machine took.
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
