/// Decides how the agent's loop treats gpsd's socket: when to read it, when to leave its reports to
/// gather (`ReportGathering`), when to connect again after gpsd went away (`ReconnectBackoff`), when
/// a receiver that went quiet has lost its fix (`ReceiverSilence`), and when the counts of
/// implausible fixes go to the store (`RejectedFixSaveGate`). Owned by
/// `AgentReducer`; driven by monotonic instants, so a wall clock set at the first fix moves nothing.
public struct GPSDLink: Sendable, Hashable {
    /// How the loop polls gpsd's socket now.
    public enum Watch: Sendable, Hashable {
        /// For reports: read each as it comes.
        case reports
        /// For a hang-up only (POLLRDHUP): reports are left to gather; gpsd going away wakes the loop
        /// at once, and the loop reads what waits then sees the end.
        case hangUpOnly
    }

    /// No one looks at the fixes as they come (`run --json`, no terminal): a slow receiver's reports
    /// may gather for `ReportGathering.headlessWindowS`.
    public var headless: Bool
    /// While set, reports gather in the socket until then.
    public private(set) var quietUntil: MonotonicInstant?
    /// When the next connection attempt is due (nil: connected, or an attempt is under way).
    public private(set) var reconnectAt: MonotonicInstant?
    /// 5 s for gpsd to answer a connection it took (its VERSION, sent at once): gpsd busy opening a
    /// device is back in its loop within a second or two; what takes a connection and says nothing
    /// gpsd says (another program on its port, a gpsd that hangs) is not gpsd answering, and is
    /// dropped, before the first fix wait (`gps.fix_timeout_s`, 8 s) would call it a missing fix.
    public static let answerTimeoutS = 5.0
    /// When the connection opened last must have answered by (nil: none waiting for its answer).
    public private(set) var answerDueAt: MonotonicInstant?
    private var backoff = ReconnectBackoff()
    /// When the last read that brought fixes happened.
    private var lastFixReadAt: MonotonicInstant?
    /// What the read under way brought so far (`saw`), for its gather window.
    private var fixes = 0
    private var lostFix = false
    private var timed = true
    /// The last read that brought a fix or a report of none brought the latter (`ReportGathering.fixlessWindowS`).
    private var lastReadFixless = false
    private var rejectedGate = RejectedFixSaveGate()
    /// How long the receiver may go without a fix read before its fix counts as lost.
    public private(set) var silence = ReceiverSilence()
    /// The connection's total of rejected fixes, as of the last read.
    private var rejectedTotal = RejectedFixCounts()

    public init(headless: Bool) {
        self.headless = headless
    }

    public var watch: Watch { quietUntil == nil ? .reports : .hangUpOnly }

    /// Reports are gathering.
    public var isGathering: Bool {
        if case .none = quietUntil { return false }
        return true
    }

    /// The earliest of the gather window's end, the next connection attempt and, while reports are
    /// read as they come, when the receiver's silence would count (a gather window's read decides
    /// first: it may bring the fixes).
    public var nextDeadline: MonotonicInstant? {
        let link = linkDeadline
        guard let answer = answerDueAt else { return link }
        return link.map { min($0, answer) } ?? answer
    }

    private var linkDeadline: MonotonicInstant? {
        switch (quietUntil, reconnectAt) {
        case (let q?, let r?): return min(q, r)
        case (let q?, nil): return q
        case (nil, let r?):
            guard let s = silence.deadline else { return r }
            return min(r, s)
        case (nil, nil): return silence.deadline
        }
    }

    /// One event of the read under way (or of a connection attempt).
    public mutating func saw(_ event: GPSEvent, at now: MonotonicInstant) {
        quietUntil = nil  // a read (or an attempt) is under way: whatever gathered is being read
        switch event {
        case .fix(let fix):
            fixes += 1
            if fix.time == nil { timed = false }
        case .noFix:
            lostFix = true
            silence.noFix(connectionEnded: false)
        case .opened:
            reconnectAt = nil  // the attempt is under way; the back-off stands until gpsd answers
            answerDueAt = now.advanced(by: Self.answerTimeoutS)
        case .connected:
            backoff.reset()
            reconnectAt = nil
            answerDueAt = nil
        case .disconnected:
            answerDueAt = nil
            quietUntil = nil
            lastFixReadAt = nil
            lastReadFixless = false
            silence.noFix(connectionEnded: true)
            reconnectAt = now.advanced(by: backoff.nextDelay())
        case .device, .satellites:
            break
        }
    }

    /// A read ended (`connected`: the connection is still open; `rejected`: the connection's total
    /// of rejected fixes). Sets the next gather window; the counts to add to the store, if due.
    public mutating func readEnded(
        connected: Bool, rejected: RejectedFixCounts, fixAwaited: Bool = false, at now: MonotonicInstant
    ) -> RejectedFixCounts? {
        quietUntil = nil
        let fixless = fixes == 0 && lostFix
        let window =
            fixless
            ? ReportGathering.fixlessWindowS(
                lostBefore: lastReadFixless, fixAwaited: fixAwaited, connected: connected, headless: headless)
            : ReportGathering.windowS(
                fixes: fixes, lostFix: lostFix, connected: connected,
                sincePreviousFixReadS: lastFixReadAt.map { now.seconds(since: $0) }, timed: timed, headless: headless)
        if let window { quietUntil = now.advanced(by: window) }
        // A read with neither (only satellites, a device) leaves the run of fixless reads as it was.
        if fixes > 0 || lostFix { lastReadFixless = fixless && connected }
        if fixes > 0 {
            let interval = ReportGathering.reportIntervalS(
                fixes: fixes, sincePreviousFixReadS: lastFixReadAt.map { now.seconds(since: $0) })
            silence.fixesRead(intervalS: interval, at: now)
            lastFixReadAt = now
        }
        fixes = 0
        lostFix = false
        timed = true
        return rejectedToSave(rejected, at: now)
    }

    /// Ends a gather window early (a person asked for something, or it ran out): true when one was
    /// under way, and what waits is to be read now.
    public mutating func endGathering() -> Bool {
        guard isGathering else { return false }
        quietUntil = nil
        return true
    }

    /// The machine slept, and woke at `now`: the receiver's silence counts from the wake-up, not from
    /// the last fix before the suspend (the receiver sends again within a second); a gather window
    /// under way ends without reading what it gathered (it came before the suspend or just after it,
    /// and when is unknowable now), and the receiver's rate is learnt anew. True when there was one
    /// (what waits is to be dropped).
    public mutating func resumed(at now: MonotonicInstant) -> Bool {
        silence.resumed(at: now)
        guard endGathering() else { return false }
        lastFixReadAt = nil
        return true
    }

    /// The connection attempt that is due at `now`, if one is (it counts as under way).
    public mutating func connectionDue(at now: MonotonicInstant) -> Bool {
        guard let at = reconnectAt, now >= at else { return false }
        reconnectAt = nil
        return true
    }

    /// Whether the connection opened last has not answered by `now` (true once): it is to be dropped,
    /// and comes back as `.disconnected`, which sets the back-off.
    public mutating func answerOverdue(at now: MonotonicInstant) -> Bool {
        guard let due = answerDueAt, now >= due else { return false }
        answerDueAt = nil
        return true
    }

    /// Whether the receiver's silence counts at `now` (true once, when it begins to). Never during a
    /// gather window: its read, when it ends, may bring the fixes.
    public mutating func silenceDue(at now: MonotonicInstant) -> Bool {
        guard quietUntil == nil else { return false }
        return silence.isDue(at: now)
    }

    /// Whether the gather window ran out at `now`.
    public func gatheringOver(at now: MonotonicInstant) -> Bool {
        guard let until = quietUntil else { return false }
        return now >= until
    }

    /// What is left unsaved of the rejected counts, at shutdown.
    public mutating func rejectedLeft(at now: MonotonicInstant) -> RejectedFixCounts? {
        rejectedToSave(rejectedTotal, at: now, force: true)
    }

    private mutating func rejectedToSave(
        _ total: RejectedFixCounts, at now: MonotonicInstant, force: Bool = false
    ) -> RejectedFixCounts? {
        rejectedTotal = total
        guard let delta = rejectedGate.toSave(total: total, at: now.seconds, force: force), delta.total > 0 else {
            return nil
        }
        return delta
    }
}
