import FixcastCore
import FixcastText
import FoundationEssentials
import Testing

@Suite struct MQTTPayloadTests {
    @Test func deviceIDFromHostName() {
        #expect(DeviceID.fromHostName("Pi-Van.local") == "pi-van")
        #expect(DeviceID.fromHostName("My Boat #2") == "my-boat-2")
        #expect(DeviceID.fromHostName("field_station-07") == "field_station-07")
        #expect(DeviceID.fromHostName("") == "fixcast")
        #expect(DeviceID.fromHostName("日本") == "fixcast")
        #expect(DeviceID.resolve(configured: "truck1", hostName: "ignored") == "truck1")
        #expect(DeviceID.resolve(configured: "", hostName: "Host") == "host")
    }

    @Test func deviceIDConfigRule() {
        #expect(DeviceID.problem("") == nil)
        #expect(DeviceID.problem("van-1_a") == nil)
        #expect(DeviceID.problem("Van") != nil)
        #expect(DeviceID.problem("a/b") != nil)
        #expect(DeviceID.problem("a+") != nil)
        #expect(DeviceID.problem(String(repeating: "a", count: 65)) != nil)
    }

    @Test func topicsAndPrefixRule() {
        let t = MQTTTopics(prefix: "fleet/eu", device: "van1", discoveryPrefix: "homeassistant")
        #expect(t.reading == "fleet/eu/van1/reading")
        #expect(t.state == "fleet/eu/van1/state")
        #expect(t.availability == "fleet/eu/van1/availability")
        #expect(t.owntracks == "fleet/eu/van1/owntracks")
        #expect(
            t.discoveryConfig(component: "sensor", object: "temperature")
                == "homeassistant/sensor/van1/temperature/config")
        #expect(MQTTTopics.prefixProblem("fixcast") == nil)
        #expect(MQTTTopics.prefixProblem("a/#") != nil)
        #expect(MQTTTopics.prefixProblem("a/+/b") != nil)
        #expect(MQTTTopics.prefixProblem("/a") != nil)
        #expect(MQTTTopics.prefixProblem("a/") != nil)
        #expect(MQTTTopics.prefixProblem("a//b") != nil)
    }

    static func reading(speed: Double?, track: Double?, eph: Double?) -> Reading {
        let fix = Date(timeIntervalSince1970: 1_800_000_000)
        let position = Position(
            coordinate: Coordinate(lat: 52.52, lon: 13.4)!, altitudeM: 34.4, speedMps: speed, trackDeg: track,
            mode: .threeD, fixTime: fix, obtainedAt: fix, source: .gps, horizontalErrorM: eph, satellitesUsed: 8)
        return Reading(time: fix.addingTimeInterval(2), trigger: .moved, position: position)
    }

    @Test func ownTracksLocation() throws {
        let p = try #require(
            OwnTracksLocation.payload(for: Self.reading(speed: 27.78, track: 359.7, eph: 4.6), device: "pi-van"))
        #expect(p["_type"]?.stringValue == "location")
        #expect(p["lat"]?.doubleValue == 52.52)
        #expect(p["lon"]?.doubleValue == 13.4)
        #expect(p["vel"] == .int(100))  // 27.78 m/s is 100 km/h
        #expect(p["cog"] == .int(0))  // 359.7 rounds to 360, which is 0
        #expect(p["acc"] == .int(5))
        #expect(p["alt"] == .int(34))
        #expect(p["tst"] == .int(1_800_000_000))  // the fix's time, epoch seconds
        #expect(p["tid"]?.stringValue == "PI")
    }

    @Test func ownTracksLeavesOutWhatIsUnknownOrAbsurd() throws {
        let p = try #require(
            OwnTracksLocation.payload(for: Self.reading(speed: nil, track: .nan, eph: nil), device: "x"))
        #expect(p["vel"] == nil && p["cog"] == nil && p["acc"] == nil)
        #expect(p["tid"]?.stringValue == "XX")
        let fast = try #require(
            OwnTracksLocation.payload(for: Self.reading(speed: 5000, track: 10, eph: 1), device: "x"))
        #expect(fast["vel"] == nil)
        #expect(
            OwnTracksLocation.payload(for: Reading(time: Date(), trigger: .once, position: nil), device: "x") == nil)
        #expect(OwnTracksLocation.trackerID(device: "-_-") == "FX")
    }

    @Test func readingIDIsFirstInTheJSONAndReadsBack() throws {
        var r = Self.reading(speed: 1, track: 2, eph: 3)
        #expect(r.json(language: .en)["id"] == .null)
        r.id = DeviceID.readingID(device: "pi-van", row: 1842)
        let json = r.json(language: .en)
        #expect(json.objectValue?.first?.0 == "id")
        #expect(json["id"]?.stringValue == "pi-van:1842")
        #expect(Reading(json: try JSONValue.parse(json.serialized()))?.id == "pi-van:1842")
    }

    @Test func errorsAreOneSentenceNamingMQTT() {
        for cause in [MQTTFailureCause.dns, .tcp, .tls, .auth, .protocolError, .lost] {
            let e = MQTTError(cause: cause, broker: "10.0.0.1:1883", detail: "Bad thing.\u{1B}[31m")
            #expect(e.component == .mqtt)
            #expect(e.message.hasPrefix("mqtt: "))
            #expect(e.message.hasSuffix("."))
            #expect(!e.message.contains(". ") && !e.message.contains("\u{1B}"))
        }
    }

    @Test func aLibrarysErrorStringIsOneSafeLineAndCapped() {
        let detail = "line one\nline two\u{202E}" + String(repeating: "x", count: 500)
        let e = MQTTError(cause: .library, broker: "10.0.0.1:1883", detail: detail)
        #expect(!e.message.unicodeScalars.contains { TerminalText.isUnsafe($0) })
        #expect(e.message.hasPrefix("mqtt: line one line two"))
        #expect(e.message.contains("x…; readings wait"))
        #expect(e.message.count < 200 + 60)
    }
}
