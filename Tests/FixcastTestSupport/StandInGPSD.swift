import Foundation
import Synchronization

/// A loopback port where something other than a working gpsd listens, for what fixcast makes of it.
/// It takes every connection and, as `behaviour` says, closes it at once without a byte (another
/// program on gpsd's port, a proxy with nothing behind it), sends chosen lines and holds it, or says
/// nothing for a while and then sends
/// gpsd's VERSION banner and keeps the connection open without a fix (gpsd busy opening a device: its
/// one thread is not back in its loop to greet the new client yet). Counts the connections it took.
final class StandInGPSD: @unchecked Sendable {
    enum Behaviour {
        case closesAtOnce
        case greetsAfter(TimeInterval)
        /// Sends these lines (CR LF after each) at once and keeps the connection open: another
        /// program's banner on gpsd's port, or gpsd's own objects chosen by a test.
        case sends([String])
    }

    let port: UInt16
    private let listener: Int32
    private let taken = Mutex<[Int32]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ behaviour: Behaviour) throws {
        (listener, port) = try LoopbackListener.open(backlog: 16)
        let fd = listener
        Thread.detachNewThread { [self] in
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { break }  // shut down: the test is over
                switch behaviour {
                case .closesAtOnce:
                    close(c)
                    taken.withLock { $0.append(-1) }
                case .sends(let lines):
                    taken.withLock { $0.append(c) }
                    let text = lines.map { $0 + "\r\n" }.joined()
                    _ = text.withCString { send(c, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                case .greetsAfter(let delay):
                    taken.withLock { $0.append(c) }
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: delay)
                        let banner =
                            "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\r\n"
                        _ = banner.withCString { send(c, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                    }
                }
            }
            done.signal()
        }
    }

    /// The connections taken so far.
    var connections: Int { taken.withLock { $0.count } }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = done.wait(timeout: .now() + 5)
        close(listener)
        for c in taken.withLock({ $0 }) where c >= 0 { close(c) }
    }
}
