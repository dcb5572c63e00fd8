import Foundation
import Synchronization

/// A loopback gpsd that answers late: it takes each connection, says nothing for `delay`, then sends
/// gpsd's VERSION banner and keeps the connection open without a fix, as gpsd does while it is busy
/// opening a device (its one thread is not back in its loop to greet the new client yet).
final class SlowGPSD: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let clients = Mutex<[Int32]>([])
    private let done = DispatchSemaphore(value: 0)

    init(delay: TimeInterval) throws {
        (listener, port) = try LoopbackListener.open(backlog: 16)
        let fd = listener
        Thread.detachNewThread { [self] in
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { break }  // shut down: the test is over
                clients.withLock { $0.append(c) }
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: delay)
                    let banner =
                        "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\r\n"
                    _ = banner.withCString { send(c, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                }
            }
            done.signal()
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = done.wait(timeout: .now() + 5)
        close(listener)
        for c in clients.withLock({ $0 }) { close(c) }
    }
}
