import FoundationEssentials

/// What the gpsd client reports, in order, on its `AsyncStream`.
public enum GPSEvent: Sendable, Hashable {
    /// A connection is open and reports are asked for; gpsd has not answered on it yet (`.connected`
    /// follows with its first report). What took the connection may not be gpsd, or gpsd may be busy
    /// (opening a device): neither "answers again" nor "unreachable" yet.
    case opened(address: String)
    /// gpsd answered on a new connection (its first report came) and is watched (again, after a
    /// reconnect). A TCP connect alone is not this: what took the connection may not be gpsd.
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
