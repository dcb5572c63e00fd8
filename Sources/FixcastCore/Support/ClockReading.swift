import FoundationEssentials

/// What the two clocks read at one moment, as the loop passes it in with each event.
///
/// `monotonic` drives every deadline (a fix wait, a period, a gather window, a back-off): it never
/// jumps. `wall` is only for what is shown or stored (a reading's time, "no fix since 08:02", a
/// position's age against its receiver-stamped time): a wall clock that jumps changes what is shown,
/// never when something happens.
public struct ClockReading: Sendable, Hashable {
    public var monotonic: MonotonicInstant
    public var wall: Date

    public init(monotonic: MonotonicInstant, wall: Date) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The reading `interval` seconds later on both clocks (tests, and a virtual clock).
    public func advanced(by interval: Double) -> ClockReading {
        ClockReading(monotonic: monotonic.advanced(by: interval), wall: wall.addingTimeInterval(interval))
    }
}
