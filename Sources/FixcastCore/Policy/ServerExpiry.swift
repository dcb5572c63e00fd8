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

    public static func stands(_ expires: Date?, receivedAt: Date, now: Date) -> Bool {
        guard let expires, now >= receivedAt, now < expires else { return false }
        return expires.timeIntervalSince(receivedAt) <= maximumAheadS
    }
}
