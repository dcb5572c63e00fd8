import FixcastCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Real gpsd for integration tests, two ways (NOTES.md):
// - `GPSDOnPTY`: `gpsd -N -n -b` reading a pseudo-terminal of the test's own; the test connects its
//   client first and then writes the log into the pty, so nothing is lost to a late connection.
//   Deterministic; used where the first fix matters and for kill/restart.
// - `GPSFake`: `/usr/bin/gpsfake` looping a log (good when any part of the log will do).
// Both listen on a free loopback port and stop everything they started, by PID, with SIGKILL after
// a grace period (gpsfake can ignore SIGTERM; SIGINT runs its cleanup).

enum GPSDHarnessError: Error, CustomStringConvertible {
    case pty(String)
    case notListening(port: UInt16, what: String)
    var description: String {
        switch self {
        case .pty(let s): return "pty: \(s)"
        case .notListening(let p, let w): return "\(w) did not listen on 127.0.0.1:\(p)"
        }
    }
}

/// gpsd on a pty owned by the test.
final class GPSDOnPTY: @unchecked Sendable {
    let port: UInt16
    let slavePath: String
    private let master: Int32
    private let slave: Int32
    private var gpsd: Process?
    /// Guards `isOpen`: a feeder still running after `stop()` must not write into a reused descriptor.
    private let lock = NSLock()
    private var isOpen = true
    private let logFile: String

    init(port: UInt16 = freeLoopbackPort()) throws {
        self.port = port
        // posix_openpt/unlockpt/ptsname are not visible to Swift: do what they do, on /dev/ptmx.
        let m = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard m >= 0 else { throw GPSDHarnessError.pty("cannot open /dev/ptmx") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // Linux's TIOCSPTLCK = _IOW('T', 0x31, int) and TIOCGPTN = _IOR('T', 0x30, unsigned int).
        guard ioctl(m, 0x4004_5431, &unlock) == 0, ioctl(m, 0x8004_5430, &number) == 0 else {
            close(m)
            throw GPSDHarnessError.pty("cannot unlock the pseudo-terminal")
        }
        master = m
        slavePath = "/dev/pts/\(number)"
        // Hold the slave open (raw, no echo) so the pty survives gpsd being killed and restarted.
        slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(m)
            throw GPSDHarnessError.pty("cannot open \(slavePath)")
        }
        var tio = termios()
        tcgetattr(slave, &tio)
        cfmakeraw(&tio)
        tcsetattr(slave, TCSANOW, &tio)
        logFile = TestPaths.temporaryDirectory("gpsd-\(port)").appendingPathComponent("gpsd.log").path
        TestScratch.atEnd { [weak self] in self?.stop() }
        try startGPSD()
    }

    /// Starts gpsd (again) on the same pty and port.
    func startGPSD() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
        p.arguments = ["-N", "-n", "-b", "-S", String(port), slavePath]
        p.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: logFile) ?? FileHandle.nullDevice
        try p.run()
        gpsd = p
        guard waitForListening(port: port, seconds: 10) else {
            killGPSD()
            let said = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            throw GPSDHarnessError.notListening(port: port, what: "gpsd (it said: \(said.suffix(500)))")
        }
        // Let gpsd drop the probe connection, so `waitForClient` sees only real clients.
        Thread.sleep(forTimeInterval: 0.2)
    }

    /// SIGKILL gpsd (a crash, as far as its clients can tell); the pty stays.
    func killGPSD() {
        guard let p = gpsd else { return }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
        gpsd = nil
    }

    /// Waits until a TCP client is connected to gpsd (seen in /proc/net/tcp*) and gpsd has the pty
    /// open (it activates the device when the first client watches), then lets gpsd settle: data
    /// written while it is still setting the line up is flushed away.
    @discardableResult
    func waitForClient(count: Int = 1, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if establishedConnections(toPort: port) >= count, gpsdHasPTYOpen() {
                Thread.sleep(forTimeInterval: 0.7)
                return true
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if let pid = gpsd?.processIdentifier {
            let dir = "/proc/\(pid)/fd"
            let links = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).map {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/\($0)")) ?? "?"
            }
            print(
                "waitForClient failed: port \(port) established \(establishedConnections(toPort: port)) pty \(slavePath) fds \(links)"
            )
        }
        return false
    }

    private func gpsdHasPTYOpen() -> Bool {
        guard let pid = gpsd?.processIdentifier else { return false }
        let dir = "/proc/\(pid)/fd"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return fds.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/\($0)")) == slavePath
        }
    }

    /// Writes raw bytes into the receiver side of the pty.
    func write(_ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { return }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Feeds a log: text lines one at a time, binary data in small chunks, `pause` seconds apart.
    func feed(_ log: ReceiverLog, pause: Double = 0.003) {
        for chunk in log.chunks where isStillOpen {
            write(chunk)
            Thread.sleep(forTimeInterval: pause)
        }
    }

    private var isStillOpen: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isOpen
    }

    func stop() {
        killGPSD()
        lock.lock()
        defer { lock.unlock() }
        guard isOpen else { return }
        isOpen = false
        close(slave)
        close(master)
        try? FileManager.default.removeItem(atPath: logFile)
    }

    deinit { stop() }
}

/// `/usr/bin/gpsfake` replaying a log in a loop (no `-1`, so it never runs dry) on a free port.
final class GPSFake: @unchecked Sendable {
    let port: UInt16
    private let process: Process

    init(log path: String, cycle: Double = 0.02, port: UInt16 = freeLoopbackPort()) throws {
        self.port = port
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["/usr/bin/gpsfake", "-q", "-P", String(port), "-c", String(cycle), "-W", "2", path]
        // gpsfake puts its gpsd's control socket in TMPDIR and leaves it when stopped: the test's folder.
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = TestPaths.temporaryDirectory("gpsfake").path
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        TestScratch.atEnd { [weak self] in self?.stop() }
        guard waitForListening(port: port, seconds: 15) else {
            stop()
            throw GPSDHarnessError.notListening(port: port, what: "gpsfake")
        }
    }

    /// SIGINT, a short grace, then SIGKILL for gpsfake and every process it started (its gpsd).
    /// SIGINT rather than SIGTERM: Python dies on SIGTERM at once, orphaning gpsd, while SIGINT runs
    /// gpsfake's cleanup, which stops and reaps its gpsd.
    private var stopped = false

    func stop() {
        guard !stopped else { return }
        stopped = true
        let pid = process.processIdentifier
        let family = descendants(of: pid)
        if process.isRunning { kill(pid, SIGINT) }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        for child in family + descendants(of: pid) { kill(child, SIGKILL) }
    }

    deinit { stop() }
}

/// A receiver log split the way it is fed: header comments dropped, NMEA line by line, binary in
/// 64-byte chunks (gpsd's packet lexer reassembles them).
struct ReceiverLog {
    let chunks: [[UInt8]]
    let isText: Bool

    init(path: String) throws {
        var data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // Leading `#` comment lines.
        while data.first == UInt8(ascii: "#"), let nl = data.firstIndex(of: 10) {
            data.removeSubrange(0...nl)
        }
        isText = data.allSatisfy { $0 == 10 || $0 == 13 || (32..<127).contains($0) }
        if isText {
            chunks = data.split(separator: 10).filter { $0.first != UInt8(ascii: "#") }.map { Array($0) + [10] }
        } else {
            chunks = stride(from: 0, to: data.count, by: 64).map { Array(data[$0..<min($0 + 64, data.count)]) }
        }
    }

    /// The NMEA lines of a text log.
    var lines: [String] {
        chunks.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}

/// Positions read straight from NMEA, independently of gpsd and of fixcast's code: what the test expects.
enum NMEAReference {
    /// The first position that a GGA sentence marks as fixed: quality > 0 with at least one satellite
    /// in use (a GGA claiming a fix from 0 satellites is not one; gpsd agrees).
    static func firstFixedPosition(in lines: [String]) -> (lat: Double, lon: Double)? {
        for line in lines {
            guard let star = line.firstIndex(of: "*") else { continue }
            let f = line[..<star].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let tag = f.first, tag.count == 6 else { continue }
            let type = tag.suffix(3)
            if type == "GGA", f.count > 7, let q = Int(f[6]), q > 0, let used = Int(f[7]), used > 0,
                let lat = degrees(f[2], f[3]), let lon = degrees(f[4], f[5])
            {
                return (lat, lon)
            }
        }
        return nil
    }

    /// Every position that a GGA sentence marks as fixed (as `firstFixedPosition`), in order.
    static func fixedPositions(in lines: [String]) -> [(lat: Double, lon: Double)] {
        lines.compactMap { firstFixedPosition(in: [$0]) }
    }

    /// The first position fixcast uses from a log recorded more than a day before the test runs: the
    /// fixes are dated years from the clock, so `FixPlausibility` holds them until
    /// `agreeingFixes` of them agree, and the first one used is that many fixes in.
    static func firstUsedPositionOfAnOldLog(in lines: [String]) -> (lat: Double, lon: Double)? {
        let fixed = fixedPositions(in: lines)
        let index = FixPlausibility.agreeingFixes - 1
        return fixed.indices.contains(index) ? fixed[index] : nil
    }

    /// The UTC times of the RMC sentences that report a fix (status A, with a date), in order.
    static func fixedRMCTimes(in lines: [String]) -> [Date] {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return lines.compactMap { line -> Date? in
            guard let star = line.firstIndex(of: "*") else { return nil }
            let f = line[..<star].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > 9, f[0].hasSuffix("RMC"), f[2] == "A", f[1].count >= 6, f[9].count == 6,
                let hms = Int(f[1].prefix(6)), let dmy = Int(f[9])
            else { return nil }
            let parts = DateComponents(
                year: 2000 + dmy % 100, month: dmy / 100 % 100, day: dmy / 10_000,
                hour: hms / 10_000, minute: hms / 100 % 100, second: hms % 100)
            return utc.date(from: parts)
        }
    }

    /// Whether a sentence carries a calendar date: an RMC with its date field, or a ZDA with day, month, year.
    static func carriesDate(_ line: String) -> Bool {
        guard let star = line.firstIndex(of: "*") else { return false }
        let f = line[..<star].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let tag = f.first, tag.count == 6 else { return false }
        switch tag.suffix(3) {
        case "RMC": return f.count > 9 && f[9].count == 6
        case "ZDA": return f.count > 4 && !f[2].isEmpty && !f[3].isEmpty && !f[4].isEmpty
        default: return false
        }
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` with its hemisphere letter to signed decimal degrees.
    static func degrees(_ value: String, _ hemisphere: String) -> Double? {
        guard let v = Double(value), let dot = value.firstIndex(of: ".") else { return nil }
        let degreeDigits = value.distance(from: value.startIndex, to: dot) - 2
        guard degreeDigits >= 1 else { return nil }
        let deg = Double(value.prefix(degreeDigits)) ?? 0
        let minutes = v - deg * 100
        let d = deg + minutes / 60
        switch hemisphere {
        case "N", "E": return d
        case "S", "W": return -d
        default: return nil
        }
    }
}

/// True once something accepts TCP connections on 127.0.0.1:port.
func waitForListening(port: UInt16, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        close(fd)
        if rc == 0 { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return false
}

/// Established TCP connections whose local port is `port` (gpsd's side of a client connection).
func establishedConnections(toPort port: UInt16) -> Int {
    var count = 0
    let hexPort = String(format: ":%04X", port)
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let text = readProcFile(table) else { continue }
        for line in text.split(separator: "\n").dropFirst() {
            let cols = line.split(separator: " ")
            guard cols.count > 3 else { continue }
            if cols[1].hasSuffix(hexPort), cols[3] == "01" { count += 1 }
        }
    }
    return count
}

/// The whole of a /proc file (they report size 0, so read until EOF rather than trusting the size).
func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// PIDs whose parent chain leads to `pid` (from /proc/*/stat).
func descendants(of pid: Int32) -> [Int32] {
    var parent: [Int32: Int32] = [:]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
        guard let p = Int32(entry),
            let stat = readProcFile("/proc/\(entry)/stat"),
            let close = stat.lastIndex(of: ")")
        else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let pp = Int32(fields[1]) { parent[p] = pp }
    }
    var result: [Int32] = []
    var frontier = [pid]
    while let current = frontier.popLast() {
        for (child, pp) in parent where pp == current {
            result.append(child)
            frontier.append(child)
        }
    }
    return result
}
