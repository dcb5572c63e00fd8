import FoundationEssentials

/// The gps side's state, typed: the reducer decides on THIS, never on message text.
///
/// One value at a time, the most important first: a gpsd problem hides the wait for a fix (the
/// wait cannot end while gpsd is away), and a lost fix shows on the position line, not the status line.
public enum GPSStatus: Sendable, Hashable {
    /// No fix yet, within the first wait (or no gps at all before the loop starts).
    case starting
    /// A position is had: live fixes are coming in, or it is fixed by --at/--place.
    case fixing
    /// No fix within `timeoutS`; waiting again (retry `retry` of `of`).
    case waitingForFix(retry: Int, of: Int, timeoutS: Double)
    /// Every wait ran out and no position is stored; the first fix will bring the startup reading.
    case noPosition
    /// The fix was lost at `since` (readings go on at the last position, marked last-known).
    case lost(since: Date)
    /// gpsd is connected, but no fix has come from the receiver for `forS` seconds (`ReceiverSilence`):
    /// lost as well, and worth a line, since nothing else says so.
    case silent(forS: Double)
    /// gpsd is not answering or the connection was lost; the client reconnects by itself.
    case problem(GPSError)

    /// The one sentence for the status line, nil when there is nothing to say there.
    public var issue: ReadingIssue? {
        switch self {
        case .starting, .fixing, .lost:
            return nil
        case .waitingForFix(let retry, let of, let timeoutS):
            return ReadingIssue(
                component: .gps,
                message:
                    "gps: no fix yet after \(Int(clamping: timeoutS, to: 0...Int.max)) s; waiting again (retry \(retry) of \(of))."
            )
        case .silent(let forS):
            return ReadingIssue(
                component: .gps,
                message:
                    "gps: gpsd is running but no fix has come from the receiver for \(Int(clamping: forS, to: 0...Int.max)) s; readings use the last known position until one comes (check the receiver with cgps)."
            )
        case .noPosition:
            return ReadingIssue(
                component: .gps,
                message:
                    "gps: no fix yet and no stored position; the first fix will bring a reading (check the receiver with cgps)."
            )
        case .problem(let error):
            return ReadingIssue(error)
        }
    }
}
