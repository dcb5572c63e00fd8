import FixcastText

/// `ahead.provider` (CONTRACT.md): who is asked for the forecast ahead. Open-Meteo is keyless and
/// answers every sample in one request, whatever `weather.provider` is; `none` turns the request off.
public enum AheadProvider: String, Sendable, Hashable, CaseIterable {
    case openMeteo = "open-meteo"
    case none
}

extension ConfigSchema {
    /// `[ahead]` (CONTRACT.md "Weather ahead"), each bound with its reason.
    static let aheadKeys: [Key] = [
        flag("ahead", "enabled") { $0.ahead.enabled = $1 },
        choice("ahead", "provider", AheadProvider.self) { $0.ahead.provider = $1 },
        url("ahead", "base_url") { $0.ahead.baseURL = $1 },
        // 1-12 h (CONTRACT.md): the public models' hourly forecasts are good for hours, and 12 h at
        // 15 min is 48 samples, one request's worth.
        range("ahead", "hours", 1...12, unit: "hours") { $0.ahead.hours = $1 },
        // A sample per minute of travel at most; more than 3 h between samples leaves the window empty.
        range("ahead", "step_min", 1...180, unit: "minutes") { $0.ahead.stepMin = $1 },
        // 0 km allows samples as close as the step makes them; 100 km is a long way between two.
        range("ahead", "min_step_km", 0...100, unit: "km") { $0.ahead.minStepKm = $1 },
        // Never below a minute (the forced refresh's floor); a day is longer than any forecast window.
        range("ahead", "refresh_min", 1...1440, unit: "minutes") { $0.ahead.refreshMin = $1 },
        Key(section: "ahead", name: "route", kind: .string) { s, v in
            guard case .string(let p) = v else { return nil }
            guard !p.contains("\0") else { return "must not contain a NUL character" }
            guard p.utf8.count < 4096 else { return "must be a path of at most 4095 bytes, not \(p.utf8.count)" }
            s.ahead.route = p
            return nil
        },
        // 20 m is a receiver's error on a good day; 50 km off is not following a route.
        range("ahead", "off_route_m", 20...50_000, unit: "metres") { $0.ahead.offRouteM = $1 },
        // Above 0 (0 would call a dry hour rain; 0.01 mm is below any gauge); 100 mm/h is a cloudburst.
        range("ahead", "rain_mm_h", 0.01...100, unit: "mm/h") { $0.ahead.rainMmH = $1 },
    ]
}

extension AheadSettings {
    /// The pure core's view of `[ahead]`; `hours` as given (`--hours` overrides it).
    public init(_ s: Settings.Ahead) {
        self.init(
            hours: s.hours, stepMin: s.stepMin, minStepKm: s.minStepKm, refreshMin: s.refreshMin,
            offRouteM: s.offRouteM, rainMmH: s.rainMmH)
    }
}
