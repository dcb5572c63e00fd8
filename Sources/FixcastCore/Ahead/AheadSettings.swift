/// The `[ahead]` block of the configuration (CONTRACT.md), as the pure core needs it; built from
/// `Settings.Ahead` (`AheadSettings.init(_:)`), with `--hours` in place of `ahead.hours` when given.
public struct AheadSettings: Sendable, Equatable {
    /// `ahead.hours` (1-12): how far ahead samples go.
    public var hours: Double
    /// `ahead.step_min`: one sample per this much travel time.
    public var stepMin: Double
    /// `ahead.min_step_km`: samples never closer than this.
    public var minStepKm: Double
    /// `ahead.refresh_min`: in `run`, at most this often.
    public var refreshMin: Double
    /// `ahead.off_route_m`: farther than this from the route for 60 s is off it.
    public var offRouteM: Double
    /// `ahead.rain_mm_h`: "rain ahead" from this rate.
    public var rainMmH: Double

    public init(
        hours: Double = 3, stepMin: Double = 15, minStepKm: Double = 5, refreshMin: Double = 15,
        offRouteM: Double = 500, rainMmH: Double = 0.2
    ) {
        self.hours = hours
        self.stepMin = stepMin
        self.minStepKm = minStepKm
        self.refreshMin = refreshMin
        self.offRouteM = offRouteM
        self.rainMmH = rainMmH
    }
}
