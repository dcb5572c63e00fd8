import FixcastCore
import Testing

@Suite struct MQTTConfigTests {
    func load(_ text: String, env: [String: String] = [:], readable: Bool = false) throws(ConfigError) -> LoadedConfig {
        try ConfigLoader.load(
            file: ConfigFileText(path: "/etc/fixcast/config.toml", text: text, readableByOthers: readable),
            environment: env)
    }

    @Test func defaultsMatchTheContract() {
        let m = Settings().mqtt
        #expect(!m.enabled && m.host == "127.0.0.1" && m.port == 1883 && !m.tls && m.caFile.isEmpty)
        #expect(
            m.topicPrefix == "fixcast" && m.discoveryPrefix == "homeassistant" && m.qos == 1 && m.outboxMax == 100_000)
        #expect(ConfigSchema.secretKeys.contains("mqtt.password"))
    }

    @Test func sectionAndEnvironmentOverrides() throws {
        let c = try load(
            "[mqtt]\nenabled = true\nhost = \"broker.lan\"\nport = 8883\ntls = true\ndevice_id = \"van-1\"\ndiscovery_prefix = \"\"\n",
            env: ["FIXCAST_MQTT_PASSWORD": "from-env", "FIXCAST_MQTT_OUTBOX_MAX": "500"])
        #expect(c.settings.mqtt.enabled && c.settings.mqtt.host == "broker.lan" && c.settings.mqtt.port == 8883)
        #expect(c.settings.mqtt.tls && c.settings.mqtt.deviceID == "van-1" && c.settings.mqtt.discoveryPrefix.isEmpty)
        #expect(c.settings.mqtt.password == "from-env" && c.settings.mqtt.outboxMax == 500)
    }

    @Test func badValuesNameTheKey() {
        #expect(throws: ConfigError.self) { try load("[mqtt]\ndevice_id = \"Big Van\"\n") }
        #expect(throws: ConfigError.self) { try load("[mqtt]\ntopic_prefix = \"a/#\"\n") }
        #expect(throws: ConfigError.self) { try load("[mqtt]\nqos = 0\n") }
        #expect(throws: ConfigError.self) { try load("[mqtt]\noutbox_max = 0\n") }
        do {
            _ = try load("[mqtt]\nport = 99999\n")
            Issue.record("accepted port 99999")
        } catch {
            #expect(error.message.contains("\"port\" in [mqtt]"))
        }
    }

    @Test func thePasswordNeverAppearsInAnErrorOrWarning() throws {
        let secret = "hunter2-secret"
        do {
            _ = try load("[mqtt]\npassword = \"\(secret)\"\nport = \"x\"\n")
            Issue.record("accepted a string port")
        } catch {
            #expect(!error.message.contains(secret))
        }
        let c = try load("[mqtt]\npassword = \"\(secret)\"\n", readable: true)
        #expect(c.warnings.contains { $0.contains("MQTT password") && $0.contains("chmod 600") })
        #expect(!c.warnings.joined().contains(secret))
    }
}
