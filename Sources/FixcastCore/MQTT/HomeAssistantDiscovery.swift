import FixcastText

/// Home Assistant MQTT discovery: the retained config messages that make one device,
/// "fixcast <device>", appear with a device tracker and the weather, place and alert sensors (and,
/// with weather ahead on, the ahead sensors).
///
/// Keys as Home Assistant documents them for MQTT discovery
/// (https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery), the MQTT sensor
/// (https://www.home-assistant.io/integrations/sensor.mqtt/) and device tracker
/// (https://www.home-assistant.io/integrations/device_tracker.mqtt/); device classes and their
/// units from https://www.home-assistant.io/integrations/sensor/#device-class. Every value
/// template reads the retained `state` topic (the latest reading JSON) and renders `None` (which
/// Home Assistant's MQTT sensor takes as "unknown") when the part it reads is null, so a reading
/// without weather never shows a made-up 0.
public enum HomeAssistantDiscovery {
    /// The longest state Home Assistant keeps, in characters (`MAX_LENGTH_STATE_STATE`).
    static let stateLimit = 255

    /// One config message: its topic and payload.
    public struct Config: Sendable, Equatable {
        public var topic: String
        public var payload: JSONValue
        /// "sensor" or "device_tracker".
        public var component: String
    }

    /// One weather sensor: what it is called, its device class and unit, and where in the reading it is.
    struct Measurement {
        let object: String
        let name: String
        let deviceClass: String?
        let unit: String
        let path: String  // under value_json.weather.current
        let icon: String?
    }

    /// The reading's SI units (CONTRACT.md), so no conversion happens on the way.
    static let measurements: [Measurement] = [
        Measurement(
            object: "temperature", name: "Temperature", deviceClass: "temperature", unit: "°C", path: "temperature_c",
            icon: nil),
        Measurement(
            object: "feels_like", name: "Feels like", deviceClass: "temperature", unit: "°C", path: "feels_like_c",
            icon: nil),
        Measurement(
            object: "humidity", name: "Humidity", deviceClass: "humidity", unit: "%", path: "humidity_pct", icon: nil),
        Measurement(
            object: "dew_point", name: "Dew point", deviceClass: "temperature", unit: "°C", path: "dew_point_c",
            icon: nil),
        Measurement(
            object: "pressure", name: "Pressure", deviceClass: "atmospheric_pressure", unit: "hPa",
            path: "pressure_hpa", icon: nil),
        Measurement(
            object: "wind_speed", name: "Wind speed", deviceClass: "wind_speed", unit: "m/s", path: "wind_speed_mps",
            icon: nil),
        Measurement(
            object: "wind_gust", name: "Wind gust", deviceClass: "wind_speed", unit: "m/s", path: "wind_gust_mps",
            icon: nil),
        // No device class: "wind_direction" is recent in Home Assistant and older versions reject it.
        Measurement(
            object: "wind_bearing", name: "Wind bearing", deviceClass: nil, unit: "°", path: "wind_dir_deg",
            icon: "mdi:compass"),
        Measurement(
            object: "precipitation", name: "Precipitation", deviceClass: "precipitation", unit: "mm",
            path: "precipitation_mm", icon: nil),
        Measurement(
            object: "cloud_cover", name: "Cloud cover", deviceClass: nil, unit: "%", path: "cloud_cover_pct",
            icon: "mdi:weather-cloudy"),
    ]

    /// Every config message for `topics.device`; empty when discovery is off (empty prefix). With
    /// `ahead` (weather ahead on), the ahead sensors too (`aheadSensors`).
    public static func configs(topics: MQTTTopics, ahead: Bool = false) -> [Config] {
        guard !topics.discoveryPrefix.isEmpty else { return [] }
        var out: [Config] = []
        out.append(tracker(topics))
        for m in measurements {
            var members = common(topics, object: m.object, name: m.name)
            if let dc = m.deviceClass { members.append(("device_class", .string(dc))) }
            members.append(("unit_of_measurement", .string(m.unit)))
            members.append(("state_class", .string("measurement")))
            if let icon = m.icon { members.append(("icon", .string(icon))) }
            members.append(
                (
                    "value_template",
                    .string(
                        "{% set w = value_json.weather %}{{ w.current.\(m.path) if w and w.current.\(m.path) is not none else None }}"
                    )
                ))
            out.append(sensor(topics, m.object, members))
        }
        var place = common(topics, object: "place", name: "Place")
        place.append(("icon", .string("mdi:map-marker")))
        // Home Assistant refuses a state longer than 255 characters (an error logged at every message,
        // the sensor left as it was); a place name may be 1,024 bytes (`TextCap.placeName`).
        place.append(
            (
                "value_template",
                .string(
                    "{% set n = value_json.place.name if value_json.place else none %}"
                        + "{{ None if n is none else (n[:\(Self.stateLimit - 1)] ~ '…' if n | length > \(Self.stateLimit) else n) }}"
                )
            ))
        out.append(sensor(topics, "place", place))

        var time = common(topics, object: "last_reading", name: "Last reading")
        time.append(("device_class", .string("timestamp")))
        time.append(("value_template", .string("{{ value_json.time }}")))
        out.append(sensor(topics, "last_reading", time))

        var alerts = common(topics, object: "active_alerts", name: "Active alerts")
        alerts.append(("state_class", .string("measurement")))
        alerts.append(("icon", .string("mdi:alert")))
        // `alerts` null (no source could be asked) or not covered: the count is unknown, never 0
        // (CONTRACT.md: "not covered" is never shown as "no alerts").
        alerts.append(
            (
                "value_template",
                .string(
                    "{{ value_json.alerts.active | length if value_json.alerts and value_json.alerts.covered and value_json.alerts.active is not none else None }}"
                )
            ))
        // Every active alert as an attribute (not the first one's title): headline, severity, onset, expiry.
        alerts.append(("json_attributes_topic", .string(topics.state)))
        alerts.append(
            (
                "json_attributes_template",
                .string(
                    "{% set a = value_json.alerts %}{% set ns = namespace(list=[]) %}"
                        + "{% if a and a.covered and a.active %}{% for x in a.active %}"
                        + "{% set ns.list = ns.list + [{'id': x.id, 'event': x.event, 'headline': x.headline, 'severity': x.severity, 'onset': x.onset, 'expires': x.expires, 'area': x.area}] %}"
                        + "{% endfor %}{% endif %}{{ {'alerts': ns.list} | tojson }}")
            ))
        out.append(sensor(topics, "active_alerts", alerts))
        if ahead { out += aheadSensors(topics) }
        return out
    }

    /// The retained topics to clear (an empty retained message) when weather ahead is off: the ahead
    /// sensors' configs and their `ahead` state. A run with ahead on left them, and Home Assistant
    /// kept showing "rain ahead in 15 min" from then on; cleared, the entities go away. Nothing with
    /// ahead on (`configs` publishes them then).
    public static func aheadLeftovers(topics: MQTTTopics, ahead: Bool) -> [String] {
        guard !ahead else { return [] }
        let configs =
            topics.discoveryPrefix.isEmpty
            ? [] : aheadMeasurements.map { topics.discoveryConfig(component: "sensor", object: $0.object) }
        return configs + [topics.ahead]
    }

    /// One ahead sensor: its object id, name, device class and unit, and the `AheadSensors` field it shows.
    struct AheadMeasurement {
        let object: String
        let name: String
        let deviceClass: String?
        let unit: String?
        let field: String
        let icon: String?
    }

    static let aheadMeasurements: [AheadMeasurement] = [
        AheadMeasurement(
            object: "rain_ahead", name: "Rain ahead", deviceClass: "duration", unit: "min", field: "rain_in_min",
            icon: "mdi:weather-rainy"),
        AheadMeasurement(
            object: "temperature_ahead_min", name: "Temperature ahead min", deviceClass: "temperature", unit: "°C",
            field: "temperature_min_c", icon: nil),
        AheadMeasurement(
            object: "temperature_ahead_max", name: "Temperature ahead max", deviceClass: "temperature", unit: "°C",
            field: "temperature_max_c", icon: nil),
        AheadMeasurement(
            object: "gust_ahead_max", name: "Gust ahead max", deviceClass: "wind_speed", unit: "m/s",
            field: "gust_max_mps", icon: nil),
        AheadMeasurement(
            object: "alerts_ahead", name: "Alerts ahead", deviceClass: nil, unit: nil, field: "alerts_count",
            icon: "mdi:alert-outline"),
    ]

    /// The ahead sensors, reading the retained `ahead` topic (`AheadSensors`): a null field renders
    /// `None`, which Home Assistant shows as unknown. `alerts_ahead` carries the samples and the
    /// alerts ahead as attributes.
    static func aheadSensors(_ topics: MQTTTopics) -> [Config] {
        aheadMeasurements.map { m in
            var members = common(topics, object: m.object, name: m.name)
            members = members.map { $0.0 == "state_topic" ? ("state_topic", .string(topics.ahead)) : $0 }
            if let dc = m.deviceClass { members.append(("device_class", .string(dc))) }
            if let unit = m.unit { members.append(("unit_of_measurement", .string(unit))) }
            members.append(("state_class", .string("measurement")))
            if let icon = m.icon { members.append(("icon", .string(icon))) }
            members.append(
                (
                    "value_template",
                    .string("{{ value_json.\(m.field) if value_json.\(m.field) is not none else None }}")
                ))
            if m.object == "alerts_ahead" {
                members.append(("json_attributes_topic", .string(topics.ahead)))
                members.append(
                    (
                        "json_attributes_template",
                        .string("{{ {'samples': value_json.samples, 'alerts': value_json.alerts} | tojson }}")
                    ))
            }
            return sensor(topics, m.object, members)
        }
    }

    /// The device every entity belongs to.
    static func device(_ topics: MQTTTopics) -> JSONValue {
        .object([
            ("identifiers", .array([.string("fixcast_\(topics.device)")])),
            ("name", .string("fixcast \(topics.device)")),
            ("manufacturer", .string("fixcast")),
            ("model", .string("fixcast weather agent")),
            ("sw_version", .string(FixcastInfo.version)),
        ])
    }

    static func common(_ topics: MQTTTopics, object: String, name: String) -> [(String, JSONValue)] {
        [
            ("name", .string(name)),
            ("unique_id", .string("fixcast_\(topics.device)_\(object)")),
            ("state_topic", .string(topics.state)),
            ("availability_topic", .string(topics.availability)),
            ("payload_available", .string(MQTTTopics.online)),
            ("payload_not_available", .string(MQTTTopics.offline)),
            ("qos", .int(1)),
            ("device", device(topics)),
            (
                "origin",
                .object([
                    ("name", .string("fixcast")), ("sw_version", .string(FixcastInfo.version)),
                    ("support_url", .string(FixcastInfo.projectURL)),
                ])
            ),
        ]
    }

    static func sensor(_ topics: MQTTTopics, _ object: String, _ members: [(String, JSONValue)]) -> Config {
        Config(
            topic: topics.discoveryConfig(component: "sensor", object: object), payload: .object(members),
            component: "sensor")
    }

    /// The position: Home Assistant takes latitude, longitude and gps_accuracy from the JSON
    /// attributes and places the tracker in a zone by them; altitude, speed (m/s) and course ride along.
    static func tracker(_ topics: MQTTTopics) -> Config {
        // gps_accuracy only when the receiver gave one (a manual position has none): Home Assistant
        // warns about a null one and takes 0, which would claim a perfect fix.
        let attributes =
            "{% set p = value_json.position %}{% if not p %}{}"
            + "{% elif p.eph_m is not none %}{{ {'latitude': p.lat, 'longitude': p.lon, 'gps_accuracy': p.eph_m, 'altitude': p.alt_m, 'speed': p.speed_mps, 'course': p.track_deg} | tojson }}"
            + "{% else %}{{ {'latitude': p.lat, 'longitude': p.lon, 'altitude': p.alt_m, 'speed': p.speed_mps, 'course': p.track_deg} | tojson }}{% endif %}"
        let members: [(String, JSONValue)] = [
            ("name", .string("Position")),
            ("unique_id", .string("fixcast_\(topics.device)_position")),
            ("json_attributes_topic", .string(topics.state)),
            ("json_attributes_template", .string(attributes)),
            ("source_type", .string("gps")),
            ("availability_topic", .string(topics.availability)),
            ("payload_available", .string(MQTTTopics.online)),
            ("payload_not_available", .string(MQTTTopics.offline)),
            ("qos", .int(1)),
            ("icon", .string("mdi:car")),
            ("device", device(topics)),
            (
                "origin",
                .object([
                    ("name", .string("fixcast")), ("sw_version", .string(FixcastInfo.version)),
                    ("support_url", .string(FixcastInfo.projectURL)),
                ])
            ),
        ]
        return Config(
            topic: topics.discoveryConfig(component: "device_tracker", object: "position"), payload: .object(members),
            component: "device_tracker")
    }
}
