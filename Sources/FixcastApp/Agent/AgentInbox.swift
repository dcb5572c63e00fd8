import FixcastAdapters
import FixcastCore
import Synchronization

/// Events for the agent's loop from other threads (a finished reading, a storage outcome, checked
/// alerts): queued here, then the loop's doorbell is rung so its poll(2) wakes. The loop takes them
/// all at once, in the order they came.
final class AgentInbox: Sendable {
    private let queue = Mutex<[AgentEvent]>([])
    let doorbell: LoopDoorbell

    init(doorbell: LoopDoorbell) {
        self.doorbell = doorbell
    }

    func post(_ event: AgentEvent) {
        queue.withLock { $0.append(event) }
        doorbell.ring()
    }

    func take() -> [AgentEvent] {
        queue.withLock { q in
            defer { q.removeAll() }
            return q
        }
    }
}
