/// Decides whether the position has moved far enough that the weather must be fetched again.
///
/// Distance is measured great-circle from where weather was LAST FETCHED, not from the previous
/// fix: measured fix-to-fix, a slow drift (a 10 Hz receiver moving 3 m a step, a walker, a boat)
/// never crosses the threshold in one step and the weather would never follow it; measured from
/// the fetch point, every metre adds up. 5 km (`trigger.move_km`) is the seed's threshold: about
/// the grid size of the public weather models, so a smaller move rarely changes the answer.
public struct MovementTrigger: Sendable, Hashable {
    /// `trigger.move_km`.
    public var thresholdKm: Double
    /// Where weather was last fetched (nil before the first fetch).
    public private(set) var fetchPoint: Coordinate?

    public init(thresholdKm: Double = 5.0, fetchPoint: Coordinate? = nil) {
        self.thresholdKm = thresholdKm
        self.fetchPoint = fetchPoint
    }

    /// Great-circle km from the fetch point to `coordinate`; nil before the first fetch.
    public func distanceKm(to coordinate: Coordinate) -> Double? {
        fetchPoint.map { GreatCircle.distanceKm($0, coordinate) }
    }

    /// True when `coordinate` is MORE than `thresholdKm` from the fetch point. Before any fetch this
    /// is false: the first reading is the startup trigger's, not a move.
    public func hasMoved(to coordinate: Coordinate) -> Bool {
        guard let d = distanceKm(to: coordinate) else { return false }
        return d > thresholdKm
    }

    /// Weather was fetched for `coordinate`: distances are measured from here from now on.
    public mutating func weatherFetched(at coordinate: Coordinate) {
        fetchPoint = coordinate
    }
}
