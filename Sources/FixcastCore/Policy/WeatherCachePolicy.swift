import FoundationEssentials

/// Decides whether stored weather may answer a request instead of the network (DESIGN.md §3, the
/// seed's "cache with a back door").
///
/// Stored weather serves when it was fetched within `moveKm` of the position (the movement trigger's
/// 5 km: closer than that, the forecast grid cell barely changes) and less than `cache_min` (10 min,
/// about how often the models' current values change) ago. A forced request (a person asking, or a
/// resume) shortens the lifetime to `forced_cache_min` (1 min) — never zero, so a burst of forced
/// refreshes cannot drain the shared API limit.
public struct WeatherCachePolicy: Sendable, Hashable {
    /// The floor under the forced lifetime (CONTRACT.md: `--force` has a 1-minute floor).
    public static let minimumForcedLifetimeS = 60.0

    public var moveKm: Double
    /// Lifetime of stored weather for an ordinary request, seconds.
    public let lifetimeS: Double
    /// Lifetime for a forced request, seconds: at least `minimumForcedLifetimeS`, and never longer
    /// than the ordinary lifetime when that is longer than the floor.
    public let forcedLifetimeS: Double

    public init(moveKm: Double = 5, cacheMinutes: Double = 10, forcedCacheMinutes: Double = 1) {
        self.moveKm = moveKm
        lifetimeS = max(0, cacheMinutes * 60)
        let floored = max(Self.minimumForcedLifetimeS, forcedCacheMinutes * 60)
        forcedLifetimeS = min(floored, max(lifetimeS, Self.minimumForcedLifetimeS))
    }

    public init(settings: Settings) {
        self.init(
            moveKm: settings.trigger.moveKm, cacheMinutes: settings.weather.cacheMin,
            forcedCacheMinutes: settings.weather.forcedCacheMin)
    }

    public func lifetime(forced: Bool) -> Double { forced ? forcedLifetimeS : lifetimeS }

    /// True when weather fetched at `fetchedAt` for `fetchedFor` may answer a request at `position` now.
    /// A fetch time in the future (the clock was set back) never serves: its age cannot be trusted.
    public func serves(fetchedAt: Date, fetchedFor: Coordinate, position: Coordinate, forced: Bool, now: Date) -> Bool {
        let age = now.timeIntervalSince(fetchedAt)
        guard age >= 0, age < lifetime(forced: forced) else { return false }
        return GreatCircle.distanceKm(fetchedFor, position) <= moveKm
    }

    public func serves(_ report: WeatherReport, position: Coordinate, forced: Bool, now: Date) -> Bool {
        serves(fetchedAt: report.fetchedAt, fetchedFor: report.coordinate, position: position, forced: forced, now: now)
    }
}
