internal import CMosquitto
import FixcastCore
import FixcastText
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What libmosquitto reports, from its own thread.
public enum MQTTLinkEvent: Sendable, Hashable {
    /// CONNACK accepted.
    case connected
    /// CONNACK refused with this code (4/5 and MQTT 5's 134/135: the login).
    case refused(code: Int32)
    /// The connection ended (rc 0: we asked for it), or a reconnect failed; `errno` is the system's
    /// reason for a failed reconnect (rc `CMOSQ_ERR_ERRNO`), else 0.
    case disconnected(rc: Int32, errno: Int32 = 0)
    /// PUBACK for message `mid`.
    case acknowledged(mid: Int32)
    /// SUBACK for subscription `mid` (`refused`: the broker did not grant it).
    case subscribed(mid: Int32, refused: Bool)
    /// A message on a subscribed topic (`retained`: kept by the broker from before); `payload` holds at
    /// most `MQTTLink.keptPayloadBytes` of it, `length` is its whole size.
    case message(topic: String, payload: [UInt8], length: Int, retained: Bool)
}

/// How to reach the broker: everything from `[mqtt]` except the password, which is held apart so
/// no description of a link can print it.
public struct MQTTEndpoint: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var tls: Bool
    public var caFile: String
    public var username: String

    public init(settings: Settings.MQTT) {
        host = settings.host
        port = settings.port
        tls = settings.tls
        caFile = settings.caFile
        username = settings.username
    }

    /// `host:port` (IPv6 in brackets), as messages name the broker.
    public var display: String { HostAddress.display(host: host, port: port) }
}

/// One libmosquitto client: the connection to the broker, its last will, TLS and login, and the
/// events its network thread reports (an `AsyncStream`, so a Swift actor can take them in order).
///
/// libmosquitto is thread-safe once its loop thread runs; `publish` may be called from any thread.
/// Keepalive 60 s (the broker notices a dead link within 90 s and sends the will); reconnects wait
/// as `ReconnectBackoff` says, from 1 s doubling to 60 s (the shim's network thread asks before each
/// attempt, so this one rule decides, and nothing wakes just in case), also after the failures
/// libmosquitto's own thread gives up on (a TLS handshake, a name lookup: see the shim).
public final class MQTTLink: @unchecked Sendable {
    static let keepaliveS: Int32 = 60
    /// 1 s first (a restarting broker is soon back), doubling to 60 s: a broker away for a day costs
    /// one attempt a minute.
    public static let reconnect = ReconnectBackoff(initialS: 1, maximumS: 60)

    public let endpoint: MQTTEndpoint
    public let events: AsyncStream<MQTTLinkEvent>
    private let sink: EventSink
    // The cmosq_client; set once in init, destroyed once, by `close` or by the starting thread.
    private let client: OpaquePointer
    private let lifecycle = Mutex(Lifecycle())

    /// Whether the link was closed, and whether its first connect (`start`) is still under way on a
    /// thread of its own: then that thread frees the client once it is done, not `close`.
    struct Lifecycle {
        var closed = false
        var starting = false
    }

    /// Receives libmosquitto's callbacks (on its thread) and forwards them.
    final class EventSink: Sendable {
        let continuation: AsyncStream<MQTTLinkEvent>.Continuation
        /// Events kept for a caller that pumps the loop itself (`MQTTProbe`), which cannot await the stream.
        let log = Mutex<[MQTTLinkEvent]>([])
        let keepsLog: Bool
        /// The wait before the next connection attempt; back to the first delay after a connection
        /// that stayed up `stableS`.
        let backoff: Mutex<ReconnectBackoff>
        /// When the last CONNACK came (monotonic seconds), until the next failure.
        let connectedAt = Mutex<Double?>(nil)
        /// 30 s: a connection that lasted that long was a working one, and the next failure starts the
        /// back-off again from its first delay. One the broker drops at once (a message over its size
        /// limit, a topic its ACL refuses with a disconnect) keeps doubling the wait: a CONNACK alone
        /// reset it, and such a broker was asked again every second for ever.
        static let stableS = 30.0
        init(_ c: AsyncStream<MQTTLinkEvent>.Continuation, keepsLog: Bool, backoff: ReconnectBackoff) {
            continuation = c
            self.keepsLog = keepsLog
            self.backoff = Mutex(backoff)
        }

        func emit(_ event: MQTTLinkEvent) {
            if event == .connected { connectedAt.withLock { $0 = Syscall.monotonicSeconds() } }
            if keepsLog { log.withLock { $0.append(event) } }
            continuation.yield(event)
        }

        /// What the shim's network thread asks after a failure, in milliseconds (at least 1: the
        /// thread must never spin).
        func nextDelayMs() -> UInt32 {
            let since = connectedAt.withLock { at in
                defer { at = nil }
                return at.map { Syscall.monotonicSeconds() - $0 }
            }
            let s = backoff.withLock { b in
                if let since, since >= Self.stableS { b.reset() }
                return b.nextDelay()
            }
            return UInt32(min(max(s * 1000, 1), 86_400_000).rounded())
        }
    }

    /// The events since the last call (for a caller pumping the loop on its own thread).
    func takeEvents() -> [MQTTLinkEvent] {
        sink.log.withLock { l in
            defer { l.removeAll() }
            return l
        }
    }

    /// - Parameters:
    ///   - password: from `mqtt.password` or `FIXCAST_MQTT_PASSWORD`; handed to libmosquitto and not kept.
    ///   - will: topic and payload the broker publishes (retained, QoS 1) when this client vanishes.
    ///   - keepsEvents: also keep events for `takeEvents` (a caller that pumps the loop itself).
    ///   - reconnect: the wait between connection attempts (tests pass a short one).
    public init(
        endpoint: MQTTEndpoint, clientID: String, password: String, will: (topic: String, payload: String)?,
        keepsEvents: Bool = false, reconnect: ReconnectBackoff = MQTTLink.reconnect
    ) throws(MQTTError) {
        // The last guard before libmosquitto: config validation refuses these already, but nothing
        // MQTT cannot carry, and no file that is not a regular file, reaches the library from here.
        if let problem = Self.settingProblem(endpoint: endpoint, clientID: clientID, password: password, will: will) {
            throw MQTTError(cause: .setting, broker: endpoint.display, detail: problem)
        }
        if let missing = LoadableLibrary.mosquitto.load() {
            throw MQTTError(cause: .library, broker: endpoint.display, detail: missing.clause)
        }
        self.endpoint = endpoint
        let (stream, continuation) = AsyncStream<MQTTLinkEvent>.makeStream(bufferingPolicy: .unbounded)
        events = stream
        let sink = EventSink(continuation, keepsLog: keepsEvents, backoff: reconnect)
        self.sink = sink
        let context = Unmanaged.passUnretained(sink).toOpaque()
        guard
            let client = cmosq_new(
                clientID, context,
                { ctx, rc in
                    guard let ctx else { return }
                    let s = Unmanaged<EventSink>.fromOpaque(ctx).takeUnretainedValue()
                    s.emit(rc == 0 ? .connected : .refused(code: rc))
                },
                { ctx, rc, err in
                    guard let ctx else { return }
                    Unmanaged<EventSink>.fromOpaque(ctx).takeUnretainedValue().emit(.disconnected(rc: rc, errno: err))
                },
                { ctx, mid in
                    guard let ctx else { return }
                    Unmanaged<EventSink>.fromOpaque(ctx).takeUnretainedValue().emit(.acknowledged(mid: mid))
                },
                { ctx in
                    guard let ctx else { return 1000 }
                    return Unmanaged<EventSink>.fromOpaque(ctx).takeUnretainedValue().nextDelayMs()
                })
        else {
            continuation.finish()
            throw MQTTError(
                cause: .protocolError, broker: endpoint.display, detail: "the MQTT client could not be created")
        }
        self.client = client
        // From here on every stored property is set, so a throw runs deinit, which closes (frees)
        // the client: a failure below must not free it itself. (It did, and deinit then freed it a
        // second time: the SIGSEGV of a missing CA file or a 70,000-byte user name.)
        var rc: Int32 = 0
        if !endpoint.username.isEmpty {
            rc = cmosq_set_login(client, endpoint.username, password.isEmpty ? nil : password)
        }
        if rc == 0, endpoint.tls {
            rc = cmosq_set_tls(client, endpoint.caFile.isEmpty ? nil : endpoint.caFile)
            if rc != 0 {
                close()
                throw MQTTError(
                    cause: .tls, broker: endpoint.display,
                    detail: "cannot use CA file \(TerminalText.echo(endpoint.caFile))")
            }
        }
        if rc == 0, let will {
            rc = Array(will.payload.utf8).withUnsafeBytes {
                cmosq_set_will(client, will.topic, $0.baseAddress, Int32($0.count), 1, true)
            }
        }
        // libmosquitto's own default of 20 messages on the wire at once stays: of the publisher's
        // window of 100, the rest wait in libmosquitto's queue, in order.
        if rc != 0 {
            close()
            throw MQTTError(cause: .protocolError, broker: endpoint.display, detail: Self.text(rc))
        }
    }

    /// Why these settings cannot be handed to libmosquitto (naming the key), or nil: every string
    /// against MQTT's limits (`MQTTStringRule`), and the CA file a regular file (`RegularFile`: a FIFO
    /// would block libmosquitto's open for good, a missing file fail without a reason).
    static func settingProblem(
        endpoint: MQTTEndpoint, clientID: String, password: String, will: (topic: String, payload: String)?
    ) -> String? {
        if let p = MQTTStringRule.problem(endpoint.host) ?? (endpoint.host.isEmpty ? "must not be empty" : nil) {
            return "mqtt.host \(p)"
        }
        if let p = MQTTStringRule.problem(clientID) { return "the client id (from mqtt.device_id) \(p)" }
        if let p = MQTTStringRule.problem(endpoint.username) { return "mqtt.username \(p)" }
        if let p = MQTTStringRule.binaryProblem(password) { return "mqtt.password \(p)" }
        if let will, let p = MQTTStringRule.problem(will.topic) {
            return "the availability topic (from mqtt.topic_prefix) \(p)"
        }
        if endpoint.tls, !endpoint.caFile.isEmpty, let p = RegularFile.problem(endpoint.caFile) {
            return
                "mqtt.ca_file \"\(TerminalText.echo(endpoint.caFile))\" \(p) (name a readable PEM file, or leave it empty)"
        }
        return nil
    }

    deinit { close() }

    /// Starts connecting, and libmosquitto's network thread, on a thread of its own: libmosquitto
    /// looks the broker's name up on the thread that asks it to connect, and a name whose DNS server
    /// does not answer held `run`'s start (and its signals) for the resolver's whole timeout. From here
    /// on a lost or refused connection is retried with back-off; the first attempt's failure (DNS, a
    /// refused TCP connection) comes as a `disconnected` event. Inline only when no thread can be had.
    public func start() {
        lifecycle.withLock { $0.starting = true }
        if !DedicatedThread.start(name: "fixcast-mqtt-up", { self.startHere() }) { startHere() }
    }

    private func startHere() {
        let rc = cmosq_connect_async(client, endpoint.host, Int32(endpoint.port), Self.keepaliveS)
        if rc != 0 { sink.emit(.disconnected(rc: rc, errno: cmosq_errno())) }
        let loop = cmosq_loop_start(client)
        if loop != 0 { sink.emit(.disconnected(rc: loop, errno: 0)) }
        let closedMeanwhile = lifecycle.withLock { state -> Bool in
            state.starting = false
            return state.closed
        }
        if closedMeanwhile { destroy() }
    }

    /// Starts the connection without waiting for TCP (the name lookup still blocks): the TCP
    /// handshake, then CONNACK, come through `pump`, under the caller's deadline. A blocking connect to
    /// a host that drops the SYN (switched off, a firewall) waited out the kernel's retries, about two
    /// minutes per address, before any deadline began. For one-shot use on a dedicated thread.
    func connectStarted() -> MQTTError? {
        let rc = cmosq_connect_async(client, endpoint.host, Int32(endpoint.port), Self.keepaliveS)
        return rc == 0 ? nil : Self.failure(rc: rc, errno: cmosq_errno(), endpoint: endpoint, handshaking: false)
    }

    /// Whether the TCP connection is up (the host answered its handshake), after `connectStarted`.
    var isTCPConnected: Bool { cmosq_tcp_connected(client) == 1 }

    /// One pass of the network loop on the calling thread (no loop thread running); the error, if any.
    func pump(timeoutMs: Int32, connected: Bool) -> MQTTError? {
        let rc = cmosq_loop(client, timeoutMs)
        return rc == 0 ? nil : Self.failure(rc: rc, errno: cmosq_errno(), endpoint: endpoint, handshaking: !connected)
    }

    /// Publishes at QoS 1; the message id its PUBACK will carry, or nil when libmosquitto refused it
    /// (not connected, out of memory).
    public func publish(topic: String, payload: String, retain: Bool) -> Int32? {
        // MQTT's limits, checked before the call (the prefix was checked where it was read).
        guard MQTTStringRule.problem(topic) == nil, payload.utf8.count <= Int(Int32.max) else { return nil }
        let bytes = Array(payload.utf8)
        return withOpenClient { client in
            var mid: Int32 = 0
            let rc = bytes.withUnsafeBytes {
                cmosq_publish(client, topic, $0.baseAddress, Int32($0.count), 1, retain, &mid)
            }
            return rc == 0 ? mid : nil
        } ?? nil
    }

    /// `body` with the client, unless the link was closed (then nil). Held under the lock `close()`
    /// takes, so a publish racing the stop (a reconnect's announcement as the agent leaves) cannot use
    /// the client `close()` frees.
    private func withOpenClient<R>(_ body: (OpaquePointer) -> R) -> R? {
        lifecycle.withLock { state -> R? in state.closed ? nil : body(client) }
    }

    /// The most of a received message that is kept: fixcast subscribes only to its own availability
    /// (`online` / `offline`); a broker's larger payload is counted, not copied.
    public static let keptPayloadBytes = 1024

    /// Subscribes at QoS 1 to `topic`; its SUBACK and messages come as events (`subscribed`, `message`).
    /// The message id, or nil when libmosquitto refused the call.
    public func subscribe(topic: String) -> Int32? {
        guard MQTTStringRule.problem(topic) == nil else { return nil }
        return withOpenClient { client in subscribeOpen(client, topic: topic) } ?? nil
    }

    private func subscribeOpen(_ client: OpaquePointer, topic: String) -> Int32? {
        var mid: Int32 = 0
        let rc = cmosq_subscribe_with(
            client, topic, 1,
            { ctx, mid, refused in
                guard let ctx else { return }
                Unmanaged<EventSink>.fromOpaque(ctx).takeUnretainedValue().emit(.subscribed(mid: mid, refused: refused))
            },
            { ctx, topic, payload, length, retained in
                guard let ctx, let topic else { return }
                let size = Int(max(length, 0))
                let kept = min(size, MQTTLink.keptPayloadBytes)
                let bytes = payload.map { Array(UnsafeRawBufferPointer(start: $0, count: kept)) } ?? []
                Unmanaged<EventSink>.fromOpaque(ctx).takeUnretainedValue().emit(
                    .message(topic: String(cString: topic), payload: bytes, length: size, retained: retained))
            }, &mid)
        return rc == 0 ? mid : nil
    }

    /// Asks the broker to end the session cleanly (no will is sent).
    public func disconnect() { _ = withOpenClient { cmosq_disconnect($0) } }

    /// Stops the network thread and frees the client; the event stream ends. Idempotent.
    public func close() {
        let destroyNow = lifecycle.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed && !state.starting
        }
        if destroyNow { destroy() }
    }

    private func destroy() {
        _ = cmosq_loop_stop(client, true)
        cmosq_destroy(client)
        sink.continuation.finish()
    }

    /// A CONNACK refusal as an error: 4/5 (MQTT 3.1.1) and 134/135 (MQTT 5) are the login.
    package static func refusal(code: Int32, endpoint: MQTTEndpoint) -> MQTTError {
        let detail = String(cString: cmosq_connack_string(code))
        switch code {
        case 4, 5, 134, 135:
            return MQTTError(cause: .auth, broker: endpoint.display, detail: detail + noLogin(endpoint))
        default: return MQTTError(cause: .protocolError, broker: endpoint.display, detail: detail)
        }
    }

    /// A libmosquitto return code as an error with its cause. `handshaking`: the TCP connection may
    /// be up but no CONNACK came yet.
    package static func failure(rc: Int32, errno e: Int32, endpoint: MQTTEndpoint, handshaking: Bool) -> MQTTError {
        let cause: MQTTFailureCause
        var detail = text(rc)
        switch Int(rc) {
        case Int(CMOSQ_ERR_EAI), Int(CMOSQ_ERR_LOOKUP):
            cause = .dns
        case Int(CMOSQ_ERR_TLS), Int(CMOSQ_ERR_TLS_HANDSHAKE):
            cause = .tls
        case Int(CMOSQ_ERR_ERRNO):
            if e != 0 { detail = String(cString: strerror(e)) }
            // A reset or end of stream before CONNACK over TLS is the handshake failing; without TLS
            // a reset is a listener that would not take plain MQTT (a TLS one does that).
            if handshaking && endpoint.tls && (e == ECONNRESET || e == EPROTO || e == 0) {
                cause = .tls
            } else if handshaking && !endpoint.tls && e == ECONNRESET {
                cause = .closedAtHandshake
            } else {
                cause = .tcp
            }
        case Int(CMOSQ_ERR_CONN_REFUSED):
            cause = .auth
        case Int(CMOSQ_ERR_KEEPALIVE) where handshaking:
            // The socket was connected, and a keepalive went by without CONNACK.
            cause = .noAnswer
            detail = "no CONNACK within \(keepaliveS) s"
        case Int(CMOSQ_ERR_CONN_LOST) where handshaking:
            // libmosquitto's "lost" is a read of end of stream or a reset: the TCP connection was up.
            cause = endpoint.tls ? .tls : .closedAtHandshake
        case Int(CMOSQ_ERR_NO_CONN) where handshaking:
            cause = endpoint.tls ? .tls : .tcp
        case Int(CMOSQ_ERR_CONN_LOST), Int(CMOSQ_ERR_NO_CONN), Int(CMOSQ_ERR_KEEPALIVE):
            cause = .lost
        default:
            cause = .protocolError
        }
        if cause == .auth { detail += noLogin(endpoint) }
        return MQTTError(cause: cause, broker: endpoint.display, detail: detail)
    }

    /// What a refused login adds when no user name is set: MQTT's CONNECT carries a password only
    /// after a user name, so none was offered, and the password is not what to look at.
    static func noLogin(_ endpoint: MQTTEndpoint) -> String {
        endpoint.username.isEmpty ? "; mqtt.username is empty, so no login (and no password) was sent" : ""
    }

    /// libmosquitto's text for `rc`; its 2.0 library has none for a few codes ("Unknown error"), named here.
    static func text(_ rc: Int32) -> String {
        switch Int(rc) {
        case Int(CMOSQ_ERR_KEEPALIVE): return "keepalive timeout"
        case Int(CMOSQ_ERR_LOOKUP): return "name lookup failed"
        case 21: return "malformed packet"  // MOSQ_ERR_MALFORMED_PACKET
        default: return String(cString: cmosq_strerror(rc))
        }
    }
}

extension LoadableLibrary {
    /// libmosquitto, opened when the first client is made.
    static var mosquitto: LoadableLibrary {
        LoadableLibrary(
            soname: cmosq_library_soname(), load: cmosq_library_load, error: cmosq_library_error,
            probe: cmosq_library_probe)
    }
}
