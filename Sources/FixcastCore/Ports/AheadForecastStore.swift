import FoundationEssentials

/// What weather ahead reads back of the forecasts stored (`fixcast ahead` answers from the newest
/// when it is still what would be asked: `AheadReuse`). The SQLite store implements it.
public protocol AheadForecastStore: Sendable {
    /// The most recently made forecast, a reading's or `fixcast ahead`'s; nil when none is stored.
    func lastAheadForecast() async throws(StorageError) -> AheadForecast?
}
