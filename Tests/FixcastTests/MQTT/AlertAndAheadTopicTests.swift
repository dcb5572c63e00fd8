import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// The `alert` and `ahead` topics and their Home Assistant side, against a real mosquitto, and the
/// alert sensor's attribute template rendered by Jinja2 (the template engine Home Assistant uses).
@Suite(.serialized, .scratch)
struct AlertAndAheadTopicTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func report(_ alerts: [Alert]) -> AlertReport {
        AlertReport(source: .metalerts, covered: true, fetchedAt: t0, stale: false, active: alerts)
    }

    static let gale = Alert(
        id: "2.49.0.1.578.0.1", event: "Kuling", headline: "Kuling, gult nivå", severity: .moderate,
        onset: t0.addingTimeInterval(-600), expires: t0.addingTimeInterval(7200), area: "Bulandet - Måløy")

    @Test func alertTopicOncePerAlertAndOnceWhenItEndsAndAheadSensorsDiscovered() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let store = try ReadingPublisherTests.store()
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#", "homeassistant/#"])
        defer { recorder.stop() }
        let publisher = await ReadingPublisher.start(
            settings: ReadingPublisherTests.settings(port: broker.port, device: "van7"), store: store,
            deviceID: "van7", ahead: true)
        publisher.alertsChecked(Self.report([Self.gale]), at: Self.t0)
        var updated = Self.gale
        updated.headline = "Kuling, oppdatert"
        publisher.alertsChecked(Self.report([updated]), at: Self.t0.addingTimeInterval(600))
        publisher.alertsChecked(nil, at: Self.t0.addingTimeInterval(900))
        publisher.alertsChecked(Self.report([]), at: Self.t0.addingTimeInterval(1200))
        let topic = "fixcast/van7/alert"
        await recorder.wait(timeout: 15) { $0.payloads(on: topic).count >= 2 }
        _ = try await ReadingPublisherTests.storeReadings(1, in: store, device: "van7", publisher: publisher)
        await recorder.wait(timeout: 15) { !$0.payloads(on: "fixcast/van7/ahead").isEmpty }
        await publisher.stop()

        let messages = recorder.payloads(on: topic).compactMap { try? JSONValue.parse($0) }
        #expect(messages.map { $0["ended"]?.boolValue } == [false, true])
        #expect(messages.map { $0["id"]?.stringValue } == [Self.gale.id, Self.gale.id])
        #expect(messages.last?["headline"]?.stringValue == "Kuling, oppdatert")
        #expect(messages.first?["source"]?.stringValue == "metalerts")
        // The state survives: a new publisher on the same store does not announce the gale again.
        let again = await ReadingPublisher.start(
            settings: ReadingPublisherTests.settings(port: broker.port, device: "van7"), store: store, deviceID: "van7",
            ahead: true)
        again.alertsChecked(Self.report([]), at: Self.t0.addingTimeInterval(1300))
        try await Task.sleep(for: .milliseconds(500))
        await again.stop()
        #expect(recorder.payloads(on: topic).count == 2)

        // With ahead on: the five ahead sensors are discovered, and the ahead topic (no forecast in
        // this reading) says unknown, never 0.
        let discovered = Set(recorder.messages.map(\.topic).filter { $0.hasPrefix("homeassistant/sensor/van7/") })
        for object in [
            "rain_ahead", "temperature_ahead_min", "temperature_ahead_max", "gust_ahead_max", "alerts_ahead",
        ] {
            #expect(discovered.contains("homeassistant/sensor/van7/\(object)/config"), "\(object)")
        }
        let ahead = try #require(recorder.payloads(on: "fixcast/van7/ahead").last.flatMap { try? JSONValue.parse($0) })
        #expect(ahead["rain_in_min"] == .null)
        #expect(ahead["alerts_count"] == .null)

        // Ahead turned off: what the runs with it on left is cleared, so Home Assistant drops the five
        // sensors rather than show their last values for ever.
        let off = await ReadingPublisher.start(
            settings: ReadingPublisherTests.settings(port: broker.port, device: "van7"), store: store, deviceID: "van7")
        await recorder.wait(timeout: 15) { $0.payloads(on: "fixcast/van7/ahead").last == "" }
        await off.stop()
        let late = try TopicRecorder(broker: broker, topics: ["fixcast/van7/ahead", "homeassistant/sensor/van7/#"])
        defer { late.stop() }
        await late.wait(timeout: 2) { $0.payloads(on: "homeassistant/sensor/van7/temperature/config").count > 0 }
        let kept = Set(late.messages.map(\.topic))
        #expect(kept.contains("homeassistant/sensor/van7/temperature/config"), "the other sensors stay")
        for object in [
            "rain_ahead", "temperature_ahead_min", "temperature_ahead_max", "gust_ahead_max", "alerts_ahead",
        ] {
            #expect(!kept.contains("homeassistant/sensor/van7/\(object)/config"), "\(object) is cleared")
        }
        #expect(!kept.contains("fixcast/van7/ahead"))
    }

    /// Renders `template` with `value_json` = `state` in Jinja2; nil when python3-jinja2 is missing.
    static func render(_ template: String, state: JSONValue) throws -> String {
        let script = """
            import json, sys, jinja2
            env = jinja2.Environment()
            t = env.from_string(sys.argv[1])
            sys.stdout.write(t.render(value_json=json.loads(sys.argv[2])))
            """
        let r = try CLIRunner.run(
            executable: "/usr/bin/python3", arguments: ["-c", script, template, state.serialized()], environment: nil,
            timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    @Test func theAlertSensorsAttributesListEveryActiveAlert() throws {
        let topics = MQTTTopics(prefix: "fixcast", device: "van7", discoveryPrefix: "homeassistant")
        let config = try #require(
            HomeAssistantDiscovery.configs(topics: topics).first { $0.topic.contains("/active_alerts/") })
        let template = try #require(config.payload["json_attributes_template"]?.stringValue)
        var second = Self.gale
        second.id = "2.49.0.1.578.0.2"
        second.event = "Snø"
        second.headline = nil
        let reading = Reading(
            time: Self.t0, trigger: .periodic, position: nil, alerts: Self.report([Self.gale, second]))
        let rendered = try JSONValue.parse(try Self.render(template, state: reading.json(language: .en)))
        let list = try #require(rendered["alerts"]?.arrayValue)
        #expect(list.map { $0["event"]?.stringValue } == ["Kuling", "Snø"])
        #expect(list.first?["headline"]?.stringValue == "Kuling, gult nivå")
        #expect(list.first?["severity"]?.stringValue == "moderate")
        #expect(list.first?["onset"]?.stringValue == Self.gale.onset.map(UTCTime.format))
        #expect(list.first?["expires"]?.stringValue == Self.gale.expires.map(UTCTime.format))
        #expect(list.last?["headline"] == .null)
        // Not covered, or no alerts at all: an empty list, and the template still renders.
        let none = Reading(time: Self.t0, trigger: .periodic, position: nil, alerts: .notCovered)
        #expect(try JSONValue.parse(try Self.render(template, state: none.json(language: .en)))["alerts"] == .array([]))
        let off = Reading(time: Self.t0, trigger: .periodic, position: nil, alerts: nil)
        #expect(try JSONValue.parse(try Self.render(template, state: off.json(language: .en)))["alerts"] == .array([]))
    }
}
