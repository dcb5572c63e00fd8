import Foundation

/// A loopback port that takes no TCP connection: a listener whose accept queue is full, so the
/// kernel drops every new SYN, as a gpsd host that is switched off or behind a firewall does. A
/// blocking connect(2) to it waits for the kernel's SYN retries (about two minutes).
final class UnansweredPort {
    let port: UInt16
    private let listener: Int32
    private var fillers: [Int32] = []

    init() throws {
        // Backlog 0: Linux queues one connection; the fillers take that place (and more, to be sure).
        (listener, port) = try LoopbackListener.open(backlog: 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let len = socklen_t(MemoryLayout<sockaddr_in>.size)
        for _ in 0..<3 {
            let c = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(c, $0, len) }
            }
            fillers.append(c)
        }
        // Let the handshakes the queue has room for complete before the port is used.
        usleep(200_000)
    }

    deinit {
        for c in fillers { close(c) }
        close(listener)
    }
}
