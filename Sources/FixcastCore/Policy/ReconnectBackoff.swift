/// How long a client waits before connecting again after its server went away or refused: the one
/// reconnect rule, for gpsd and for the MQTT broker (whose shim asks it before every attempt).
///
/// 1 s first (a restarting gpsd is usually back within a second), doubling up to 30 s so that a
/// machine without gpsd is not hammered (MQTT: up to 60 s), and back to 1 s once a connection works again
/// (the caller says when: MQTT only after a connection stayed up 30 s, so a broker that drops each one at
/// once is not asked every second).
public struct ReconnectBackoff: Sendable, Hashable {
    public let initialS: Double
    public let maximumS: Double
    public private(set) var nextDelayS: Double

    public init(initialS: Double = 1, maximumS: Double = 30) {
        self.initialS = max(0, initialS)
        self.maximumS = max(self.initialS, maximumS)
        self.nextDelayS = self.initialS
    }

    /// The delay before the next attempt after a failure; the one after it doubles (up to the maximum).
    public mutating func nextDelay() -> Double {
        let d = nextDelayS
        nextDelayS = min(maximumS, max(nextDelayS * 2, initialS))
        return d
    }

    /// A connection succeeded: the next failure starts from the first delay again.
    public mutating func reset() {
        nextDelayS = initialS
    }
}
