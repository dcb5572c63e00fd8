import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `ReadingPublisher` against a real mosquitto on loopback: readings leave the outbox only on
/// PUBACK, in order, across a broker outage; discovery is retained; devices keep to their topics.
@Suite(.serialized, .scratch)
struct ReadingPublisherTests {
    static func settings(port: UInt16, device: String, user: String = "", password: String = "") -> Settings.MQTT {
        var s = Settings.MQTT()
        s.enabled = true
        s.port = Int(port)
        s.deviceID = device
        s.username = user
        s.password = password
        return s
    }

    static func store() throws -> SQLiteStore {
        try SQLiteStore(path: TestPaths.temporaryDirectory("fixcast-mqtt").appendingPathComponent("f.sqlite").path)
    }

    /// Waits (up to 10 s) for the broker's acknowledgements to empty `store`'s outbox.
    static func waitForAnEmptyOutbox(_ store: SQLiteStore) async throws {
        let deadline = Date().addingTimeInterval(10)
        while (try await store.outboxDepth()) > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// Stores `count` readings queued for `device`, nudging `publisher` after each; returns their ids.
    static func storeReadings(
        _ count: Int, in store: SQLiteStore, device: String, publisher: ReadingPublisher?, from offset: Int = 0
    ) async throws -> [String] {
        var ids: [String] = []
        for i in 0..<count {
            let r = try await store.storeReading(
                StoreTestData.reading(at: Double(offset + i)), plan: ReadingStorePlan(deviceID: device, outboxMax: 1000)
            )
            ids.append(try #require(r.id))
            publisher?.readingStored()
        }
        return ids
    }

    /// A stop while the broker does not answer and more readings are in flight than libmosquitto sends
    /// at once (20): the retained availability must end `offline` (Home Assistant otherwise shows the
    /// stopped service available). A review found that `offline` could wait behind the 20 while
    /// DISCONNECT went ahead and cancelled the will; DISCONNECT now waits for `offline`'s
    /// acknowledgement, and without it the socket is closed and the broker publishes the will. This
    /// test passed before that change too (with the broker paused, the DISCONNECT did not get out
    /// before the socket closed): it holds the outcome, not the ordering.
    @Test func aStopThatCannotDeliverOfflineLeavesTheWillToSayIt() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let store = try Self.store()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/stall/availability"])
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "stall"), store: store, deviceID: "stall")
        await recorder.wait(timeout: 10) { $0.payloads(on: "fixcast/stall/availability").contains("online") }
        recorder.stop()
        broker.pause()
        _ = try await Self.storeReadings(40, in: store, device: "stall", publisher: publisher)
        try await Task.sleep(for: .milliseconds(300))
        await publisher.stop()
        broker.resume()
        try await Task.sleep(for: .seconds(1))
        let late = try TopicRecorder(broker: broker, topics: ["fixcast/stall/availability"])
        defer { late.stop() }
        await late.wait(timeout: 3) { !$0.payloads(on: "fixcast/stall/availability").isEmpty }
        #expect(late.payloads(on: "fixcast/stall/availability") == ["offline"])
    }

    /// A broker that takes the connection and drops it at the first reading (one larger than its
    /// `max_packet_size`): the back-off started again at every CONNACK, so it was asked every second
    /// for ever, and each reconnect published the readings in flight again on top of the copies
    /// libmosquitto keeps (a queue growing without bound). Now the wait doubles while no connection
    /// lasts 30 s, and nothing is published twice.
    @Test func aBrokerThatDropsEachConnectionAtOnceIsAskedLessAndLess() async throws {
        let log = TestPaths.temporaryDirectory("flapping-broker").appendingPathComponent("mosquitto.log")
        let broker = try MosquittoBroker(
            extraConfig: "max_packet_size 1000\nuser root\nlog_dest file \(log.path)\nlog_type notice\n")
        defer { broker.stop() }
        let store = try Self.store()
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "flap"), store: store, deviceID: "flap")
        _ = try await Self.storeReadings(1, in: store, device: "flap", publisher: publisher)
        try await Task.sleep(for: .seconds(16))
        await publisher.stop()
        // The broker's own log of the connections: 1 s apart that was about 16; doubling (1, 2, 4, 8
        // s), at most 5 or 6.
        let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
        let connections = lines.filter { $0.contains("New client connected") && $0.contains("fixcast") }.count
        #expect(connections >= 3, "the broker did drop it, and it was asked again: \(connections) connections")
        #expect(connections <= 6, "\(connections) connections in 16 s")
        #expect(try await store.outboxDepth() == 1, "the reading is still to be delivered")
    }

    @Test func readingsArriveByIDWithRetainedStateAndDiscovery() async throws {
        let broker = try MosquittoBroker()
        let store = try Self.store()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#", "homeassistant/#"])
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "van1"), store: store, deviceID: "van1")
        let ids = try await Self.storeReadings(5, in: store, device: "van1", publisher: publisher)
        #expect(ids == (1...5).map { "van1:\($0)" })
        await recorder.wait(timeout: 15) { readingIDs($0.payloads(on: "fixcast/van1/reading")) == ids }
        #expect(readingIDs(recorder.payloads(on: "fixcast/van1/reading")) == ids)
        // Acknowledged readings leave the outbox.
        try await Self.waitForAnEmptyOutbox(store)
        #expect(try await store.outboxDepth() == 0)
        #expect(publisher.status.connected)
        await publisher.stop()
        recorder.stop()

        // A new subscriber gets the retained messages: state (the newest reading), owntracks, availability, discovery.
        let late = try TopicRecorder(broker: broker, topics: ["fixcast/#", "homeassistant/#"])
        await late.wait(timeout: 5) { $0.messages.count >= 16 }
        #expect(readingIDs(late.payloads(on: "fixcast/van1/state")) == ["van1:5"])
        #expect(late.payloads(on: "fixcast/van1/availability") == ["offline"])
        #expect(late.payloads(on: "fixcast/van1/reading").isEmpty)  // not retained
        let owntracks = try #require(late.payloads(on: "fixcast/van1/owntracks").first)
        #expect(owntracks.contains("\"_type\":\"location\"") && owntracks.contains("\"vel\":100"))
        let configs = late.messages.filter { $0.topic.hasPrefix("homeassistant/") }.map(\.topic)
        #expect(configs.contains("homeassistant/device_tracker/van1/position/config"))
        #expect(configs.contains("homeassistant/sensor/van1/temperature/config"))
        #expect(configs.count == HomeAssistantDiscovery.configs(topics: publisher.topics).count)
        late.stop()
    }

    /// The store's file deleted while `run` records (`rm -rf ~/.local/share/fixcast`): a new one is made
    /// at the path, its outbox numbers from 1 again, and its readings go to the broker too, not taken
    /// for the ones already published; acknowledged, they leave the new file's outbox.
    @Test func aReplacedStoresReadingsArePublished() async throws {
        let broker = try MosquittoBroker()
        let store = try Self.store()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/van3/reading"])
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "van3"), store: store, deviceID: "van3")
        let first = try await Self.storeReadings(3, in: store, device: "van3", publisher: publisher)
        await recorder.wait(timeout: 15) { readingIDs($0.payloads(on: "fixcast/van3/reading")) == first }
        try await Self.waitForAnEmptyOutbox(store)

        try FileManager.default.removeItem(atPath: store.path)
        let second = try await Self.storeReadings(2, in: store, device: "van3", publisher: publisher, from: 10)
        #expect(second == ["van3:1", "van3:2"], "the new file's ids start again")
        // The ids repeat, so the readings are told apart by id and time (a QoS 1 repeat has both).
        func published(_ r: TopicRecorder) -> [String] {
            var seen = Set<String>()
            return r.payloads(on: "fixcast/van3/reading").compactMap { p -> String? in
                guard let json = try? JSONValue.parse(p), let id = json["id"]?.stringValue,
                    let time = json["time"]?.stringValue, seen.insert(id + " " + time).inserted
                else { return nil }
                return id
            }
        }
        await recorder.wait(timeout: 15) { published($0) == first + second }
        #expect(published(recorder) == first + second)
        try await Self.waitForAnEmptyOutbox(store)
        #expect(try await store.outboxDepth() == 0)
        await publisher.stop()
        recorder.stop()
    }

    /// CONTRACT.md: `description` follows `--lang`. The store keeps readings in English; what goes to
    /// the broker (`reading` and the retained `state`) is in the run's language, and nothing else differs.
    @Test func readingsArePublishedInTheRunsLanguage() async throws {
        let broker = try MosquittoBroker()
        let store = try Self.store()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#"])
        // Stored first, as a run that was offline left them: their JSON as the store keeps it.
        let ids = try await Self.storeReadings(2, in: store, device: "ru1", publisher: nil)
        let stored = try await store.outboxEntries(after: 0, limit: 10).compactMap(\.payload)
        #expect(stored.count == 2)
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "ru1"), store: store, deviceID: "ru1", language: .ru)
        await recorder.wait(timeout: 15) { readingIDs($0.payloads(on: "fixcast/ru1/reading")) == ids }
        let published = recorder.payloads(on: "fixcast/ru1/reading")
        #expect(readingIDs(published) == ids)
        let overcast = try #require(WMOCode.description(3, language: .ru))
        #expect(overcast != WMOCode.description(3, language: .en))
        for (text, kept) in zip(published, stored) {
            let json = try JSONValue.parse(text)
            #expect(json["weather"]?["current"]?["description"]?.stringValue == overcast, "\(text)")
            #expect(json["weather"]?["daily"]?[0]?["description"]?.stringValue == overcast, "\(text)")
            // The rest is the stored reading's, to the byte: only the descriptions differ.
            #expect(kept.contains("\"Overcast\""))
            #expect(text.replacing(overcast, with: "Overcast") == kept)
        }
        // English goes as stored.
        #expect(stored.allSatisfy { ReadingPublisher.payload($0, in: .en) == $0 })
        await recorder.wait(timeout: 5) { !$0.payloads(on: "fixcast/ru1/state").isEmpty }
        #expect(recorder.payloads(on: "fixcast/ru1/state").last?.contains(overcast) == true)
        await publisher.stop()
        recorder.stop()
    }

    /// Context switches of this process's threads named `name`.
    static func contextSwitches(ofThreadsNamed name: String) -> (threads: Int, switches: Int) {
        let named = ProcessThreads.of("self").filter { $0.name == name }
        return (named.count, named.reduce(0) { $0 + ($1.contextSwitches ?? 0) })
    }

    @Test func anIdleLinkDoesNotWakeUntilItsKeepalive() async throws {
        // libmosquitto's loop with its default timeout wakes every second; fixcast's network thread
        // sleeps until a packet, a publish, or the next keepalive ping (60 s).
        let broker = try MosquittoBroker()
        let store = try Self.store()
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "idle1"), store: store, deviceID: "idle1")
        _ = try await Self.storeReadings(1, in: store, device: "idle1", publisher: publisher)
        try await Self.waitForAnEmptyOutbox(store)
        #expect(try await store.outboxDepth() == 0, "the reading went out")
        try await Task.sleep(for: .milliseconds(500))  // the acknowledgements settle

        let before = Self.contextSwitches(ofThreadsNamed: "mosquitto loop")
        #expect(before.threads == 1, "one network thread, named as libmosquitto names its own")
        try await Task.sleep(for: .seconds(4))
        let after = Self.contextSwitches(ofThreadsNamed: "mosquitto loop")
        #expect(after.switches - before.switches <= 1, "idle for 4 s: \(after.switches - before.switches) wake-ups")
        await publisher.stop()
    }

    /// The broker away for a few seconds of reconnect attempts (their back-off is `ReconnectBackoff`'s,
    /// in virtual time) while ten readings are made: every one arrives, in order, when it is back.
    @Test func brokerAwayThenEveryReadingArrivesInOrder() async throws {
        let broker = try MosquittoBroker()
        let store = try Self.store()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/+/reading"])
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "van2"), store: store, deviceID: "van2")
        var ids = try await Self.storeReadings(3, in: store, device: "van2", publisher: publisher)
        await recorder.wait(timeout: 15) { readingIDs($0.payloads(on: "fixcast/van2/reading")) == ids }
        recorder.stop()
        broker.stop()
        // Three seconds without a broker, ten readings.
        for i in 0..<10 {
            ids += try await Self.storeReadings(1, in: store, device: "van2", publisher: publisher, from: 100 + i)
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(try await store.outboxDepth() >= 10)
        #expect(!publisher.status.connected)
        // A reconnect to a broker that is gone is refused: "nothing accepts connections", not a
        // listener that closed the connection at the handshake ("set mqtt.tls"), which the loop pass
        // after a failed reconnect reported before.
        let down = try #require(publisher.status.error)
        #expect(down.cause == .tcp, "\(down.message)")
        #expect(down.message.contains("nothing accepts connections"), "\(down.message)")
        #expect(!down.message.contains("mqtt.tls"), "\(down.message)")
        try broker.start()
        let after = try TopicRecorder(broker: broker, topics: ["fixcast/+/reading"])
        // libmosquitto's back-off is at most 16 s by now (1, 2, 4, 8, 16).
        await after.wait(timeout: 40) {
            readingIDs($0.payloads(on: "fixcast/van2/reading")).suffix(10) == ids.suffix(10)
        }
        let arrived = readingIDs(after.payloads(on: "fixcast/van2/reading"))
        #expect(Array(arrived.suffix(10)) == Array(ids.suffix(10)))
        #expect(arrived == arrived.sorted { Int($0.split(separator: ":")[1])! < Int($1.split(separator: ":")[1])! })
        await publisher.stop()
        after.stop()
    }

    @Test func wrongPasswordKeepsReadingsAndSaysSoInOneSentence() async throws {
        let secret = "s3cr3t-\(UUID().uuidString.prefix(8))"
        let broker = try MosquittoBroker(credentials: ("fixcast", secret))
        let store = try Self.store()
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "van3", user: "fixcast", password: "wrong-\(secret)"),
            store: store, deviceID: "van3")
        let ids = try await Self.storeReadings(2, in: store, device: "van3", publisher: publisher)
        #expect(ids.count == 2)
        let deadline = Date().addingTimeInterval(10)
        while publisher.status.error == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let error = try #require(publisher.status.error)
        #expect(error.cause == .auth)
        #expect(error.message.hasPrefix("mqtt: "))
        // One sentence: one line, one full stop at the end and none inside (an IP address's dots aside).
        #expect(error.message.hasSuffix(".") && !error.message.contains(". ") && !error.message.contains("\n"))
        #expect(!error.message.contains(secret))
        #expect(try await store.outboxDepth() == 2)
        #expect(try await store.readingCount() == 2)
        await publisher.stop()
        // The password is nowhere in the store file.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect(!String(decoding: bytes, as: UTF8.self).contains(secret))
    }

    @Test func rightPasswordConnects() async throws {
        let secret = "pw-\(UUID().uuidString.prefix(8))"
        let broker = try MosquittoBroker(credentials: ("fixcast", secret))
        let store = try Self.store()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#"], user: "fixcast", password: secret)
        let publisher = await ReadingPublisher.start(
            settings: Self.settings(port: broker.port, device: "van4", user: "fixcast", password: secret), store: store,
            deviceID: "van4")
        let ids = try await Self.storeReadings(2, in: store, device: "van4", publisher: publisher)
        await recorder.wait(timeout: 15) { readingIDs($0.payloads(on: "fixcast/van4/reading")) == ids }
        #expect(readingIDs(recorder.payloads(on: "fixcast/van4/reading")) == ids)
        await publisher.stop()
        recorder.stop()
    }

    @Test func threeDevicesOnOneBrokerKeepToTheirTopics() async throws {
        let broker = try MosquittoBroker()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#", "homeassistant/#"])
        let devices = ["truck-a", "truck-b", "boat_c"]
        var publishers: [ReadingPublisher] = []
        var expected: [String: [String]] = [:]
        for d in devices {
            let store = try Self.store()
            let p = await ReadingPublisher.start(
                settings: Self.settings(port: broker.port, device: d), store: store, deviceID: d)
            publishers.append(p)
            expected[d] = try await Self.storeReadings(3, in: store, device: d, publisher: p)
        }
        await recorder.wait(timeout: 20) { r in
            devices.allSatisfy { readingIDs(r.payloads(on: "fixcast/\($0)/reading")) == expected[$0] }
        }
        for d in devices {
            let got = readingIDs(recorder.payloads(on: "fixcast/\(d)/reading"))
            #expect(got == expected[d])
            #expect(got.allSatisfy { $0.hasPrefix("\(d):") })
        }
        // One Home Assistant device per fixcast: each config names its own device and unique ids (an
        // empty one clears what a run with weather ahead on left: `aheadLeftovers`).
        let cleared = recorder.messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.payload.isEmpty }
        #expect(cleared.allSatisfy { $0.topic.contains("_ahead") }, "\(cleared.map(\.topic))")
        for m in recorder.messages where m.topic.hasPrefix("homeassistant/") && !m.payload.isEmpty {
            let device = m.topic.split(separator: "/")[2]
            #expect(m.payload.contains("\"identifiers\":[\"fixcast_\(device)\"]"))
            #expect(m.payload.contains("\"unique_id\":\"fixcast_\(device)_"))
            #expect(
                m.payload.contains("\"state_topic\":\"fixcast/\(device)/state\"") || m.topic.contains("device_tracker"))
        }
        for p in publishers { await p.stop() }
        recorder.stop()
    }
}
