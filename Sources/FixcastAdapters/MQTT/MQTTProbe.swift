import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `fixcast mqtt test`: one connection with the current settings, one retained `online`
/// published and acknowledged, and a sentence saying what worked or which step failed (name
/// lookup, TCP, TLS, login). Runs on a thread of its own: its network loop blocks.
///
/// The availability topic is left as the test found it (`AvailabilityRestore`): a retained `online`
/// left behind would show the device available in Home Assistant though no `run` is running, and
/// `offline` in its place would show a running service (the same device id) as gone.
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
        if let e = link.connectStarted() { return .failure(e) }
        // CONNACK.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(stepTimeoutS))
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
                case .acknowledged, .subscribed, .message: break
                }
            }
            if !connected, clock.now > deadline {
                let seconds = Int(clamping: stepTimeoutS, to: 0...Int.max)
                // No TCP connection at all is a host that drops it (switched off, a firewall), not a
                // port that takes connections and says nothing.
                guard link.isTCPConnected else {
                    return .failure(
                        MQTTError(
                            cause: .tcp, broker: endpoint.display,
                            detail: "no answer to the TCP connection within \(seconds) s"))
                }
                return .failure(
                    MQTTError(cause: .noAnswer, broker: endpoint.display, detail: "no CONNACK within \(seconds) s"))
            }
        }
        let found = retained(on: topics.availability, link: link)
        if case .failure(let e) = found { return .failure(e) }
        let seen: Seen
        switch publishAcknowledged(
            MQTTTopics.online, on: topics.availability, link: link, endpoint: endpoint, awaitingEcho: true)
        {
        case .failure(let e): return .failure(e)
        case .success(let s): seen = s
        }
        let restore = AvailabilityRestore(
            found: AvailabilityRestore.found(
                before: (try? found.get()) ?? .unreadable, keptLate: seen.keptLate, echoed: seen.echoed))
        if let payload = restore.payload,
            case .failure(let e) = publishAcknowledged(payload, on: topics.availability, link: link, endpoint: endpoint)
        {
            return .failure(e)
        }
        link.disconnect()
        _ = link.pump(timeoutMs: 100, connected: true)
        let how = (endpoint.tls ? " over TLS" : "") + (endpoint.username.isEmpty ? "" : " as \(endpoint.username)")
        return .success(
            "mqtt: connected to \(endpoint.display)\(how) and the broker acknowledged \"online\" on \(topics.availability)\(restore.clause)."
        )
    }

    /// How long the broker has, after SUBACK, to send what it kept on a topic: mosquitto sends it right
    /// behind the SUBACK, in the same write.
    static let retainedWaitMs = 300

    /// What the broker keeps on `topic` now (`unreadable` when the subscription was not granted, or
    /// refused by libmosquitto: then nothing will be put back).
    static func retained(on topic: String, link: MQTTLink) -> Result<AvailabilityRestore.Found, MQTTError> {
        guard let mid = link.subscribe(topic: topic) else { return .success(.unreadable) }
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: .seconds(stepTimeoutS))
        var subscribed = false
        var kept: AvailabilityRestore.Found? = nil
        while true {
            if let e = link.pump(timeoutMs: 50, connected: true) { return .failure(e) }
            for event in link.takeEvents() {
                switch event {
                case .subscribed(mid, let refused):
                    if refused { return .success(.unreadable) }
                    subscribed = true
                    deadline = clock.now.advanced(by: .milliseconds(retainedWaitMs))
                case .message(topic, let payload, let length, true):
                    kept = length > payload.count ? .unreadable : .payload(payload)
                default: break
                }
            }
            if kept != nil, subscribed { break }
            if clock.now > deadline { break }
        }
        return .success(subscribed ? (kept ?? AvailabilityRestore.Found.nothing) : .unreadable)
    }

    /// How long after the PUBACK the test's own `online` may take to come back to it through its
    /// subscription (mosquitto sends it before the PUBACK).
    static let echoWaitMs = 1_000

    /// What came through the test's subscription to the availability topic while a publish waited:
    /// a retained message that came only then (a slow broker's answer to the subscription), and
    /// whether the payload published came back (then the topic can be read).
    struct Seen {
        var keptLate: [UInt8]?
        var echoed = false
    }

    /// Publishes `payload` retained on `topic` and waits for its PUBACK; with `awaitingEcho`, also for
    /// the payload to come back through the subscription, at most `echoWaitMs` after the PUBACK.
    static func publishAcknowledged(
        _ payload: String, on topic: String, link: MQTTLink, endpoint: MQTTEndpoint, awaitingEcho: Bool = false
    ) -> Result<Seen, MQTTError> {
        guard let mid = link.publish(topic: topic, payload: payload, retain: true) else {
            return .failure(MQTTError(cause: .lost, broker: endpoint.display, detail: "the publish was refused"))
        }
        let sent = Array(payload.utf8)
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: .seconds(stepTimeoutS))
        var acknowledged = false
        var seen = Seen()
        while !(acknowledged && (seen.echoed || !awaitingEcho)) {
            if let e = link.pump(timeoutMs: 50, connected: true) { return .failure(e) }
            for event in link.takeEvents() {
                switch event {
                case .acknowledged(mid) where !acknowledged:
                    acknowledged = true
                    deadline = min(deadline, clock.now.advanced(by: .milliseconds(echoWaitMs)))
                case .message(topic, let payload, let length, let retained):
                    if retained, seen.keptLate == nil, length <= payload.count {
                        seen.keptLate = payload
                    } else if !retained, payload == sent {
                        seen.echoed = true
                    }
                default: break
                }
            }
            if clock.now > deadline {
                guard acknowledged else {
                    return .failure(
                        MQTTError(
                            cause: .protocolError, broker: endpoint.display,
                            detail: "no PUBACK in \(Int(clamping: stepTimeoutS, to: 0...Int.max)) s"))
                }
                break
            }
        }
        return .success(seen)
    }
}
