// `fixcast-bench --ahead-compute [--track F.nmea] [--points N]` (bench/ahead.sh): what computing one
// ahead forecast costs on a route of N (10,000) points, issue 20's "≤ 5 ms": the route is the recorded
// drive itself, each leg cut into equal parts until it has N points, read back through GPXRouteReader
// from a GPX file; the fixes are the drive's own, and the forecast is made two thirds of the way along.
import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

func runAheadComputeBench(_ arguments: [String]) -> Int32 {
    var track = "demo/reno_tahoe_demo.nmea"
    var answer = "Tests/FixcastTests/Fixtures/api/open-meteo-ahead-multi-location.json"
    var count = 10_000
    var k = 0
    while k + 1 < arguments.count {
        switch arguments[k] {
        case "--track": track = arguments[k + 1]
        case "--answer": answer = arguments[k + 1]
        case "--points": count = Int(arguments[k + 1]) ?? count
        default:
            Console.err("fixcast-bench: --ahead-compute: unknown option \(arguments[k])\n")
            return 2
        }
        k += 2
    }
    guard let fixes = NMEADrive.fixes(path: track), fixes.count >= 2,
        let recorded = DataFiles.readBytes(answer), let location = RecordedAheadAnswers.firstElement(recorded)
    else {
        Console.err("fixcast-bench: \(track) or \(answer) unreadable (or fewer points asked than the drive has)\n")
        return 1
    }
    // The route: every fix that moved (GPXRouteReader drops a point equal to the one before), each leg
    // cut so that the whole has `count` points.
    var moved: [Coordinate] = []
    for f in fixes where moved.last.map({ GreatCircle.distanceM($0, f.coordinate) >= 1 }) ?? true {
        moved.append(f.coordinate)
    }
    guard count >= moved.count else {
        Console.err("fixcast-bench: --points must be at least the drive's \(moved.count) distinct fixes\n")
        return 2
    }
    var points: [Coordinate] = []
    let legs = moved.count - 1
    let extra = count - moved.count
    for j in 0..<legs {
        let a = moved[j]
        let b = moved[j + 1]
        let parts = 1 + extra / legs + (j < extra % legs ? 1 : 0)
        for p in 0..<parts {
            let s = Double(p) / Double(parts)
            points.append(Coordinate(lat: a.lat + s * (b.lat - a.lat), lon: a.lon + s * (b.lon - a.lon)) ?? a)
        }
    }
    points.append(moved[legs])
    var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"fixcast-bench\" "
    gpx += "xmlns=\"http://www.topografix.com/GPX/1/1\"><rte><name>bench</name>\n"
    for c in points {
        gpx +=
            "<rtept lat=\"\(NumberText.fixed(c.lat, decimals: 6))\" lon=\"\(NumberText.fixed(c.lon, decimals: 6))\"/>\n"
    }
    gpx += "</rte></gpx>\n"
    let gpxBytes = Array(gpx.utf8)

    let clock = ContinuousClock()
    func time(_ rounds: Int, _ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<rounds {
            let c0 = processCPUSeconds()
            let t0 = clock.now
            try body()
            walls.append(seconds(clock.now - t0))
            cpus.append(processCPUSeconds() - c0)
        }
        return (median(walls), median(cpus))
    }
    func row(_ label: String, _ t: (wall: Double, cpu: Double)) {
        print("  \(pad(label, 58)) \(pad(format(t.wall), 11)) CPU \(format(t.cpu))")
    }

    var route: RouteGeometry?
    do {
        let load = try time(50) { route = RouteGeometry(try GPXRouteReader.read(gpxBytes)) }
        guard let route else { return 1 }
        print(
            "route: \(route.points.count) points, \(NumberText.fixed(route.lengthM / 1000, decimals: 1)) km "
                + "(\(gpxBytes.count) bytes of GPX); median of the rounds, wall and CPU (this process)")
        row("read the GPX and build the route (once per run)", load)
    } catch {
        Console.err("fixcast-bench: the GPX did not read back: \(error)\n")
        return 1
    }
    guard let route else { return 1 }

    let settings = AheadSettings()
    // Two moments of the drive (every 30th fix tried): where the forecast has the most samples (the
    // most to decode and assemble), and where the track of the last 20 min has the most points (the
    // most for a first forecast's trajectory to catch up on).
    var at = fixes.count / 2
    var most = 0
    var busiest = fixes.count / 2
    var mostPoints = 0
    do {
        var scout = AheadTrajectory(route: route, routeID: "bench", offRouteM: settings.offRouteM)
        var kept = TrackThinner()
        var track: [TrackSample] = []
        for (i, f) in fixes.enumerated() {
            scout.observe(f)
            if kept.accept(f) { track.append(TrackSample(time: f.receivedAt, coordinate: f.coordinate)) }
            let inWindow = track.suffix(600).filter { f.receivedAt.timeIntervalSince($0.time) <= TravelSpeed.windowS }
            if i % 30 == 0, inWindow.count > mostPoints { (mostPoints, busiest) = (inWindow.count, i) }
            guard i % 30 == 0,
                let v = TravelSpeed.learn(track: track.suffix(600), now: f.receivedAt, receiverMps: f.speedMps),
                let p = scout.plan(from: f.coordinate, speed: v, now: f.receivedAt)
            else { continue }
            let n = AheadSampling.samples(along: p.path, speedMps: v.mps, now: f.receivedAt, settings: settings).count
            if n > most { (most, at) = (n, i) }
        }
    }
    func forecastCost(at: Int) -> Int32 {
        let fix = fixes[at]
        let here = Position(fix: fix)
        // The track the service hands over: the last 20 min of thinned fixes before the forecast.
        var thinner = TrackThinner()
        let recent = fixes[..<at].filter {
            fix.receivedAt.timeIntervalSince($0.receivedAt) <= TravelSpeed.windowS && thinner.accept($0)
        }
        let samples = recent.map { TrackSample(time: $0.time ?? $0.receivedAt, coordinate: $0.coordinate) }
        var sink = 0.0

        // The first forecast of a run: the whole route searched for the first fix, then the track's points.
        let first = time(200) {
            var trajectory = AheadTrajectory(route: route, routeID: "bench", offRouteM: settings.offRouteM)
            for f in recent { trajectory.observe(f) }
            trajectory.observe(fix)
            sink += trajectory.progress?.alongM ?? 0
        }
        var trajectory = AheadTrajectory(route: route, routeID: "bench", offRouteM: settings.offRouteM)
        for f in recent { trajectory.observe(f) }
        let oneFix = time(2_000) {
            var copy = trajectory
            copy.observe(fix)
            sink += copy.progress?.alongM ?? 0
        }
        trajectory.observe(fix)
        let speedTime = time(200) {
            sink += TravelSpeed.learn(track: samples, now: fix.receivedAt, receiverMps: fix.speedMps)?.mps ?? 0
        }
        guard let speed = TravelSpeed.learn(track: samples, now: fix.receivedAt, receiverMps: fix.speedMps),
            let plan = trajectory.plan(from: fix.coordinate, speed: speed, now: fix.receivedAt)
        else {
            Console.err("fixcast-bench: no plan at fix \(at)\n")
            return 1
        }
        var points12: [AheadSamplePoint] = []
        let planAndSample = time(2_000) {
            guard let p = trajectory.plan(from: fix.coordinate, speed: speed, now: fix.receivedAt) else { return }
            points12 = AheadSampling.samples(
                along: p.path, speedMps: speed.mps, now: fix.receivedAt, settings: settings)
            sink += Double(points12.count)
        }
        guard let request = OpenMeteoAheadRequest(samples: points12, now: fix.receivedAt) else { return 1 }
        let requestTime = time(2_000) {
            let r = OpenMeteoAheadRequest(samples: points12, now: fix.receivedAt)
            sink += Double(r?.url(baseURL: "http://127.0.0.1:9").utf8.count ?? 0)
        }
        var body: [UInt8] = [UInt8(ascii: "[")]
        for n in 0..<request.locations.count {
            if n > 0 { body.append(UInt8(ascii: ",")) }
            body += location
        }
        body.append(UInt8(ascii: "]"))
        var series: [AheadHourlySeries] = []
        do {
            let decode = try time(200) {
                series = try OpenMeteoAheadDecoder.decode(body, locations: request.locations.count)
            }
            let places = OfflinePlaces()
            let naming = time(200) {
                sink += Double(points12.compactMap { (try? places.nearestPlace(to: $0.coordinate))?.name }.count)
            }
            let names = points12.map { (try? places.nearestPlace(to: $0.coordinate))?.name }
            let origin = AheadForecast.Origin(coordinate: here.coordinate, fixTime: here.fixTime)
            let assembly = time(2_000) {
                let f = AheadForecastAssembly.forecast(
                    plan: plan, speed: speed, from: origin, madeAt: fix.receivedAt, points: points12,
                    locationOfSample: request.locationOfSample, series: series, places: names, rainMmH: settings.rainMmH
                )
                sink += Double(f.samples.count)
            }
            print(
                "forecast \(at) fixes into the drive, \(NumberText.fixed(plan.route?.remainingKm ?? 0, decimals: 1)) km of "
                    + "route left, \(recent.count) track points of the last 20 min, \(points12.count) samples, "
                    + "\(request.locations.count) locations (\(Int(sink) % 10)), median of the rounds:")
            row("first forecast's trajectory: whole route searched, then the track", first)
            row("one more fix on the route (the window ahead searched)", oneFix)
            row("speed learned from the track", speedTime)
            row("plan and samples", planAndSample)
            row("the request (locations grouped, URL)", requestTime)
            row("decode the answer (\(request.locations.count) locations, \(body.count) bytes)", decode)
            row("offline place names of the samples", naming)
            row("values at each ETA and the summary (assembly)", assembly)
            let total = [first, speedTime, planAndSample, requestTime, decode, naming, assembly]
            row(
                "one forecast, all of the above but the GPX (≤ 5 ms)",
                (total.reduce(0) { $0 + $1.wall }, total.reduce(0) { $0 + $1.cpu }))
        } catch {
            Console.err("fixcast-bench: the answer did not decode: \(error)\n")
            return 1
        }
        return 0
    }
    for moment in [at, busiest] where forecastCost(at: moment) != 0 { return 1 }
    return 0
}
