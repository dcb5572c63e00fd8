import FoundationEssentials

/// Decides, while waiting for the first position, whether to deliver a fix, keep waiting, pause
/// before a retry, or give up and fall back to the last known position (DESIGN.md §1). The one
/// place this rule lives: the agent's startup wait (through `ReadingScheduler`, for `run` and for
/// `now`, a one-reading run, and `forecast`, `alerts` and `ahead`, one that stops at its position) drives it.
///
/// Each attempt waits `timeoutS` (8 s: long enough for a warm receiver, short enough to answer).
/// After a timeout it pauses `retryDelayS` and tries again, at most `retries` times (2: "if there is
/// still no fix after them, the problem isn't time"). The attempts are laid out from the start of
/// the wait (attempt n times out at `start + (n-1)·(timeoutS + retryDelayS) + timeoutS`), so a late
/// tick — a busy machine, a suspend — lands in the attempt that time says it is, never stretches
/// the wait.
///
/// With `givesUpWhenUnreachable` (the default, for `now`), gpsd refusing the first connection is a
/// fall-back at once — no amount of waiting makes a stopped daemon answer — and so is a first
/// attempt that ends without any connection. `run` turns it off: it lives for hours and gpsd may
/// come up after it (boot order), so it waits the attempts out with gpsd's problem on the status
/// line. A connection lost after it worked is always waited out inside the attempts, because the
/// client reconnects by itself.
///
/// Pure, on monotonic time (a wall clock set at the first fix moves no deadline): the driver feeds
/// events with `now` and arms a timer for each `.waitUntil`, sending `.tick`
/// when it fires.
public struct FixWaitPolicy: Sendable, Hashable {
    /// The one pause between a timed-out attempt and the next, for `now` and `run` alike. A retry is
    /// only another listening window on the same gpsd connection (gpsd streams whatever it has, and
    /// a fix during the pause is taken), so the pause only marks the attempts apart: one second, one
    /// report period of a usual 1 Hz receiver, keeps the whole wait (3 × 8 s + 2 × 1 s = 26 s) close
    /// to the seed's three timeouts.
    public static let retryDelayS: Double = 1

    public struct Limits: Sendable, Hashable {
        public var timeoutS: Double
        public var retries: Int
        /// The short pause before a retry (`FixWaitPolicy.retryDelayS`; other values only in tests).
        public var retryDelayS: Double

        public init(timeoutS: Double = 8, retries: Int = 2, retryDelayS: Double = FixWaitPolicy.retryDelayS) {
            self.timeoutS = max(0, timeoutS)
            self.retries = max(0, retries)
            self.retryDelayS = max(0, retryDelayS)
        }

        /// `gps.fix_timeout_s` and `gps.fix_retries` from the settings.
        public init(_ gps: Settings.GPS, retryDelayS: Double = FixWaitPolicy.retryDelayS) {
            self.init(timeoutS: gps.fixTimeoutS, retries: gps.fixRetries, retryDelayS: retryDelayS)
        }

        /// The first try plus the retries.
        public var attempts: Int { retries + 1 }
    }

    public enum Event: Sendable, Hashable {
        /// A connection is open and waits for gpsd's first report: not unreachable (yet).
        case opened
        /// The connection to gpsd is up (again): gpsd answered on it.
        case connected
        /// A connection attempt failed (gpsd not listening or not answering).
        case unreachable
        /// A working connection was lost.
        case connectionLost
        /// A fix already checked by `TPVFilter`.
        case fix(Fix)
        /// A raw report; checked here (no-fix and bad coordinates are ignored).
        case report(TPVReport, receivedAt: Date)
        /// The timer armed for the last `.waitUntil` fired (early ticks are harmless).
        case tick
    }

    public enum Decision: Sendable, Hashable {
        /// Keep listening; send `.tick` at this time if nothing else decides first.
        case waitUntil(MonotonicInstant)
        /// Done: use this fix.
        case deliver(Fix)
        /// Done: no fix; use the last known position if one is stored (`resolve`).
        case fallBack(FixWaitFailure)
        /// Done already; the event changes nothing.
        case finished
    }

    public enum Phase: Sendable, Hashable {
        case notStarted
        case waiting(attempt: Int, deadline: MonotonicInstant)
        case pausing(nextAttempt: Int, until: MonotonicInstant)
        case done
    }

    public let limits: Limits
    /// Whether an unreachable gpsd ends the wait early (`now`) or is waited out (`run`).
    public let givesUpWhenUnreachable: Bool
    public private(set) var phase: Phase = .notStarted
    /// When the first attempt began (nil before `start`).
    public private(set) var startedAt: MonotonicInstant?
    public private(set) var isConnected = false
    public private(set) var wasEverConnected = false
    /// A connection is open and gpsd has not answered on it yet (busy opening a device, or not gpsd).
    public private(set) var isOpening = false

    public init(limits: Limits = Limits(), givesUpWhenUnreachable: Bool = true) {
        self.limits = limits
        self.givesUpWhenUnreachable = givesUpWhenUnreachable
    }

    /// Starts the first attempt.
    public mutating func start(now: MonotonicInstant) -> Decision {
        guard case .notStarted = phase else { return current }
        startedAt = now
        let deadline = now.advanced(by: limits.timeoutS)
        phase = .waiting(attempt: 1, deadline: deadline)
        return .waitUntil(deadline)
    }

    /// When the driver must send `.tick` next; nil before the start and once done.
    public var deadline: MonotonicInstant? {
        if case .waitUntil(let date) = current { return date }
        return nil
    }

    /// The retry under way or about to start after a pause (1...`retries`), for the status line;
    /// nil during the first attempt, before the start and once done.
    public var retry: Int? {
        switch phase {
        case .waiting(let attempt, _) where attempt > 1: return attempt - 1
        case .pausing(let next, _): return next - 1
        default: return nil
        }
    }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> Decision {
        if case .notStarted = phase { _ = start(now: now) }
        if case .done = phase { return .finished }
        switch event {
        case .opened:
            isOpening = true
            return current
        case .connected:
            isOpening = false
            isConnected = true
            wasEverConnected = true
            return current
        case .connectionLost:
            isOpening = false
            isConnected = false
            return current
        case .unreachable:
            isOpening = false
            isConnected = false
            if !wasEverConnected && givesUpWhenUnreachable { return finish(.fallBack(.unreachable)) }
            return current
        case .fix(let fix):
            return finish(.deliver(fix))
        case .report(let report, let receivedAt):
            guard case .fix(let fix) = TPVFilter.validate(report, receivedAt: receivedAt) else { return current }
            return finish(.deliver(fix))
        case .tick:
            return tick(now: now)
        }
    }

    private mutating func tick(now: MonotonicInstant) -> Decision {
        // `handle` started the wait and returned when it was done: waiting or pausing here.
        guard let start = startedAt else { return current }
        let next = Self.phase(at: now, startedAt: start, limits: limits)
        // A whole attempt without even a connection (a remote host that swallows the connect):
        // gpsd is unreachable, and retrying the wait would only make the person wait longer. A
        // connection that is open and waits for gpsd's first word is waited out: gpsd answers late
        // while it opens a device, and what never answers is "unreachable" when the wait is over.
        let firstAttemptOver: Bool
        if case .waiting(attempt: 1, _) = next { firstAttemptOver = false } else { firstAttemptOver = true }
        if firstAttemptOver, !wasEverConnected, !isOpening, givesUpWhenUnreachable {
            return finish(.fallBack(.unreachable))
        }
        guard next == .done else {
            phase = next
            return current
        }
        let failure: FixWaitFailure =
            !wasEverConnected
            ? .unreachable
            : isConnected
                ? .noFix(attempts: limits.attempts, timeoutS: limits.timeoutS)
                : .connectionLost(attempts: limits.attempts, timeoutS: limits.timeoutS)
        return finish(.fallBack(failure))
    }

    /// Where the attempts laid out from `startedAt` stand at `now`: waiting in attempt n, pausing
    /// before attempt n, or all over (`.done`). A time before the start counts as the start.
    static func phase(at now: MonotonicInstant, startedAt: MonotonicInstant, limits: Limits) -> Phase {
        let period = limits.timeoutS + limits.retryDelayS
        func date(_ offset: Double) -> MonotonicInstant { startedAt.advanced(by: offset) }
        // The attempt window `now` falls in (0-based), the last one taking all that is left; the
        // estimate from seconds is checked against the dates themselves, so a tick sent exactly at
        // a deadline is past it whatever the rounding.
        let elapsed = max(0, now.seconds(since: startedAt))
        var index =
            period > 0
            ? Int(clamping: elapsed / period, to: 0...max(0, limits.retries), rounding: .down) : limits.retries
        if index > 0, now < date(Double(index) * period) { index -= 1 }
        if index < limits.retries, now >= date(Double(index + 1) * period) { index += 1 }
        let deadline = date(Double(index) * period + limits.timeoutS)
        if now < deadline { return .waiting(attempt: index + 1, deadline: deadline) }
        if index >= limits.retries { return .done }
        return .pausing(nextAttempt: index + 2, until: date(Double(index + 1) * period))
    }

    private var current: Decision {
        switch phase {
        case .waiting(_, let deadline): return .waitUntil(deadline)
        case .pausing(_, let until): return .waitUntil(until)
        case .notStarted, .done: return .finished
        }
    }

    private mutating func finish(_ decision: Decision) -> Decision {
        phase = .done
        return decision
    }
}

/// Why no live fix was had.
public enum FixWaitFailure: Sendable, Hashable {
    /// gpsd refused or did not answer the first connection.
    case unreachable
    /// Connected, but no fix in any attempt.
    case noFix(attempts: Int, timeoutS: Double)
    /// Connected at first, then gpsd went away and did not come back in time.
    case connectionLost(attempts: Int, timeoutS: Double)
}
