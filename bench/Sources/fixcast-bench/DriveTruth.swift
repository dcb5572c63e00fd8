import FixcastCore
import FoundationEssentials

/// What the drive actually did, to check forecasts against: when it got to a place, and where it was
/// at a time. Built from every fix of the recorded drive (not the thinned track).
struct DriveTruth {
    let fixes: [Fix]
    let times: [Double]
    /// Metres along the route at each fix, as the route follower projects it (forward only), never
    /// going back (a fix off the route keeps the last value); nil without a route.
    let alongM: [Double]?
    /// Consecutive fixes farther apart than this are a gap (the receiver or the logger was off): the
    /// drive's position between them is not known (`TravelSpeed.maxGapS`, the same rule).
    static let gapS = TravelSpeed.maxGapS

    init(fixes: [Fix], route: RouteGeometry?, offRouteM: Double) {
        self.fixes = fixes
        self.times = fixes.map { $0.receivedAt.timeIntervalSince1970 }
        if let route {
            var follower = RouteProjection(route: route, offRouteLimitM: offRouteM)
            var along: [Double] = []
            var best = 0.0
            for fix in fixes {
                let p = follower.update(fix.coordinate, at: fix.receivedAt)
                if p.offRouteM <= offRouteM { best = max(best, p.alongM) }
                along.append(best)
            }
            self.alongM = along
        } else {
            self.alongM = nil
        }
    }

    /// The first fix after `t`.
    func firstIndex(after t: Double) -> Int {
        var lo = 0
        var hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// When the drive, after `t`, first got `a` metres along the route (between two fixes: in
    /// proportion); nil if it never did.
    func arrival(alongM a: Double, after t: Double) -> Double? {
        guard let along = alongM else { return nil }
        let start = firstIndex(after: t)
        for j in start..<times.count where along[j] >= a {
            guard j > start, along[j] > along[j - 1], times[j] - times[j - 1] <= Self.gapS else { return times[j] }
            let share = (a - along[j - 1]) / (along[j] - along[j - 1])
            return times[j - 1] + share * (times[j] - times[j - 1])
        }
        return nil
    }

    /// When the drive, after `t`, first came within `radiusM` of `c`: the time of its closest fix on
    /// that pass, and how close it came; nil if it never did.
    func arrival(near c: Coordinate, after t: Double, radiusM: Double) -> (time: Double, missM: Double)? {
        var best: (time: Double, missM: Double)?
        for j in firstIndex(after: t)..<times.count {
            let d = GreatCircle.distanceM(fixes[j].coordinate, c)
            if d <= radiusM {
                if best == nil || d < best!.missM { best = (times[j], d) }
            } else if best != nil {
                break
            }
        }
        return best
    }

    /// Where the drive was at `t` (between two fixes: in proportion); nil outside the drive or in a gap.
    func position(at t: Double) -> Coordinate? {
        let j = firstIndex(after: t)
        guard j > 0, j < times.count, times[j] - times[j - 1] <= Self.gapS else { return nil }
        let share = (t - times[j - 1]) / (times[j] - times[j - 1])
        let a = fixes[j - 1].coordinate
        let b = fixes[j].coordinate
        return Coordinate(lat: a.lat + share * (b.lat - a.lat), lon: a.lon + share * (b.lon - a.lon))
    }

    /// Whether the fixes between `t0` and `t1` hold a gap.
    func hasGap(from t0: Double, to t1: Double) -> Bool {
        var j = max(1, firstIndex(after: t0))
        while j < times.count, times[j - 1] < t1 {
            if times[j] - times[j - 1] > Self.gapS { return true }
            j += 1
        }
        return false
    }

    /// Whether the drive stood still (slower than 1 m/s for 2 minutes, the stationary rule) between
    /// `t0` and `t1`.
    func hasStop(from t0: Double, to t1: Double) -> Bool {
        var slowSince: Double?
        for j in firstIndex(after: t0)..<times.count where times[j] <= t1 {
            let v = fixes[j].speedMps ?? 0
            if v < StationaryDetector.maxSpeedMps {
                if slowSince == nil { slowSince = times[j] }
                if let s = slowSince, times[j] - s >= StationaryDetector.holdS { return true }
            } else {
                slowSince = nil
            }
        }
        return false
    }
}
