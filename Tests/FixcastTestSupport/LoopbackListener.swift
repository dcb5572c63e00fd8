import Foundation

/// A TCP socket listening on 127.0.0.1 at a free port, that never accepts: what the kernel does with
/// a connection to it is the listen backlog's business (the tests' silent and unanswered ports).
enum LoopbackListener {
    /// The listening socket and its port; the caller closes the socket.
    static func open(backlog: Int32) throws -> (fd: Int32, port: UInt16) {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, len) }
        }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) }
        }
        guard s >= 0, bound == 0, listen(s, backlog) == 0 else {
            if s >= 0 { close(s) }
            throw MosquittoBroker.BrokerError("no loopback listener")
        }
        return (s, UInt16(bigEndian: addr.sin_port))
    }
}
