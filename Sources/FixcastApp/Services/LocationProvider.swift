import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// The result of asking for the current position: the position (live, or last-known with its age),
/// the notes to show beside it, and the error when there is no position at all.
public struct LocationOutcome: Sendable, Hashable {
    public var position: Position?
    /// Things the person should know even though a position was had (e.g. "using the last known position").
    public var issues: [ReadingIssue]
    /// Why there is no position; nil whenever `position` is set.
    public var error: GPSError?
    /// Fixes dropped as implausible while waiting (`FixPlausibility`), for the store's totals.
    public var rejectedFixes = RejectedFixCounts()

    public init(position: Position?, issues: [ReadingIssue] = [], error: GPSError? = nil) {
        self.position = position
        self.issues = issues
        self.error = error
    }
}

/// One position for `fixcast forecast` and `alerts` (`now` is a one-reading run of the agent): waits for a fix from gpsd, retries, and falls back to the last
/// known position, as `FixWaitPolicy` decides (DESIGN.md §1). Every live fix is saved as the new
/// last-known position.
///
/// This type only drives the policy: it runs a `GPSDClient`, arms a timer for each `.waitUntil`, and
/// talks to the store. The decisions are all in `FixWaitPolicy`. A retry keeps the same gpsd
/// connection (the client reconnects by itself if gpsd went away): for gpsd, "ask again" means
/// "listen for another window", since the receiver streams whatever it has.
public struct LocationProvider: Sendable {
    public let address: GPSDAddress
    public let limits: FixWaitPolicy.Limits
    public let store: (any LastKnownPositionStore)?
    public let clock: any WallClock
    public let reconnect: ReconnectBackoff
    /// `gps.max_speed_mps`: fixes implying a faster jump are held (`FixPlausibility`).
    public let maxSpeedMps: Double

    public init(
        address: GPSDAddress, limits: FixWaitPolicy.Limits = FixWaitPolicy.Limits(),
        store: (any LastKnownPositionStore)?, clock: any WallClock = SystemClock(),
        reconnect: ReconnectBackoff = ReconnectBackoff(), maxSpeedMps: Double = FixPlausibility.defaultMaxSpeedMps
    ) {
        self.maxSpeedMps = maxSpeedMps
        self.address = address
        self.limits = limits
        self.store = store
        self.clock = clock
        self.reconnect = reconnect
    }

    /// From the `[gps]` settings (`fix_timeout_s`, `fix_retries`, `max_speed_mps`).
    public init(
        settings: Settings.GPS, address: GPSDAddress, store: (any LastKnownPositionStore)?,
        clock: any WallClock = SystemClock()
    ) {
        self.init(
            address: address, limits: FixWaitPolicy.Limits(settings), store: store, clock: clock,
            maxSpeedMps: settings.maxSpeedMps)
    }

    private enum Input: Sendable {
        case event(GPSEvent)
        case tick
    }

    public func currentPosition() async -> LocationOutcome {
        let client = GPSDClient(address: address, clock: clock, backoff: reconnect, maxSpeedMps: maxSpeedMps)
        var outcome = await currentPosition(from: client)
        outcome.rejectedFixes = client.rejectedFixes
        return outcome
    }

    private func currentPosition(from client: GPSDClient) async -> LocationOutcome {
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .unbounded)
        client.start()
        let forwarder = ThreadExecutor.tasks.startTask {
            for await batch in client.events {
                for event in batch { feed.yield(.event(event)) }
            }
        }
        var timer: Task<Void, Never>?
        var armedFor: MonotonicInstant?
        defer {
            timer?.cancel()
            forwarder.cancel()
            client.stop()
            feed.finish()
        }

        var policy = FixWaitPolicy(limits: limits)
        // The wait's deadlines are monotonic: a wall clock set at the first fix moves none of them.
        var decision = policy.start(now: Self.monotonicNow())
        var iterator = inputs.makeAsyncIterator()
        waiting: while true {
            switch decision {
            case .waitUntil(let deadline):
                if armedFor != deadline {
                    armedFor = deadline
                    timer?.cancel()
                    let delay = max(0, deadline.seconds(since: Self.monotonicNow()))
                    timer = ThreadExecutor.tasks.startTask {
                        await ThreadExecutor.tasks.sleep(seconds: delay)
                        if !Task.isCancelled { feed.yield(.tick) }
                    }
                }
                guard let input = await iterator.next() else { break waiting }
                guard let event = Self.policyEvent(input) else { continue }
                decision = policy.handle(event, now: Self.monotonicNow())
            case .deliver(let fix):
                return await delivered(fix)
            case .fallBack(let failure):
                return await fellBack(failure)
            case .finished:
                break waiting
            }
        }
        // The stream ended without a decision (cancelled): treat it as the last attempt running out.
        return await fellBack(
            policy.wasEverConnected ? .noFix(attempts: limits.attempts, timeoutS: limits.timeoutS) : .unreachable)
    }

    private static func monotonicNow() -> MonotonicInstant {
        MonotonicInstant(seconds: Syscall.monotonicSeconds())
    }

    private static func policyEvent(_ input: Input) -> FixWaitPolicy.Event? {
        switch input {
        case .tick: return .tick
        case .event(.connected): return .connected
        case .event(.fix(let fix)): return .fix(fix)
        case .event(.disconnected(let error)):
            switch error {
            case .unreachable, .watchRefused: return .unreachable
            default: return .connectionLost
            }
        case .event: return nil
        }
    }

    private func delivered(_ fix: Fix) async -> LocationOutcome {
        let position = Position(fix: fix, source: .gps)
        var issues: [ReadingIssue] = []
        if let store {
            do { try await store.saveLastKnownPosition(position) } catch { issues.append(ReadingIssue(error)) }
        }
        return LocationOutcome(position: position, issues: issues)
    }

    private func fellBack(_ failure: FixWaitFailure) async -> LocationOutcome {
        var issues: [ReadingIssue] = []
        var lastKnown: Position?
        if let store {
            do { lastKnown = try await store.lastKnownPosition() } catch { issues.append(ReadingIssue(error)) }
        }
        let label = address.description
        switch FixWaitPolicy.resolve(failure, lastKnown: lastKnown) {
        case .lastKnown(let position, let why):
            let note = GPSError.fallbackNote(why, address: label, lastKnown: position, now: clock.now())
            issues.insert(ReadingIssue(component: .gps, message: note), at: 0)
            return LocationOutcome(position: position, issues: issues)
        case .failed(let why):
            return LocationOutcome(position: nil, issues: issues, error: GPSError(why, address: label))
        }
    }
}
