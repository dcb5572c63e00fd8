import FoundationEssentials

/// What the gpsd client reports, in order, on its `AsyncStream`.
public enum GPSEvent: Sendable, Hashable {
    /// Connected to gpsd and watching (again, after a reconnect).
    case connected(address: String)
    /// The receiver gpsd reads from (a path such as `/dev/ttyACM0`).
    case device(String)
    /// A new fix: mode ≥ 2, finite in-range coordinates, not a duplicate of the one before.
    case fix(Fix)
    /// gpsd reports the receiver has no fix (mode 0 or 1).
    case noFix
    /// Satellites used in the solution and in view, when gpsd's SKY report gave them.
    case satellites(used: Int?, visible: Int?)
    /// The connection failed or was lost; the client tries again after its back-off.
    case disconnected(GPSError)
}
