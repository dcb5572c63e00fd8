import FoundationEssentials

/// Decides whether a stored ahead forecast answers `fixcast ahead` instead of a new request: a script
/// or a person asking again within minutes would otherwise ask Open-Meteo for the same samples each
/// time (a status bar calling it every minute: 60 requests an hour for one answer).
///
/// It answers when the request that would be made now asks for what it was made from: the same
/// basis (and, on a route, the same route name, as much of it left, and whether off it), made from within one model cell
/// (`OpenMeteoAheadRequest.cellM`, ~2 km) of the fix, and as many samples, each within one cell of
/// the one it had. Those get the same numbers from the model; the forecast is served as it was made
/// (its `made_at` and minutes count from then, as `run`'s kept forecast between refreshes does).
/// How long it answers is the weather's cache rule (`WeatherCachePolicy`: `weather.cache_min`, its
/// forced floor with `--force`); offline, a matching one answers marked stale while a sample's
/// arrival is still to come.
public enum AheadReuse {
    /// The stored forecast is for what `plan` and `points` would ask from `origin` (the age aside).
    public static func matches(
        _ stored: AheadForecast, plan: AheadTrajectory.Plan, points: [AheadSamplePoint], from origin: Coordinate
    ) -> Bool {
        let cellKm = OpenMeteoAheadRequest.cellM / 1000
        guard stored.basis == plan.basis, stored.offRoute == plan.offRoute,
            (stored.route == nil) == (plan.route == nil), stored.route?.name == plan.route?.name,
            // Another route of the same name (or none) whose start coincides: what is left of it differs.
            abs((stored.route?.remainingKm ?? 0) - (plan.route?.remainingKm ?? 0)) <= cellKm,
            stored.samples.count == points.count,
            GreatCircle.distanceM(stored.from.coordinate, origin) <= OpenMeteoAheadRequest.cellM
        else { return false }
        return zip(stored.samples, points).allSatisfy {
            GreatCircle.distanceM($0.coordinate, $1.coordinate) <= OpenMeteoAheadRequest.cellM
        }
    }

    /// How a matching stored forecast made at `madeAt` answers at `now`: `.fresh` within the cache's
    /// lifetime, `.stale` offline after it while it still covers a time to come, else nil (asked
    /// again). A made time in the future (the clock set back) never answers: its age is unknown.
    public enum Answer: Sendable, Equatable {
        case fresh
        case stale
    }

    public static func answer(
        _ stored: AheadForecast, cache: WeatherCachePolicy, forced: Bool, offline: Bool, now: Date
    ) -> Answer? {
        let age = now.timeIntervalSince(stored.madeAt)
        guard age >= 0 else { return nil }
        if age < cache.lifetime(forced: forced) { return .fresh }
        return offline && !stored.isOutlived(at: now) ? .stale : nil
    }
}
