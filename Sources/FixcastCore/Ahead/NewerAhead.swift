import FoundationEssentials

extension Reading {
    /// The reading with `forecast` as its `ahead` when that was made after the reading's own (or the
    /// reading carries none) from near the reading's position. `fixcast ahead` stores the forecast it
    /// makes without a reading, and a status bar shows "the last stored reading (and the last ahead
    /// forecast)" (CONTRACT.md "Status bars"): its rain ahead is the newest forecast's, whichever command
    /// made it. The reading's own forecast wins a tie, so its `stale` mark is kept.
    ///
    /// A forecast made more than `nearKm` from the reading is a plan for elsewhere (`fixcast ahead --at
    /// Munich --route alps.gpx` from a desk in Berlin): a bar that names Berlin must not say "rain in
    /// 45 min" from it.
    public func withNewerAhead(_ forecast: AheadForecast?) -> Reading {
        guard let forecast, forecast.madeAt > ahead?.madeAt ?? .distantPast else { return self }
        if let here = position?.coordinate,
            !(GreatCircle.distanceKm(here, forecast.from.coordinate) <= Self.newerAheadNearKm)
        {
            return self
        }
        var reading = self
        reading.ahead = forecast
        return reading
    }

    /// How near a forecast must have been made to count as this reading's place's: `run` takes a reading
    /// every `move_km` (5 km by default), so a forecast `fixcast ahead` made on the way since the last
    /// one is a few km off; a plan for another place is usually tens.
    public static let newerAheadNearKm = 20.0
}
