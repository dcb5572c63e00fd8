import FixcastCore
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// MQTTLink's setup when libmosquitto refuses a setting. It freed the client and then, because a
/// class whose init throws after every property is set runs its deinit, freed it again: the SIGSEGV
/// of a missing CA file or a 70,000-byte user name (issue 23 item 1). These run in this process:
/// without the fix, the test runner itself crashes.
@Suite struct MQTTLinkSetupTests {
    static func endpoint(_ change: (inout Settings.MQTT) -> Void = { _ in }) -> MQTTEndpoint {
        var s = Settings.MQTT()
        s.port = Int(freeLoopbackPort())
        change(&s)
        return MQTTEndpoint(settings: s)
    }

    @Test("libmosquitto refusing the will (a wildcard topic) is an error, and the client is freed once")
    func refusedWill() {
        for _ in 0..<20 {
            do {
                _ = try MQTTLink(
                    endpoint: Self.endpoint(), clientID: "setup-test", password: "", will: ("a/+/b", "offline"))
                Issue.record("a will on a wildcard topic was accepted")
            } catch {
                #expect(error.cause == .protocolError && error.message.hasPrefix("mqtt: "))
            }
        }
    }

    @Test("the last guard: a value MQTT cannot carry or an unusable CA file never reaches libmosquitto")
    func lastGuard() {
        let cases: [(MQTTEndpoint, String, String, String)] = [
            (Self.endpoint { $0.username = String(repeating: "u", count: 70_000) }, "c", "", "mqtt.username"),
            (Self.endpoint { $0.username = "u\u{85}" }, "c", "", "mqtt.username"),
            (Self.endpoint { $0.username = "u" }, "c", String(repeating: "p", count: 70_000), "mqtt.password"),
            (
                Self.endpoint {
                    $0.tls = true
                    $0.caFile = "/nonexistent/ca.pem"
                }, "c", "", "mqtt.ca_file"
            ),
            (
                Self.endpoint {
                    $0.tls = true
                    $0.caFile = "/tmp"
                }, "c", "", "mqtt.ca_file"
            ),
            (Self.endpoint(), "c\u{9B}", "", "client id"),
        ]
        for (endpoint, clientID, password, key) in cases {
            do {
                _ = try MQTTLink(
                    endpoint: endpoint, clientID: clientID, password: password,
                    will: ("fixcast/x/availability", "offline"))
                Issue.record("\(key) accepted")
            } catch {
                #expect(error.cause == .setting, "\(key): \(error.message)")
                #expect(error.message.contains(key) && !error.message.contains("ppppp"), "\(error.message)")
            }
        }
        // The will's topic too.
        #expect(throws: MQTTError.self) {
            _ = try MQTTLink(
                endpoint: Self.endpoint(), clientID: "c", password: "", will: ("fix\u{85}cast/a", "offline"))
        }
    }
}

/// The reconnect timing is one rule, Swift's `ReconnectBackoff`: the shim's network thread asks it
/// before every attempt (it had a 1 s doubling of its own, and libmosquitto another).
@Suite struct MQTTLinkReconnectTimingTests {
    @Test("attempts against a port where nothing listens follow the back-off the link was given")
    func followsTheGivenBackoff() async throws {
        let endpoint = MQTTLinkSetupTests.endpoint()
        // 50 ms doubling to 200 ms: about 10 attempts in 2 s. The shim's old timing (1 s, 2 s, …)
        // made 2 at most.
        let link = try MQTTLink(
            endpoint: endpoint, clientID: "backoff-test", password: "", will: nil,
            reconnect: ReconnectBackoff(initialS: 0.05, maximumS: 0.2))
        defer { link.close() }
        // Should no event come at all, closing the link ends the stream and the test fails, not hangs.
        let guardTask = Task {
            try? await Task.sleep(for: .seconds(10))
            link.close()
        }
        defer { guardTask.cancel() }
        link.start()
        let started = ContinuousClock.now
        var failures = 0
        for await event in link.events {
            if case .disconnected(let rc, _) = event, rc != 0 { failures += 1 }
            if failures >= 6 || ContinuousClock.now - started > .seconds(10) { break }
        }
        let elapsed = ContinuousClock.now - started
        #expect(failures >= 6)
        #expect(elapsed < .seconds(3), "6 attempts at 50–200 ms apart, not 1 s doubling: \(elapsed)")
    }

    /// A link closed (the agent leaving) refuses publishes, subscriptions and DISCONNECT instead of
    /// handing libmosquitto the client `close` freed (a reconnect's announcement racing the stop).
    @Test func aClosedLinkRefusesCallsInsteadOfUsingTheFreedClient() throws {
        let link = try MQTTLink(
            endpoint: MQTTLinkSetupTests.endpoint(), clientID: "closed-test", password: "", will: nil)
        link.start()
        link.close()
        #expect(link.publish(topic: "fixcast/x", payload: "1", retain: false) == nil)
        #expect(link.subscribe(topic: "fixcast/x") == nil)
        link.disconnect()
        link.close()
    }
}
