import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Publishes stored readings to the broker (CONTRACT.md "MQTT"): availability and Home Assistant
/// discovery on every connect, then the outbox, oldest first, with at most `window` messages
/// waiting for their PUBACK; an entry leaves the outbox only when its PUBACK arrives.
///
/// `alertsChecked(_:at:)` after each of `run`'s alert checks feeds `AlertAnnouncer`: an alert that
/// first applies, and one that ends, go once to the `alert` topic (QoS 1, not retained), waiting in
/// memory while the broker is away; what applies is kept in the store's state, so a restart does not
/// announce it again. Fed by the checks, not the readings, because an end makes no reading and an
/// outbox replayed after an outage would announce old alerts again. With `ahead`, the newest
/// reading's `AheadSensors` go, retained, to the `ahead` topic, and discovery adds the ahead sensors.
///
/// Two calls for the app: `readingStored()` after a reading is stored (it wakes the drain; nothing
/// else wakes it but the broker's own events), and `status` for `status` and the live screen's line.
/// A broker that is down or refuses the login never holds up a reading: readings wait in the store.
public actor ReadingPublisher {
    /// Messages in flight at once: enough to keep a loopback or LAN broker busy (10,000 readings
    /// drain in seconds), small enough that a slow link holds little in libmosquitto's memory.
    public static let window = 100

    /// What `status` and the live screen show.
    public struct Status: Sendable, Hashable {
        public var enabled: Bool
        public var connected: Bool
        /// `host:port`.
        public var broker: String
        /// Readings waiting for the broker.
        public var outbox: Int
        /// Readings dropped because the outbox was full, over the store's life.
        public var dropped: Int
        public var error: MQTTError?

        /// One short phrase for the live screen's status line ("mqtt: connected, 0 waiting").
        public var line: String {
            guard enabled else { return "mqtt: off" }
            let state =
                connected ? "connected" : (error == nil ? "connecting" : "down (\(error?.cause.rawValue ?? ""))")
            return "mqtt: \(state), \(outbox) waiting" + (dropped > 0 ? ", \(dropped) dropped" : "")
        }
    }

    public nonisolated let topics: MQTTTopics
    let store: any OutboxStore & StateStore
    let link: MQTTLink?
    let endpoint: MQTTEndpoint
    private let nudges: AsyncStream<Void>.Continuation
    private let snapshot: Mutex<Status>
    private var tasks: [Task<Void, Never>] = []

    private var connected = false
    private var lastError: MQTTError?
    /// The stop's `offline` publish and whether the broker acknowledged it (`stop`).
    private var offlineMid: Int32?
    private var offlineAcknowledged = false
    /// mid -> outbox id of readings waiting for their PUBACK, and the store file's generation it is of.
    /// Kept across a reconnect: libmosquitto keeps every QoS 1 message not acknowledged and sends it
    /// again itself after the next CONNACK, under the same mid, so its PUBACK still comes here.
    /// Publishing them again (as this once did) put a second copy in libmosquitto's queue at every
    /// reconnect: a broker that drops the connection at a reading grew the queue without bound.
    private var inFlight: [Int32: (id: Int64, generation: Int)] = [:]
    /// How many times the store's file was replaced: counted on the store's thread the moment it
    /// happens (`OutboxStore.onReplaced`), before the new file takes a write, so an outbox id read or
    /// acknowledged before it is never taken for the new file's row of that number.
    private nonisolated let storeGeneration = StoreGeneration()
    /// The newest outbox id published since the last connect.
    private var lastQueued: Int64 = 0
    private var acked: [Int64] = []
    private var draining = false
    private var drainAgain = false
    private var removing = false
    private var stopped = false
    private var disconnectWaiter: CheckedContinuation<Void, Never>?

    /// Connects (without waiting) and starts publishing; never throws: a failure is in `status`.
    /// - Parameter onProblem: called (from the publisher, not the main thread) each time the link's
    ///   error changes to a new one, and with nil when the link works again after one; `run --json`
    ///   tells stderr of each change of health (`ComponentHealth`), the live screen shows `status.line`.
    /// - Parameter language: what the readings' `description`s are in (`--lang`, CONTRACT.md: the
    ///   store keeps them in English; `payload(_:in:)`).
    public static func start(
        settings: Settings.MQTT, store: any OutboxStore & StateStore, deviceID: String, ahead: Bool = false,
        language: Language = .en, onProblem: (@Sendable (MQTTError?) -> Void)? = nil
    ) async -> ReadingPublisher {
        let topics = MQTTTopics(
            prefix: settings.topicPrefix, device: deviceID, discoveryPrefix: settings.discoveryPrefix)
        let endpoint = MQTTEndpoint(settings: settings)
        var link: MQTTLink?
        var error: MQTTError?
        do {
            link = try MQTTLink(
                endpoint: endpoint, clientID: "fixcast-\(deviceID)-\(getpid())", password: settings.password,
                will: (topics.availability, MQTTTopics.offline))
        } catch let e {
            error = e
        }
        let publisher = ReadingPublisher(
            topics: topics, store: store, link: link, endpoint: endpoint, error: error, ahead: ahead,
            language: language, onProblem: onProblem)
        await publisher.begin()
        return publisher
    }

    private init(
        topics: MQTTTopics, store: any OutboxStore & StateStore, link: MQTTLink?, endpoint: MQTTEndpoint,
        error: MQTTError?,
        ahead: Bool, language: Language, onProblem: (@Sendable (MQTTError?) -> Void)?
    ) {
        self.onProblem = onProblem
        self.language = language
        self.ahead = ahead
        self.topics = topics
        self.store = store
        self.link = link
        self.endpoint = endpoint
        lastError = error
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        nudges = continuation
        snapshot = Mutex(
            Status(enabled: true, connected: false, broker: endpoint.display, outbox: 0, dropped: 0, error: error))
        nudgeStream = stream
    }

    private let nudgeStream: AsyncStream<Void>
    /// Weather ahead is on: the ahead sensors are announced and fed.
    private let ahead: Bool
    /// The language of the published readings' descriptions.
    private let language: Language
    /// What applies, so each alert is announced once when it begins and once when it ends.
    private var announcer = AlertAnnouncer()
    static let announcerKey = "mqtt.alerts.applying"
    private let onProblem: (@Sendable (MQTTError?) -> Void)?
    private var reportedProblem: MQTTError?

    private func begin() async {
        if let text = try? await store.state(Self.announcerKey), let json = try? JSONValue.parse(text),
            let kept = AlertAnnouncer(json: json)
        {
            announcer = kept
        }
        let generation = storeGeneration
        store.onReplaced { [weak self] _ in
            generation.advance()
            ThreadExecutor.tasks.startTask { await self?.outboxStartedAgain() }
        }
        await refreshStatus()
        guard let link else { return }
        let events = link.events
        tasks.append(
            ThreadExecutor.tasks.startTask { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.handle(event)
                }
            })
        let nudgeStream = self.nudgeStream
        tasks.append(
            ThreadExecutor.tasks.startTask { [weak self] in
                for await _ in nudgeStream {
                    guard let self else { return }
                    await self.drain()
                }
            })
        link.start()
        await refreshStatus()
    }

    /// A reading was stored (and queued): publish it if the broker is there. Cheap, from any thread.
    public nonisolated func readingStored() {
        nudges.yield()
    }

    /// The link and the outbox as last seen; cheap, from any thread.
    public nonisolated var status: Status { snapshot.withLock { $0 } }

    /// Publishes `offline`, disconnects cleanly and stops the network thread.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        nudges.finish()
        guard let link else { return }
        // Let the acknowledgements of what is in flight land (2 s at most) so those readings leave
        // the outbox now rather than go again next time; DISCONNECT closes the socket unread.
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while connected, !inFlight.isEmpty || removing, ContinuousClock.now < deadline {
            await ThreadExecutor.tasks.sleep(seconds: 0.02)
        }
        // `offline` must reach the broker before DISCONNECT, which cancels the will: libmosquitto
        // puts DISCONNECT ahead of a publish still waiting for room among the 20 in flight, and a
        // clean stop then left the retained `online` for ever. So DISCONNECT only once the broker
        // acknowledged `offline`; without that acknowledgement in 2 s the socket is closed without
        // DISCONNECT, and the broker publishes the will (`offline`, retained) itself.
        if connected, let mid = link.publish(topic: topics.availability, payload: MQTTTopics.offline, retain: true) {
            offlineMid = mid
            let acknowledgeBy = ContinuousClock.now.advanced(by: .seconds(2))
            while connected, !offlineAcknowledged, ContinuousClock.now < acknowledgeBy {
                await ThreadExecutor.tasks.sleep(seconds: 0.02)
            }
        }
        if connected, offlineAcknowledged {
            link.disconnect()
            // The loop thread sends what is queued, then DISCONNECT; wait for it (2 s at most).
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                disconnectWaiter = c
                ThreadExecutor.tasks.startTask { [weak self] in
                    await ThreadExecutor.tasks.sleep(seconds: 2)
                    await self?.releaseDisconnectWaiter()
                }
            }
        }
        link.close()
        connected = false
        for t in tasks { t.cancel() }
        retryTask?.cancel()
        await refreshStatus()
        try? await store.setState(MQTTLinkRecord.key, nil)
    }

    private func releaseDisconnectWaiter() {
        disconnectWaiter?.resume()
        disconnectWaiter = nil
    }

    func handle(_ event: MQTTLinkEvent) async {
        switch event {
        case .connected:
            connected = true
            lastError = nil
            await announce()
            publishPendingAlerts()
            await refreshStatus()
            await drain()
        case .refused(let code):
            connected = false
            lastError = MQTTLink.refusal(code: code, endpoint: endpoint)
            await refreshStatus()
        case .disconnected(let rc, let err):
            let wasConnected = connected
            connected = false
            if rc != 0, !stopped {
                // A connection that was up and dropped is "lost" (unless a more telling error is known);
                // one that failed on its way up (a TLS handshake, a name lookup) says why. The first telling
                // error of an outage stays: this one is made from the library's code alone, and would
                // put "the client is not currently connected" where "Connection refused" was said.
                let failure = MQTTLink.failure(rc: rc, errno: err, endpoint: endpoint, handshaking: !wasConnected)
                if lastError == nil || (lastError?.cause == .lost && failure.cause != .lost) { lastError = failure }
            }
            releaseDisconnectWaiter()
            await refreshStatus()
        case .acknowledged(let mid):
            if mid == offlineMid { offlineAcknowledged = true }
            guard let sent = inFlight.removeValue(forKey: mid) else { return }
            // An acknowledgement of the old file's row is not the new file's row of that number.
            guard sent.generation == storeGeneration.current else { return }
            acked.append(sent.id)
            await removeAcknowledged()
            await drain()
        case .subscribed, .message:
            break  // the publisher subscribes to nothing
        }
    }

    /// `online` and the discovery configs, retained (not tracked: a lost one is sent again on
    /// reconnect); with weather ahead off, what a run with it on left is cleared.
    private func announce() async {
        guard let link else { return }
        _ = link.publish(topic: topics.availability, payload: MQTTTopics.online, retain: true)
        for config in HomeAssistantDiscovery.configs(topics: topics, ahead: ahead) {
            _ = link.publish(topic: config.topic, payload: config.payload.serialized(), retain: true)
        }
        for topic in HomeAssistantDiscovery.aheadLeftovers(topics: topics, ahead: ahead) {
            _ = link.publish(topic: topic, payload: "", retain: true)
        }
    }

    /// Removes what the broker acknowledged, batching the acks that arrive meanwhile into one transaction.
    private func removeAcknowledged() async {
        guard !removing else { return }
        removing = true
        while !acked.isEmpty {
            let batch = acked
            acked.removeAll()
            let generation = storeGeneration.current
            do { try await store.removeFromOutbox(batch) } catch {
                // Kept for the next try, unless the file they belong to has gone meanwhile.
                if generation == storeGeneration.current { acked.insert(contentsOf: batch, at: 0) }
                break
            }
        }
        removing = false
        await refreshStatus()
    }

    /// Publishes waiting readings, oldest first, until `window` are in flight or none is left.
    func drain() async {
        guard !stopped else { return }
        if draining {
            drainAgain = true
            return
        }
        draining = true
        defer { draining = false }
        // The status refresh is inside the loop: a nudge arriving during it must not be lost.
        repeat {
            drainAgain = false
            await drainOnce()
            if !acked.isEmpty { await removeAcknowledged() }
            await refreshStatus()
        } while drainAgain
    }

    private func drainOnce() async {
        guard connected, let link else { return }
        while connected, inFlight.count < Self.window {
            let entries: [OutboxEntry]
            let newest: Int64
            let generation = storeGeneration.current
            do {
                entries = try await store.outboxEntries(after: lastQueued, limit: Self.window - inFlight.count)
                newest = try await store.newestOutboxID()
            } catch { return }
            // The file was replaced while it was read: what came back may be either file's; the count
            // starts again (`outboxStartedAgain`) and drains the new one.
            guard generation == storeGeneration.current else { return }
            guard !entries.isEmpty, connected else { return }
            for entry in entries {
                guard let stored = entry.payload else {
                    lastQueued = entry.id
                    acked.append(entry.id)
                    continue
                }
                let payload = Self.payload(stored, in: language)
                guard let mid = link.publish(topic: topics.reading, payload: payload, retain: false) else {
                    // libmosquitto refused it (e.g. the link just dropped). With acknowledgements still
                    // to come, each wakes the drain; with none, nothing would: try again in a second.
                    if inFlight.isEmpty { retryLater() }
                    return
                }
                lastQueued = entry.id
                inFlight[mid] = (entry.id, generation)
                if entry.id == newest { publishLatest(payload, link: link) }
            }
        }
    }

    /// The store's file was replaced (deleted and made again, another put in its place) while `run`
    /// recorded: its outbox numbers from 1 again, or from a restored copy's own ids. What was
    /// published is counted from the start again, and the acknowledgements still to come are dropped:
    /// they name rows of the old file, and removing them by id would remove readings of the new one
    /// that were never published. (Those of the old file were in flight, so the broker has them.)
    func outboxStartedAgain() async {
        lastQueued = 0
        inFlight.removeAll()
        acked.removeAll()
        await drain()
    }

    private var retryPending = false
    /// The pending retry's task (one at a time; not kept in `tasks`, which would grow by one a retry).
    private var retryTask: Task<Void, Never>?

    /// A stored reading's JSON as it goes to the broker: in `language`, as `--json` prints it (the
    /// store keeps it in English; only the `description`s differ). Read back and written again by the
    /// one reading JSON rule (`Reading.json(language:)`); English, or a row that does not read back,
    /// goes as stored.
    static func payload(_ stored: String, in language: Language) -> String {
        guard language != .en, let json = try? JSONValue.parse(stored), let reading = Reading(json: json) else {
            return stored
        }
        return reading.json(language: language).serialized()
    }

    /// One drain a second from now (after a refused publish with nothing in flight to wake it).
    private func retryLater() {
        guard !retryPending else { return }
        retryPending = true
        retryTask = ThreadExecutor.tasks.startTask { [weak self] in
            await ThreadExecutor.tasks.sleep(seconds: 1)
            await self?.retryNow()
        }
    }

    private func retryNow() async {
        retryPending = false
        await drain()
    }

    /// The newest reading also goes, retained, to `state`, (with a position) to `owntracks` and
    /// (with ahead on) its ahead sensors to `ahead`.
    private func publishLatest(_ payload: String, link: MQTTLink) {
        _ = link.publish(topic: topics.state, payload: payload, retain: true)
        let reading = (try? JSONValue.parse(payload)).flatMap(Reading.init(json:))
        if let reading, let location = OwnTracksLocation.payload(for: reading, device: topics.device) {
            _ = link.publish(topic: topics.owntracks, payload: location.serialized(), retain: true)
        }
        if ahead, let reading {
            _ = link.publish(
                topic: topics.ahead, payload: AheadSensors(reading.ahead).payload.serialized(), retain: true)
        }
    }

    /// An alert check found `report` (nil: nothing could be had) at `time`: the `alert` messages it
    /// makes go out now, or when the broker is back. Cheap, from any thread.
    public nonisolated func alertsChecked(_ report: AlertReport?, at time: Date) {
        ThreadExecutor.tasks.startTask { [weak self] in await self?.observeAlerts(report, at: time) }
    }

    /// Announcements waiting for the broker, at most this many (the newest kept): a day's outage
    /// with a busy front is a few dozen.
    static let maxPendingAlerts = 200
    private var pendingAlerts: [AlertAnnouncer.Announcement] = []

    func observeAlerts(_ report: AlertReport?, at time: Date) async {
        let announcements = announcer.observe(report, at: time)
        guard !announcements.isEmpty else { return }
        pendingAlerts = Array((pendingAlerts + announcements).suffix(Self.maxPendingAlerts))
        try? await store.setState(Self.announcerKey, announcer.json.serialized())
        publishPendingAlerts()
    }

    private func publishPendingAlerts() {
        guard connected, let link else { return }
        while let next = pendingAlerts.first {
            guard link.publish(topic: topics.alert, payload: next.payload.serialized(), retain: false) != nil else {
                return
            }
            pendingAlerts.removeFirst()
        }
    }

    private func refreshStatus() async {
        if let e = lastError, e != reportedProblem, !stopped {
            reportedProblem = e
            onProblem?(e)
        } else if lastError == nil, reportedProblem != nil {
            reportedProblem = nil
            if !stopped { onProblem?(nil) }
        }
        let depth = (try? await store.outboxDepth()) ?? 0
        let dropped = (try? await store.outboxDropped()) ?? 0
        let status = Status(
            enabled: true, connected: connected, broker: endpoint.display, outbox: depth, dropped: dropped,
            error: lastError)
        let changed = snapshot.withLock { s -> Bool in
            defer { s = status }
            return s.connected != status.connected || s.error != status.error
        }
        if changed, !stopped {
            try? await store.setState(
                MQTTLinkRecord.key,
                MQTTLinkRecord(pid: Int(getpid()), connected: connected, error: lastError?.message).encoded())
        }
    }
}

/// How many times the store's file was replaced, counted on the store's thread (`ReadingPublisher`).
private final class StoreGeneration: Sendable {
    private let count = Mutex(0)
    func advance() { count.withLock { $0 += 1 } }
    var current: Int { count.withLock { $0 } }
}
