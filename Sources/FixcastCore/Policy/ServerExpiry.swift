import FoundationEssentials

/// Whether a server's `Expires` still stands, so that asking again would be against its terms (MET
/// Norway's: no request for a point before its answer expires).
///
/// Honoured only up to `maximumAheadS` after the answer came: MET sets it about half an hour ahead, so
/// further is a broken header, and an hour is the longest fixcast lets weather or an alert go
/// unchecked. Not honoured when the clock now reads before the answer came: the clock was set back
/// since (a Pi without a real-time clock, corrected at its first fix), and a deadline taken from the
/// wrong clock could otherwise keep fixcast from asking for years.
public enum ServerExpiry {
    public static let maximumAheadS = 3600.0

    /// `Expires` on this machine's clock: the answer's freshness lifetime (`Expires` − `Date`, both the
    /// server's clock: RFC 9111 §4.2.1) from when it came (`receivedAt`). A clock 20 minutes fast read
    /// MET's half-hour `Expires` as 10 minutes from the answer, and asked again 20 minutes early; one
    /// more than 30 minutes fast ignored it at every request. An answer expired when sent (`Expires`
    /// before `Date`) is stale from when it came. Without a `Date`, or a lifetime beyond
    /// `maximumAheadS`, `Expires` as sent.
    public static func onLocalClock(expires: Date?, serverDate: Date?, receivedAt: Date) -> Date? {
        guard let expires, let serverDate else { return expires }
        let lifetime = expires.timeIntervalSince(serverDate)
        // Expired when sent (`Expires` before `Date`): stale from the moment it came, whatever this clock says.
        guard lifetime >= 0 else { return receivedAt }
        guard lifetime <= maximumAheadS else { return expires }
        return receivedAt.addingTimeInterval(lifetime)
    }

    public static func stands(_ expires: Date?, receivedAt: Date, now: Date) -> Bool {
        guard let expires, now >= receivedAt, now < expires else { return false }
        return expires.timeIntervalSince(receivedAt) <= maximumAheadS
    }
}
