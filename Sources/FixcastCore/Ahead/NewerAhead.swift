import FoundationEssentials

extension Reading {
    /// The reading with `forecast` as its `ahead` when that was made after the reading's own (or the
    /// reading carries none). `fixcast ahead` stores the forecast it makes without a reading, and a
    /// status bar shows "the last stored reading (and the last ahead forecast)" (CONTRACT.md "Status
    /// bars"): its rain ahead is the newest forecast's, whichever command made it. The reading's own
    /// forecast wins a tie, so its `stale` mark is kept.
    public func withNewerAhead(_ forecast: AheadForecast?) -> Reading {
        guard let forecast, forecast.madeAt > ahead?.madeAt ?? .distantPast else { return self }
        var reading = self
        reading.ahead = forecast
        return reading
    }
}
