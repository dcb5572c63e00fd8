import FoundationEssentials

/// Decides, while waiting for one position for `fixcast now`, whether to deliver a fix, keep
/// waiting, pause before a retry, or give up and fall back to the last known position (DESIGN.md §1).
///
/// Each attempt waits `timeoutS` (8 s: long enough for a warm receiver, short enough to answer).
/// After a timeout it pauses `retryDelayS` and tries again, at most `retries` times (2: "if there is
/// still no fix after them, the problem isn't time"). gpsd refusing the first connection is a
/// fall-back at once — no amount of waiting makes a stopped daemon answer — and so is a first attempt
/// that ends without any connection. A connection lost after it worked is waited out inside the
/// attempts, because the client reconnects by itself.
///
/// Pure: the driver feeds events with `now` and arms a timer for each `.waitUntil`, sending `.tick`
/// when it fires.
public struct FixWaitPolicy: Sendable, Hashable {
    public struct Limits: Sendable, Hashable {
        public var timeoutS: Double
        public var retries: Int
        /// The short pause before a retry.
        public var retryDelayS: Double

        public init(timeoutS: Double = 8, retries: Int = 2, retryDelayS: Double = 1) {
            self.timeoutS = max(0, timeoutS)
            self.retries = max(0, retries)
            self.retryDelayS = max(0, retryDelayS)
        }

        /// `gps.fix_timeout_s` and `gps.fix_retries` from the settings.
        public init(_ gps: Settings.GPS, retryDelayS: Double = 1) {
            self.init(timeoutS: gps.fixTimeoutS, retries: gps.fixRetries, retryDelayS: retryDelayS)
        }

        /// The first try plus the retries.
        public var attempts: Int { retries + 1 }
    }

    public enum Event: Sendable, Hashable {
        /// The connection to gpsd is up (again).
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
        case waitUntil(Date)
        /// Done: use this fix.
        case deliver(Fix)
        /// Done: no fix; use the last known position if one is stored (`resolve`).
        case fallBack(FixWaitFailure)
        /// Done already; the event changes nothing.
        case finished
    }

    public enum Phase: Sendable, Hashable {
        case notStarted
        case waiting(attempt: Int, deadline: Date)
        case pausing(nextAttempt: Int, until: Date)
        case done
    }

    public let limits: Limits
    public private(set) var phase: Phase = .notStarted
    public private(set) var isConnected = false
    public private(set) var wasEverConnected = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Starts the first attempt.
    public mutating func start(now: Date) -> Decision {
        guard case .notStarted = phase else { return current }
        let deadline = now.addingTimeInterval(limits.timeoutS)
        phase = .waiting(attempt: 1, deadline: deadline)
        return .waitUntil(deadline)
    }

    public mutating func handle(_ event: Event, now: Date) -> Decision {
        if case .notStarted = phase { _ = start(now: now) }
        if case .done = phase { return .finished }
        switch event {
        case .connected:
            isConnected = true
            wasEverConnected = true
            return current
        case .connectionLost:
            isConnected = false
            return current
        case .unreachable:
            isConnected = false
            if !wasEverConnected { return finish(.fallBack(.unreachable)) }
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

    private mutating func tick(now: Date) -> Decision {
        switch phase {
        case .waiting(let attempt, let deadline):
            guard now >= deadline else { return .waitUntil(deadline) }
            // A whole attempt without even a connection (a remote host that swallows the connect):
            // gpsd is unreachable, and retrying the wait would only make the person wait longer.
            if !wasEverConnected { return finish(.fallBack(.unreachable)) }
            if attempt >= limits.attempts {
                let failure: FixWaitFailure =
                    isConnected
                    ? .noFix(attempts: limits.attempts, timeoutS: limits.timeoutS)
                    : .connectionLost(attempts: limits.attempts, timeoutS: limits.timeoutS)
                return finish(.fallBack(failure))
            }
            let until = now.addingTimeInterval(limits.retryDelayS)
            phase = .pausing(nextAttempt: attempt + 1, until: until)
            return .waitUntil(until)
        case .pausing(let next, let until):
            guard now >= until else { return .waitUntil(until) }
            let deadline = now.addingTimeInterval(limits.timeoutS)
            phase = .waiting(attempt: next, deadline: deadline)
            return .waitUntil(deadline)
        case .notStarted, .done:
            return current
        }
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

    /// What to do once no fix came: the stored position, marked last-known with its original
    /// `obtainedAt` (so its age shows), or the failure itself when nothing is stored.
    public static func resolve(_ failure: FixWaitFailure, lastKnown: Position?) -> FixWaitResolution {
        guard var position = lastKnown else { return .failed(failure) }
        position.source = .lastKnown
        return .lastKnown(position, because: failure)
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

/// The end of a wait without a fix.
public enum FixWaitResolution: Sendable, Hashable {
    case lastKnown(Position, because: FixWaitFailure)
    case failed(FixWaitFailure)
}
