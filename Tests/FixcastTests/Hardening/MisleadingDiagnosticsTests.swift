import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 24 item 10 through the binary: each failure says what really happened. A broker port that
/// takes the TCP connection and never answers, and a TLS listener given plain MQTT, were both
/// "nothing accepts connections … (Unknown error)"; a 200 KB response header was "Out of memory";
/// a newline in a `--db` path reached stderr and `status` raw.
@Suite(.serialized, .scratch) struct MisleadingDiagnosticsTests {
    /// A loopback port that completes every TCP handshake (the kernel does, from the listen backlog)
    /// and never sends a byte: no accept, no read.
    final class SilentListener {
        let fd: Int32
        let port: UInt16

        init() throws {
            (fd, port) = try LoopbackListener.open(backlog: 16)
        }

        deinit { close(fd) }
    }

    static func mqttEnv(port: UInt16, _ more: [String: String] = [:]) -> [String: String] {
        var e = ["FIXCAST_MQTT_ENABLED": "true", "FIXCAST_MQTT_HOST": "127.0.0.1", "FIXCAST_MQTT_PORT": String(port)]
        e.merge(more) { _, new in new }
        return Acceptance.env(nil, e)
    }

    @Test("a port that takes the connection and never answers: no answer to the MQTT handshake")
    func brokerThatNeverAnswers() throws {
        let home = AcceptanceHome("mqtt-silent")
        defer { home.remove() }
        let silent = try SilentListener()
        let r = try home.run(["mqtt", "test"], env: Self.mqttEnv(port: silent.port), timeout: 40)
        #expect(r.status == 1)
        #expect(
            r.stderr.hasPrefix(
                "mqtt: 127.0.0.1:\(silent.port) accepts connections but did not answer the MQTT handshake (no CONNACK within 10 s)"
            ),
            "\(r.stderr)")
        #expect(!r.stderr.contains("nothing accepts") && !r.stderr.contains("Unknown error"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test("plain MQTT to a TLS listener: the listener closed the connection at the handshake; set mqtt.tls")
    func plainMQTTToATLSListener() throws {
        let home = AcceptanceHome("mqtt-plain-to-tls")
        defer { home.remove() }
        let broker = try MosquittoBroker(tls: true)
        defer { broker.stop() }
        let r = try home.run(["mqtt", "test"], env: Self.mqttEnv(port: broker.port), timeout: 30)
        #expect(r.status == 1)
        #expect(
            r.stderr.hasPrefix(
                "mqtt: 127.0.0.1:\(broker.port) accepts connections but closed this one when the MQTT handshake began"),
            "\(r.stderr)")
        #expect(r.stderr.contains("set mqtt.tls = true"))
        #expect(!r.stderr.contains("nothing accepts") && !r.stderr.contains("Unknown error"))
    }

    /// `run` waits a keepalive (60 s) for CONNACK; what it then reports is the same rule, checked here
    /// on the code libmosquitto hands its disconnect callback (MOSQ_ERR_KEEPALIVE, 19).
    @Test("run's link: a keepalive without CONNACK is no answer, a reset at the handshake is a closed connection")
    func runLinkFailures() {
        let endpoint = MQTTEndpoint(settings: Settings.MQTT())
        let keepalive = MQTTLink.failure(rc: 19, errno: 0, endpoint: endpoint, handshaking: true)
        #expect(keepalive.cause == .noAnswer)
        #expect(keepalive.message.contains("(no CONNACK within 60 s)") && !keepalive.message.contains("Unknown error"))
        #expect(MQTTLink.failure(rc: 7, errno: 0, endpoint: endpoint, handshaking: true).cause == .closedAtHandshake)
        #expect(MQTTLink.failure(rc: 7, errno: 0, endpoint: endpoint, handshaking: false).cause == .lost)
        #expect(MQTTLink.failure(rc: 19, errno: 0, endpoint: endpoint, handshaking: false).cause == .lost)
        #expect(
            !MQTTLink.failure(rc: 19, errno: 0, endpoint: endpoint, handshaking: false).message.contains(
                "Unknown error"))
        for cause in [MQTTFailureCause.noAnswer, .closedAtHandshake, .setting] {
            let m = MQTTError(cause: cause, broker: "127.0.0.1:1883", detail: "x").message
            #expect(m.hasPrefix("mqtt: ") && m.hasSuffix(".") && !m.contains("\n"), "\(m)")
        }
    }

    @Test("a response header over libcurl's limit: the server's header is too large, not out of memory")
    func hugeResponseHeader() throws {
        let home = AcceptanceHome("http-huge-header")
        defer { home.remove() }
        let oneLine = ["X-Padding": String(repeating: "a", count: 200_000)]
        var manyLines: [String: String] = [:]
        for i in 0..<400 { manyLines["X-Padding-\(i)"] = String(repeating: "b", count: 1_000) }
        for headers in [oneLine, manyLines] {
            let server = try FixtureServer.started(routes: [
                "/v1/forecast": [.file(Acceptance.forecastFixture, headers: headers)]
            ])
            defer { server.stop() }
            let r = try home.run(["forecast", "--at", "52.52,13.405"], env: Acceptance.env(server))
            #expect(r.status == 1)
            #expect(r.stderr.contains("the response header from 127.0.0.1:\(server.port) is too large"), "\(r.stderr)")
            #expect(!r.stderr.contains("Out of memory") && !r.stderr.contains("broke"), "\(r.stderr)")
        }
    }

    @Test("a newline in a --db path becomes a space on stderr and in status")
    func newlineInThePath() throws {
        let home = AcceptanceHome("db-newline")
        defer { home.remove() }
        let folder = home.path("two\nlines")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = folder + "/store.sqlite"
        let status = try home.run(["status", "--gpsd", "127.0.0.1:9", "--db", db], env: Acceptance.env(nil))
        #expect(status.status == 0, "\(status.stderr)")
        let storeLine = status.stdout.split(separator: "\n").first { $0.hasPrefix("store") }.map(String.init) ?? ""
        #expect(storeLine.contains("two lines/store.sqlite"), "\(status.stdout)")
        #expect(!status.stdout.contains("two\nlines"))

        // A store that is a folder named with a newline: the storage error is one line.
        let trips = try home.run(["trips", "--db", folder], env: Acceptance.env(nil))
        #expect(trips.status == 1, "\(trips.stdout) \(trips.stderr)")
        #expect(trips.stderr.hasPrefix("storage: "), "\(trips.stderr)")
        #expect(trips.stderr.contains("two lines") && !trips.stderr.contains("two\nlines"), "\(trips.stderr)")
        #expect(trips.stderr.split(separator: "\n").count == 1, "\(trips.stderr)")
    }
}
