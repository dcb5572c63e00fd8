import Foundation
import Synchronization
import FixcastCore
@testable import Fixcast

/// A last-known store in memory, for tests (the SQLite one is tested with the store).
actor InMemoryLastKnownStore: LastKnownPositionStore {
    private(set) var stored: Position?
    private(set) var saves = 0

    init(_ position: Position? = nil) { stored = position }

    func lastKnownPosition() async throws(StorageError) -> Position? { stored }

    func saveLastKnownPosition(_ position: Position) async throws(StorageError) {
        stored = position
        saves += 1
    }
}

/// Records a client's events as they come, so a test can wait for the one it needs.
final class EventRecorder: Sendable {
    private final class Box: Sendable {
        let seen = Mutex<[GPSEvent]>([])
        let finished = Mutex(false)
    }
    private let box = Box()
    private let task: Task<Void, Never>

    init(_ client: GPSDClient) {
        let box = self.box
        task = Task {
            for await e in client.events { box.seen.withLock { $0.append(e) } }
            box.finished.withLock { $0 = true }
        }
    }

    var events: [GPSEvent] { box.seen.withLock { $0 } }
    var isFinished: Bool { box.finished.withLock { $0 } }

    /// Waits (up to a generous guard time, only so a broken build cannot hang) for an event matching `match`.
    @discardableResult
    func wait(seconds: Double = 20, after index: Int = 0, for match: (GPSEvent) -> Bool) async -> GPSEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let e = events.dropFirst(index).first(where: match) { return e }
            if isFinished { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    func waitForEnd(seconds: Double = 5) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isFinished { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    deinit { task.cancel() }
}

struct UnsafeTransfer<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension GPSEvent {
    var fix: Fix? {
        if case .fix(let f) = self { return f }
        return nil
    }
    var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }
    var disconnection: GPSError? {
        if case .disconnected(let e) = self { return e }
        return nil
    }
}

/// Feeds a log on a thread of its own (the test goes on listening meanwhile).
func feedInBackground(_ gpsd: GPSDOnPTY, _ log: ReceiverLog, pause: Double = 0.003) -> Task<Void, Never> {
    let box = UnsafeTransfer((gpsd, log))
    return Task.detached { box.value.0.feed(box.value.1, pause: pause) }
}
