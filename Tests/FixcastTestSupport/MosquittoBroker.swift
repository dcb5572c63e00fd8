import Foundation

/// A real mosquitto (Debian's /usr/sbin/mosquitto) on a free loopback port, with a config file of
/// its own: persistence off, one listener, anonymous or with a password file, optionally TLS with
/// certificates made by openssl for the test. `stop()` ends it; `start()` brings it back on the
/// same port (for "broker away for 10 s" tests).
final class MosquittoBroker: @unchecked Sendable {
    let port: UInt16
    let dir: URL
    private var process: Process?
    /// With a password file: this user and password.
    let credentials: (user: String, password: String)?
    /// With TLS: the CA certificate that signed the broker's.
    private(set) var caFile: String?

    /// - Parameter port: a port to listen on (default: a free one), e.g. one fixcast was already told to use.
    /// - Parameter extraConfig: more lines for mosquitto.conf (e.g. `max_packet_size 2000\n`).
    /// - Parameter acl: an ACL file's text (mosquitto's `acl_file`); with `credentials` too, anonymous
    ///   clients are let in as well, under the ACL's lines before any `user` line.
    init(
        port: UInt16? = nil, credentials: (user: String, password: String)? = nil, tls: Bool = false,
        acl: String? = nil, extraConfig: String = ""
    ) throws {
        self.port = port ?? freeLoopbackPort()
        let port = self.port
        dir = TestPaths.temporaryDirectory("fixcast-mosquitto")
        self.credentials = credentials
        var conf = "persistence false\nlog_dest stderr\nlistener \(port) 127.0.0.1\n"
        if let credentials {
            let pw = dir.appendingPathComponent("passwd").path
            try Self.runTool("/usr/bin/mosquitto_passwd", ["-c", "-b", pw, credentials.user, credentials.password])
            conf += "allow_anonymous \(acl == nil ? "false" : "true")\npassword_file \(pw)\n"
        } else {
            conf += "allow_anonymous true\n"
        }
        if let acl {
            let file = dir.appendingPathComponent("acl")
            try acl.write(to: file, atomically: true, encoding: .utf8)
            conf += "acl_file \(file.path)\n"
        }
        if tls {
            let ca = try Self.makeCertificates(in: dir)
            caFile = ca
            conf +=
                "cafile \(ca)\ncertfile \(dir.appendingPathComponent("server.crt").path)\nkeyfile \(dir.appendingPathComponent("server.key").path)\n"
        }
        conf += extraConfig
        try conf.write(to: dir.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        TestScratch.atEnd { [weak self] in self?.stop() }
        try start()
    }

    /// Starts the broker and waits until its port accepts connections.
    func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        p.arguments = ["-c", dir.appendingPathComponent("mosquitto.conf").path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.portAccepts(port) { return }
            usleep(20_000)
        }
        throw BrokerError("mosquitto did not start listening on \(port)")
    }

    /// SIGKILL: the test runner starts children with SIGTERM blocked, and a broker without
    /// persistence loses nothing a test relies on.
    func stop() {
        guard let p = process else { return }
        stopProcess(p)
        process = nil
    }

    /// SIGSTOP: the broker keeps its connections but reads and answers nothing (a broker that hangs,
    /// a link that stalls) until `resume()`.
    func pause() {
        if let p = process { kill(p.processIdentifier, SIGSTOP) }
    }

    func resume() {
        if let p = process { kill(p.processIdentifier, SIGCONT) }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dir)
    }

    struct BrokerError: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    static func portAccepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return rc == 0
    }

    @discardableResult
    static func runTool(_ path: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw BrokerError("\(path) failed: \(String(decoding: data, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A CA and a server certificate for 127.0.0.1 signed by it; returns the CA file.
    static func makeCertificates(in dir: URL) throws -> String {
        let ssl = "/usr/bin/openssl"
        func p(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try runTool(
            ssl,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=fixcast test CA",
                "-keyout", p("ca.key"), "-out", p("ca.crt"),
            ])
        try runTool(
            ssl,
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                "-keyout", p("server.key"), "-out", p("server.csr"),
            ])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: p("ext.cnf"), atomically: true, encoding: .utf8)
        try runTool(
            ssl,
            [
                "x509", "-req", "-in", p("server.csr"), "-CA", p("ca.crt"), "-CAkey", p("ca.key"),
                "-CAcreateserial", "-days", "2", "-extfile", p("ext.cnf"), "-out", p("server.crt"),
            ])
        // Started as root, mosquitto drops to its own user before reading the key: let it read this test key.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: p("server.key"))
        return p("ca.crt")
    }
}

/// `mosquitto_sub -v` on a broker, collecting "topic payload" lines until stopped.
final class TopicRecorder: @unchecked Sendable {
    private let process = Process()
    private let file: URL

    /// Subscribes to `topics` (wildcards allowed) and waits until the subscription is in place.
    init(broker: MosquittoBroker, topics: [String], user: String? = nil, password: String? = nil) throws {
        file = broker.dir.appendingPathComponent("sub-\(UUID().uuidString).txt")
        // If it could not be made, opening it for mosquitto_sub's output below throws.
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        var args = ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-v", "-F", "%t\t%p"]
        for t in topics + [readyTopic] { args += ["-t", t] }
        if let user { args += ["-u", user] }
        var env = ProcessInfo.processInfo.environment
        // mosquitto_sub takes a password only in argv: this is the test subscriber's own throwaway
        // test password, never fixcast's (fixcast never puts one in argv).
        if let password { args += ["-P", password] }
        env["HOME"] = broker.dir.path
        process.environment = env
        process.arguments = args
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        TestScratch.own(process)
        // Ready when a probe published to our own topic comes back (a loaded machine can take seconds).
        var pubArgs = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", readyTopic, "-m", "ready"]
        if let user { pubArgs += ["-u", user] }
        if let password { pubArgs += ["-P", password] }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            _ = try? MosquittoBroker.runTool("/usr/bin/mosquitto_pub", pubArgs)
            if allMessages.contains(where: { $0.topic == readyTopic }) { return }
            usleep(100_000)
        }
        throw MosquittoBroker.BrokerError("mosquitto_sub did not receive its probe")
    }

    private let readyTopic = "fixcast-test/ready/\(UUID().uuidString)"

    /// Every (topic, payload) received so far, in order.
    var messages: [(topic: String, payload: String)] { allMessages.filter { $0.topic != readyTopic } }

    private var allMessages: [(topic: String, payload: String)] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { (line: Substring) -> (topic: String, payload: String)? in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }

    /// Payloads on `topic`, in order.
    func payloads(on topic: String) -> [String] { messages.filter { $0.topic == topic }.map(\.payload) }

    /// Waits until `condition` holds (up to `timeout` s); returns whether it did.
    ///
    /// Suspends between looks rather than block a thread: the publisher under test shares the process
    /// (see `ScratchTrait` for the wait that held up the readings it waited for).
    @discardableResult
    func wait(timeout: Double, until condition: (TopicRecorder) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(self)
    }

    func stop() { stopProcess(process) }

    deinit { stop() }
}

/// The `id`s of reading payloads, in arrival order, first arrival only (duplicates are allowed: at least once).
func readingIDs(_ payloads: [String]) -> [String] {
    var seen = Set<String>()
    var out: [String] = []
    for p in payloads {
        guard let data = p.data(using: .utf8),
            let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let id = obj["id"] as? String
        else { continue }
        if seen.insert(id).inserted { out.append(id) }
    }
    return out
}

/// Ends a child with SIGKILL (children of the test runner inherit a mask that blocks SIGTERM) and
/// waits for it by polling (Foundation's waitUntilExit can hang on Linux once the child is gone).
func stopProcess(_ p: Process) {
    guard p.isRunning else { return }
    kill(p.processIdentifier, SIGKILL)
    let deadline = Date().addingTimeInterval(5)
    while p.isRunning, Date() < deadline { usleep(10_000) }
}
