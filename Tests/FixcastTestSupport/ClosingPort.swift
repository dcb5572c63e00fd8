import Foundation
import Synchronization

/// A loopback port that takes every TCP connection and closes it at once, without a byte: what
/// another program on gpsd's port, or a proxy with nothing behind it, does. The connect succeeds, so
/// only what follows tells that no gpsd is there. Counts the connections it took.
final class ClosingPort: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let taken = Mutex(0)
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        (listener, port) = try LoopbackListener.open(backlog: 16)
        let fd = listener
        Thread.detachNewThread { [self] in
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { break }  // shut down: the test is over
                close(c)
                taken.withLock { $0 += 1 }
            }
            done.signal()
        }
    }

    /// The connections taken so far.
    var connections: Int { taken.withLock { $0 } }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = done.wait(timeout: .now() + 5)
        close(listener)
    }
}
