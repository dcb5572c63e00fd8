import FixcastCore
import Testing

/// The one rule for strings handed to libmosquitto, and the topic prefix rule built on it.
@Suite struct MQTTStringRuleTests {
    @Test("text fields: at most 65,535 bytes, no C0, DEL, C1 or noncharacter")
    func textFields() {
        #expect(MQTTStringRule.problem("fleet-7 Fahrzeug 日本 🚐") == nil)
        #expect(MQTTStringRule.problem("") == nil)
        #expect(MQTTStringRule.problem(String(repeating: "u", count: 65_535)) == nil)
        #expect(MQTTStringRule.problem(String(repeating: "u", count: 65_536))?.contains("65535 bytes") == true)
        // Counted in bytes: 21,846 three-byte characters are 65,538 bytes.
        #expect(MQTTStringRule.problem(String(repeating: "日", count: 21_846)) != nil)
        let nonCharacters = [0xFDD0, 0xFFFE, 0x1FFFF].compactMap {
            Unicode.Scalar(UInt32($0)).map { String(Character($0)) }
        }
        #expect(nonCharacters.count == 3)
        for bad in ["a\u{0}b", "a\u{1B}b", "a\nb", "a\u{7F}", "a\u{0085}", "a\u{009B}"] + nonCharacters {
            #expect(MQTTStringRule.problem(bad) != nil, "\(bad.unicodeScalars.map { $0.value })")
        }
        #expect(MQTTStringRule.problem("\u{00A0}\u{FFFD}") == nil)
    }

    @Test("binary data (the password): at most 65,535 bytes, no NUL, and the reason never repeats it")
    func binary() {
        #expect(MQTTStringRule.binaryProblem("s3cret with spaces\u{1B}") == nil)
        let long = String(repeating: "p", count: 65_536)
        #expect(MQTTStringRule.binaryProblem(long).map { !$0.contains("ppp") } == true)
        #expect(MQTTStringRule.binaryProblem("a\u{0}b") != nil)
    }

    @Test("a topic prefix: no C1, no absurd length, nothing the broker owns ($)")
    func prefix() {
        #expect(MQTTTopics.prefixProblem("fixcast") == nil)
        #expect(MQTTTopics.prefixProblem("fleet/van-7") == nil)
        #expect(MQTTTopics.prefixProblem("a$b") == nil)
        for bad in [
            "a\u{0085}b", "a\u{009B}31m", "$SYS", "$share/g", "$", "a/#", "a/+/b", "/a", "a/", "a//b", "a\u{1B}b",
        ] {
            #expect(MQTTTopics.prefixProblem(bad) != nil, "\(bad.debugDescription)")
        }
        let grapheme = "e" + String(repeating: "\u{0301}", count: 40_000)
        #expect(grapheme.count == 1)
        let reason = MQTTTopics.prefixProblem(grapheme)
        #expect(reason?.contains("bytes") == true)
        #expect((reason?.count ?? 0) < 200, "the reason does not repeat 80 KB")
        #expect(MQTTTopics.prefixProblem(String(repeating: "a", count: 201)) != nil)
    }

    @Test("config: mqtt.discovery_prefix with C1 and mqtt.username over 65,535 bytes are refused naming the key")
    func configKeys() {
        for (variable, value) in [
            ("FIXCAST_MQTT_DISCOVERY_PREFIX", "ha\u{0085}"),
            ("FIXCAST_MQTT_USERNAME", String(repeating: "u", count: 70_000)),
            ("FIXCAST_MQTT_TOPIC_PREFIX", "$SYS"), ("FIXCAST_MQTT_HOST", "-x"),
            ("FIXCAST_MQTT_PASSWORD", String(repeating: "p", count: 70_000)),
        ] {
            do {
                _ = try ConfigLoader.load(file: nil, environment: [variable: value])
                Issue.record("\(variable) accepted")
            } catch {
                #expect(error.message.hasPrefix("config: environment variable \(variable)"), "\(error.message)")
                #expect(!error.message.contains("ppppp"))
            }
        }
        let ok = try? ConfigLoader.load(file: nil, environment: ["FIXCAST_MQTT_HOST": "[::1]"])
        #expect(ok?.settings.mqtt.host == "::1", "libmosquitto takes an IPv6 address without brackets")
    }
}
