/// Decides how long gpsd's reports are left to gather in the socket after a read, before the agent's
/// loop reads them again.
///
/// Every read costs a wake-up, a poll and a turn of the loop, and on a Raspberry Pi wake-ups are
/// battery. What a fix decides works on a scale of kilometres and minutes (5 km of movement, 30 min of
/// standing still), so most fixes need not be read the moment they come:
/// - a fast receiver (reports closer than `fastReportIntervalS`) is read once per `fastWindowS`:
///   a 10 Hz receiver costs one wake-up a second, like a 1 Hz one;
/// - with no one watching (`run --json`, or no terminal), a receiver that stamps its fixes is read
///   once per `headlessWindowS`, once its rate is known: at 1 Hz, one wake-up for ten fixes. The live
///   screen shows each fix as it comes, to the person looking at it; and a receiver that sends no
///   time is read as each fix comes, since only the receiver's times tell when gathered fixes came.
/// - with no fix to read and no one watching (an indoor receiver, a car in a garage: a report without a
///   fix each second), reports gather for `headlessWindowS` too, once the loss was acted on and no
///   reading waits on the next fix (`fixlessWindowS`): the fix coming back is read up to 10 s late, as
///   its loss is, instead of one wake-up a second for as long as there is no fix.
/// Never held: the first fix (a start-up reading waits on it), a read that said the fix is lost, and a
/// connection that ended; nor anything a person asks for (the loop reads what waits first). Each fix
/// keeps the time it arrived (`BatchArrival`), and what is left unread is what a kill -9 can lose.
/// Across a suspend, what gathered is dropped unread: it came before the suspend or just after, and
/// no time it could be stamped with would be sure to be true.
public enum ReportGathering {
    /// Reports closer than this (2 Hz and up) make a receiver "fast".
    public static let fastReportIntervalS = 0.5
    /// How long a fast receiver's reports gather: at 10 Hz, ten TPVs and SKYs (about 14 kB), far
    /// inside the socket's buffer, whose overflow would make gpsd drop the client.
    public static let fastWindowS = 1.0
    /// How long a slower receiver's reports gather with no one watching: ten 1 Hz epochs (about 14 kB
    /// of JSON). A 5 km movement trigger hears of a car at 130 km/h 360 m late at worst.
    public static let headlessWindowS = 10.0

    /// The receiver's report interval, as a read that brought `fixes` fixes shows it: the time since the
    /// previous read that brought fixes over the fixes that came meanwhile, or (on the first read)
    /// 0 for several fixes at once, which only a fast receiver sends; nil while unknown. The one rule
    /// for the gather window and for the receiver's silence (`ReceiverSilence`).
    public static func reportIntervalS(fixes: Int, sincePreviousFixReadS: Double?) -> Double? {
        guard fixes > 0 else { return nil }
        if let since = sincePreviousFixReadS, since.isFinite, since >= 0 { return since / Double(fixes) }
        return fixes >= 2 ? 0 : nil
    }

    /// The seconds to leave gpsd's socket unread after a read, or nil to read the next report as it
    /// comes.
    /// - Parameters:
    ///   - fixes: fixes the read brought;
    ///   - lostFix: the read held a report that the receiver has no fix;
    ///   - connected: the connection is still open after the read;
    ///   - sincePreviousFixReadS: seconds since the previous read that brought fixes (nil: none yet);
    ///   - timed: every fix of the read has the receiver's time;
    ///   - headless: no live screen shows the fixes.
    public static func windowS(
        fixes: Int, lostFix: Bool, connected: Bool, sincePreviousFixReadS: Double?, timed: Bool, headless: Bool
    ) -> Double? {
        guard connected, fixes > 0, !lostFix,
            let interval = reportIntervalS(fixes: fixes, sincePreviousFixReadS: sincePreviousFixReadS)
        else { return nil }
        if interval < fastReportIntervalS { return fastWindowS }
        return headless && timed ? headlessWindowS : nil
    }

    /// The window after a read that brought no fix and said the receiver has none, or nil.
    /// - Parameters:
    ///   - lostBefore: the read before said so too (the loss was acted on at once, then);
    ///   - fixAwaited: a reading waits on the next fix (the startup wait, a resume reading's wait);
    ///   - headless: no live screen shows the fixes.
    public static func fixlessWindowS(lostBefore: Bool, fixAwaited: Bool, connected: Bool, headless: Bool) -> Double? {
        guard connected, headless, lostBefore, !fixAwaited else { return nil }
        return headlessWindowS
    }
}
