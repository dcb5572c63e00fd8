import FixcastCore
import FixcastText
import Testing

/// Every discovery payload checked against what Home Assistant accepts for its platform.
///
/// Written from Home Assistant's documentation:
/// - MQTT sensor: https://www.home-assistant.io/integrations/sensor.mqtt/ (configuration variables)
/// - MQTT device tracker: https://www.home-assistant.io/integrations/device_tracker.mqtt/
/// - device registry keys and `origin`: https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery
/// - sensor device classes and their units, state classes: https://www.home-assistant.io/integrations/sensor/#device-class
///   (and homeassistant/components/sensor/const.py DEVICE_CLASS_UNITS / DEVICE_CLASS_STATE_CLASSES).
@Suite struct HomeAssistantDiscoveryTests {
    static let commonKeys: Set<String> = [
        "availability", "availability_mode", "availability_template", "availability_topic", "device",
        "enabled_by_default", "encoding", "entity_category", "entity_picture", "icon", "json_attributes_template",
        "json_attributes_topic", "name", "object_id", "default_entity_id", "origin", "payload_available",
        "payload_not_available", "platform", "qos", "unique_id",
    ]
    static let sensorKeys: Set<String> = commonKeys.union([
        "device_class", "expire_after", "force_update", "last_reset_value_template", "options",
        "suggested_display_precision", "state_class", "state_topic", "unit_of_measurement", "value_template",
    ])
    static let trackerKeys: Set<String> = commonKeys.union([
        "payload_home", "payload_not_home", "payload_reset", "source_type", "state_topic", "value_template",
    ])
    static let deviceKeys: Set<String> = [
        "configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model", "model_id", "name",
        "serial_number", "suggested_area", "sw_version", "via_device",
    ]
    static let originKeys: Set<String> = ["name", "sw_version", "support_url"]
    /// Device classes used here and the units Home Assistant allows for each.
    static let unitsByDeviceClass: [String: Set<String>] = [
        "temperature": ["°C", "°F", "K"],
        "humidity": ["%"],
        "atmospheric_pressure": ["cbar", "bar", "hPa", "mmHg", "inHg", "kPa", "mbar", "Pa", "psi"],
        "pressure": ["cbar", "bar", "hPa", "mmHg", "inHg", "kPa", "mbar", "Pa", "psi"],
        "wind_speed": ["Beaufort", "ft/s", "km/h", "kn", "m/s", "mph"],
        "precipitation": ["cm", "in", "mm"],
        "duration": ["d", "h", "min", "s", "ms"],
        "timestamp": [],
    ]
    /// State classes Home Assistant allows per device class (timestamp: none).
    static let stateClassesByDeviceClass: [String: Set<String>] = [
        "temperature": ["measurement"], "humidity": ["measurement"], "atmospheric_pressure": ["measurement"],
        "pressure": ["measurement"], "wind_speed": ["measurement"],
        "precipitation": ["measurement", "total", "total_increasing"],
        "duration": ["measurement", "total", "total_increasing"], "timestamp": [],
    ]
    static let sourceTypes: Set<String> = ["gps", "router", "bluetooth", "bluetooth_le"]

    let topics = MQTTTopics(prefix: "fixcast", device: "pi-van", discoveryPrefix: "homeassistant")

    func keys(_ v: JSONValue?) -> Set<String> { Set((v?.objectValue ?? []).map(\.0)) }

    @Test func everyPayloadUsesOnlyDocumentedKeysAndValues() throws {
        let configs = HomeAssistantDiscovery.configs(topics: topics)
        #expect(configs.count == 14)  // tracker + 10 weather + place + last reading + alerts
        var uniqueIDs = Set<String>()
        for c in configs {
            let p = c.payload
            let allowed = c.component == "sensor" ? Self.sensorKeys : Self.trackerKeys
            #expect(keys(p).isSubset(of: allowed), "\(c.topic): \(keys(p).subtracting(allowed))")
            #expect(keys(p["device"]).isSubset(of: Self.deviceKeys))
            #expect(keys(p["origin"]).isSubset(of: Self.originKeys))
            #expect(p["device"]?["identifiers"] == .array([.string("fixcast_pi-van")]))
            #expect(p["device"]?["name"]?.stringValue == "fixcast pi-van")
            #expect(p["availability_topic"]?.stringValue == "fixcast/pi-van/availability")
            let uid = try #require(p["unique_id"]?.stringValue)
            #expect(uniqueIDs.insert(uid).inserted, "duplicate unique_id \(uid)")
            let parts = c.topic.split(separator: "/")
            #expect(parts.count == 5 && parts[0] == "homeassistant" && parts[2] == "pi-van" && parts[4] == "config")
            #expect(String(parts[1]) == c.component)
            if c.component == "sensor" {
                #expect(p["state_topic"]?.stringValue == "fixcast/pi-van/state")
                #expect(p["value_template"]?.stringValue?.contains("value_json") == true)
                if let dc = p["device_class"]?.stringValue {
                    let units = try #require(Self.unitsByDeviceClass[dc], "undocumented device class \(dc)")
                    if let unit = p["unit_of_measurement"]?.stringValue {
                        #expect(units.contains(unit), "\(dc) does not take \(unit)")
                    } else {
                        #expect(units.isEmpty)
                    }
                    if let sc = p["state_class"]?.stringValue {
                        #expect(Self.stateClassesByDeviceClass[dc]?.contains(sc) == true, "\(dc) with \(sc)")
                    }
                } else if let sc = p["state_class"]?.stringValue {
                    #expect(sc == "measurement")
                }
            } else {
                #expect(c.component == "device_tracker")
                #expect(Self.sourceTypes.contains(p["source_type"]?.stringValue ?? ""))
                let template = try #require(p["json_attributes_template"]?.stringValue)
                for attribute in ["latitude", "longitude", "gps_accuracy", "altitude", "speed", "course"] {
                    #expect(template.contains("'\(attribute)'"))
                }
            }
        }
    }

    @Test func theWeatherSensorsAreMeasurementsWithUnits() {
        let sensors = HomeAssistantDiscovery.configs(topics: topics).filter {
            [
                "temperature", "feels_like", "humidity", "dew_point", "pressure", "wind_speed", "wind_gust",
                "wind_bearing",
                "precipitation", "cloud_cover",
            ].contains($0.topic.split(separator: "/")[3])
        }
        #expect(sensors.count == 10)
        for s in sensors {
            #expect(s.payload["state_class"]?.stringValue == "measurement")
            #expect(s.payload["unit_of_measurement"]?.stringValue != nil)
        }
        let time = HomeAssistantDiscovery.configs(topics: topics).first { $0.topic.contains("/last_reading/") }
        #expect(time?.payload["device_class"]?.stringValue == "timestamp")
        #expect(time?.payload["state_class"] == nil)
        let alerts = HomeAssistantDiscovery.configs(topics: topics).first { $0.topic.contains("/active_alerts/") }
        #expect(alerts?.payload["value_template"]?.stringValue?.contains("alerts.active | length") == true)
    }

    @Test func emptyDiscoveryPrefixTurnsDiscoveryOff() {
        let off = MQTTTopics(prefix: "fixcast", device: "pi-van", discoveryPrefix: "")
        #expect(HomeAssistantDiscovery.configs(topics: off).isEmpty)
    }

    @Test func theAlertSensorListsEveryActiveAlertAsAttributes() throws {
        let alerts = try #require(
            HomeAssistantDiscovery.configs(topics: topics).first { $0.topic.contains("/active_alerts/") })
        #expect(alerts.payload["json_attributes_topic"]?.stringValue == "fixcast/pi-van/state")
        let template = try #require(alerts.payload["json_attributes_template"]?.stringValue)
        #expect(template.contains("for x in a.active"), "every alert, not the first")
        for field in ["headline", "severity", "onset", "expires"] { #expect(template.contains("x.\(field)")) }
    }

    @Test func withAheadOnDiscoveryAddsTheFiveAheadSensorsOnTheAheadTopic() throws {
        #expect(HomeAssistantDiscovery.configs(topics: topics).contains { $0.topic.contains("_ahead") } == false)
        let configs = HomeAssistantDiscovery.configs(topics: topics, ahead: true)
        #expect(configs.count == 19)
        let ahead = configs.filter { $0.payload["state_topic"]?.stringValue == "fixcast/pi-van/ahead" }
        #expect(
            ahead.map { String($0.topic.split(separator: "/")[3]) } == [
                "rain_ahead", "temperature_ahead_min", "temperature_ahead_max", "gust_ahead_max", "alerts_ahead",
            ])
        #expect(Set(configs.compactMap { $0.payload["unique_id"]?.stringValue }).count == configs.count)
        for c in ahead {
            let p = c.payload
            #expect(keys(p).isSubset(of: Self.sensorKeys), "\(c.topic): \(keys(p).subtracting(Self.sensorKeys))")
            if let dc = p["device_class"]?.stringValue {
                let units = try #require(Self.unitsByDeviceClass[dc], "undocumented device class \(dc)")
                #expect(units.contains(p["unit_of_measurement"]?.stringValue ?? ""), "\(dc)")
                #expect(Self.stateClassesByDeviceClass[dc]?.contains(p["state_class"]?.stringValue ?? "") == true)
            }
            #expect(p["value_template"]?.stringValue?.contains("else None") == true, "unknown, never 0")
        }
        let rain = try #require(ahead.first)
        #expect(rain.payload["unit_of_measurement"]?.stringValue == "min")
        #expect(rain.payload["value_template"]?.stringValue?.contains("value_json.rain_in_min") == true)
        let count = try #require(ahead.last)
        #expect(count.payload["json_attributes_topic"]?.stringValue == "fixcast/pi-van/ahead")
        #expect(count.payload["json_attributes_template"]?.stringValue?.contains("value_json.samples") == true)
    }
}
