import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `fixcast mqtt test`: one connection with the current settings, one retained `online`
/// published and acknowledged, and a sentence saying what worked or which step failed (name
/// lookup, TCP, TLS, login). Runs on a thread of its own: its network loop blocks.
public enum MQTTProbe {
    /// How long to wait for CONNACK and then for PUBACK: a broker on a LAN answers in milliseconds,
    /// one across a mobile link in a second or two.
    static let stepTimeoutS = 10.0

    public static func run(settings: Settings.MQTT, deviceID: String) async -> Result<String, MQTTError> {
        await withCheckedContinuation { (c: CheckedContinuation<Result<String, MQTTError>, Never>) in
            let started = DedicatedThread.start(name: "fixcast-mqtt") {
                c.resume(returning: probe(settings: settings, deviceID: deviceID))
            }
            if !started {
                c.resume(
                    returning: .failure(
                        MQTTError(
                            cause: .protocolError, broker: MQTTEndpoint(settings: settings).display, detail: "no thread"
                        )))
            }
        }
    }

    static func probe(settings: Settings.MQTT, deviceID: String) -> Result<String, MQTTError> {
        let endpoint = MQTTEndpoint(settings: settings)
        let topics = MQTTTopics(
            prefix: settings.topicPrefix, device: deviceID, discoveryPrefix: settings.discoveryPrefix)
        let link: MQTTLink
        do {
            link = try MQTTLink(
                endpoint: endpoint, clientID: "fixcast-test-\(deviceID)-\(getpid())", password: settings.password,
                will: nil, keepsEvents: true)
        } catch let e {
            return .failure(e)
        }
        defer { link.close() }
        if let e = link.connectBlocking() { return .failure(e) }
        // CONNACK.
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: .seconds(stepTimeoutS))
        var connected = false
        while !connected {
            if let e = link.pump(timeoutMs: 100, connected: false) { return .failure(e) }
            for event in link.takeEvents() {
                switch event {
                case .connected: connected = true
                case .refused(let code): return .failure(MQTTLink.refusal(code: code, endpoint: endpoint))
                case .disconnected:
                    return .failure(
                        MQTTError(
                            cause: endpoint.tls ? .tls : .closedAtHandshake, broker: endpoint.display,
                            detail: "closed before CONNACK"))
                case .acknowledged: break
                }
            }
            if !connected, clock.now > deadline {
                return .failure(
                    MQTTError(
                        cause: .noAnswer, broker: endpoint.display,
                        detail: "no CONNACK within \(Int(clamping: stepTimeoutS, to: 0...Int.max)) s"))
            }
        }
        guard let mid = link.publish(topic: topics.availability, payload: MQTTTopics.online, retain: true) else {
            return .failure(MQTTError(cause: .lost, broker: endpoint.display, detail: "the publish was refused"))
        }
        deadline = clock.now.advanced(by: .seconds(stepTimeoutS))
        var acked = false
        while !acked {
            if let e = link.pump(timeoutMs: 100, connected: true) { return .failure(e) }
            for event in link.takeEvents() where event == .acknowledged(mid: mid) { acked = true }
            if !acked, clock.now > deadline {
                return .failure(
                    MQTTError(
                        cause: .protocolError, broker: endpoint.display,
                        detail: "no PUBACK in \(Int(clamping: stepTimeoutS, to: 0...Int.max)) s"))
            }
        }
        link.disconnect()
        _ = link.pump(timeoutMs: 100, connected: true)
        let how = (endpoint.tls ? " over TLS" : "") + (endpoint.username.isEmpty ? "" : " as \(endpoint.username)")
        return .success(
            "mqtt: connected to \(endpoint.display)\(how) and the broker acknowledged \"online\" on \(topics.availability)."
        )
    }
}
