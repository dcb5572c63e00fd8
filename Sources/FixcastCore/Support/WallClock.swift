import FoundationEssentials
import Synchronization

/// Where a decision gets "now". The core never reads the system clock itself, so every time rule
/// (8 s fix timeout, 10 min cache, 30 min refresh, 30 s resume gate) is testable in microseconds.
public protocol WallClock: Sendable {
    func now() -> Date
}

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to; for tests (the idea of NIO's `EmbeddedEventLoop.advanceTime`).
public final class ManualClock: WallClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: Double) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
