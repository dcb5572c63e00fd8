/// What the samples ahead follow (CONTRACT.md "Weather ahead": the first that applies).
public enum AheadBasis: String, Sendable, Equatable {
    case route, course, stationary

    /// `route` while on a route (not off it) with a speed to time it by; `course` when moving with a
    /// known course and not stationary (a parked car's last course is stale); `stationary` when slow
    /// for the detector's two minutes; nil when none applies yet (no speed, no course: a first fix),
    /// and then there is no ahead forecast rather than a made-up one.
    public static func choose(onRoute: Bool, hasSpeed: Bool, hasCourse: Bool, isStationary: Bool) -> AheadBasis? {
        if onRoute, hasSpeed { return .route }
        if !isStationary, hasSpeed, hasCourse { return .course }
        if isStationary { return .stationary }
        return nil
    }
}
