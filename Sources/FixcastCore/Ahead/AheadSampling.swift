import FoundationEssentials

/// One place and time ahead where the forecast is wanted.
public struct AheadSamplePoint: Sendable, Equatable {
    /// Minutes from now to the ETA, rounded.
    public var minutes: Int
    public var eta: Date
    /// Metres of travel from the fix to here (0 when stationary).
    public var distanceM: Double
    public var coordinate: Coordinate
    /// The direction of travel here (the route's bearing, or the course); nil when stationary.
    public var travelBearingDeg: Double?

    public init(minutes: Int, eta: Date, distanceM: Double, coordinate: Coordinate, travelBearingDeg: Double?) {
        self.minutes = minutes
        self.eta = eta
        self.distanceM = distanceM
        self.coordinate = coordinate
        self.travelBearingDeg = travelBearingDeg
    }
}

/// The path the samples are laid along.
public enum AheadPath: Sendable, Equatable {
    /// What remains of the route from `fromAlongM`.
    case route(RouteGeometry, fromAlongM: Double)
    /// The great circle from the fix along the smoothed course.
    case course(from: Coordinate, courseDeg: Double)
    /// Staying here.
    case stationary(at: Coordinate)
}

/// Lays the samples: one per `step_min` of travel at the learned speed, but never closer than
/// `min_step_km` (a slow traveller would otherwise ask for many samples in one model cell), out to
/// `hours`; along a route they stop at its end (its end itself is a sample when it is far enough
/// from the last one). A way shorter than one step (a walk of `--hours 1`, the last stretch of a
/// route) gets one sample at its end. Stationary: here, every `step_min`. ETA = now + distance ÷ speed.
public enum AheadSampling {
    /// A way shorter than the first step still gets one sample at its end (the window's reach, or
    /// the route's end) when it is at least this long: 1 km, the finest of the models' cells (1-11
    /// km). Nearer, the way ahead is where you are as far as a forecast goes, and a route that ends
    /// within it ends here.
    public static let shortestWayM = 1_000.0
    /// Two samples nearer than this are one place and time (and one at 0 m is here, now): the route's
    /// end is not added on a sample already there, whatever `min_step_km` (0 allows).
    static let samePlaceM = 1.0

    /// At most this many samples, whatever the settings: 12 h at 15 min is 48; a bound keeps one
    /// request's location list (and its cost in call units) small. A step too fine for the window
    /// (`step_min` 5 over 12 h wants 144) is widened to fit it (`stepS`), so the samples still reach
    /// `hours` rather than stop short of it unsaid.
    public static let maxSamples = 96

    /// The time between samples: `step_min`, or wider when `maxSamples` of it would not reach `hours`.
    static func stepS(_ settings: AheadSettings) -> Double {
        max(max(1, settings.stepMin) * 60, max(0, settings.hours) * 3600 / Double(maxSamples))
    }

    public static func samples(along path: AheadPath, speedMps: Double, now: Date, settings: AheadSettings)
        -> [AheadSamplePoint]
    {
        let horizonS = max(0, settings.hours) * 3600
        let stepS = Self.stepS(settings)
        if case .stationary(let here) = path {
            var out: [AheadSamplePoint] = []
            var t = stepS
            while t <= horizonS + 1e-6, out.count < maxSamples {
                out.append(
                    AheadSamplePoint(
                        minutes: Int((t / 60).rounded()), eta: now.addingTimeInterval(t), distanceM: 0,
                        coordinate: here, travelBearingDeg: nil))
                t += stepS
            }
            return out
        }
        guard speedMps.isFinite, speedMps > 0 else { return [] }
        let stepM = max(speedMps * stepS, settings.minStepKm * 1000)
        let reachM = speedMps * horizonS
        var limitM = reachM
        if case .route(let geometry, let from) = path { limitM = min(reachM, geometry.lengthM - from) }

        func point(_ d: Double) -> AheadSamplePoint {
            let s = d / speedMps
            let located: (coordinate: Coordinate, bearingDeg: Double)
            switch path {
            case .route(let geometry, let from): located = geometry.point(atAlongM: from + d)
            case .course(let start, let course):
                located = SphereNavigation.destination(from: start, bearingDeg: course, distanceM: d)
            case .stationary(let here): located = (here, 0)
            }
            return AheadSamplePoint(
                minutes: Int((s / 60).rounded()), eta: now.addingTimeInterval(s), distanceM: d,
                coordinate: located.coordinate, travelBearingDeg: located.bearingDeg)
        }

        var out: [AheadSamplePoint] = []
        var d = stepM
        while d <= limitM + 1e-6, out.count < maxSamples {
            out.append(point(d))
            d += stepM
        }
        // Nothing within one step: the way's end, if it is a way at all ("the route ends here" with
        // 20 km of it left was said to a walker whose hour reaches 4.7 km of the 5 km step).
        if out.isEmpty, limitM >= shortestWayM { out.append(point(limitM)) }
        if case .route(let geometry, let from) = path, geometry.lengthM - from <= reachM, out.count < maxSamples {
            let end = geometry.lengthM - from
            let last = out.last?.distanceM ?? 0
            if end - last >= max(settings.minStepKm * 1000, samePlaceM) { out.append(point(end)) }
        }
        return out
    }
}
