import FixcastText
import FoundationEssentials

/// Every config key: its section, name, TOML type and how it sets `Settings`, with the checks
/// of its value. One table, so the parser, the environment overrides and the example file
/// (config/fixcast.toml, compared in a test) cannot drift apart.
public enum ConfigSchema {
    /// The TOML type a key takes.
    public enum Kind: Sendable {
        case string, integer, number, boolean

        /// Whether a TOML value of this type can set a key of this kind (an integer is a number too).
        func accepts(_ value: TOMLValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.integer, .integer), (.number, .integer), (.number, .float), (.boolean, .boolean):
                return true
            default:
                return false
            }
        }

        var expected: String {
            switch self {
            case .string: return "a string"
            case .integer: return "an integer"
            case .number: return "a number"
            case .boolean: return "true or false"
            }
        }
    }

    /// One key. `apply` returns a reason ("must be …") when the value is not acceptable.
    public struct Key: Sendable {
        public let section: String
        public let name: String
        public let kind: Kind
        let apply: @Sendable (inout Settings, TOMLValue) -> String?

        /// The environment variable that overrides it: `FIXCAST_<SECTION>_<KEY>`.
        public var environmentVariable: String { "FIXCAST_\(section.uppercased())_\(name.uppercased())" }
    }

    /// Keys whose values are secrets: no error, warning or log line ever shows their value,
    /// whatever is wrong with it (an unquoted value, a wrong type, a bad character). One list, so
    /// a new secret (a password) is protected by adding its name here.
    public static let secretKeys: Set<String> = ["weather.api_key", "mqtt.password"]

    /// Whether `section.name` holds a secret: a secret's key, in its own table or any other (an `api_key`
    /// or `password` written under the wrong [table] is still a secret: a syntax error there quoted it).
    public static func isSecret(section: String, key: String) -> Bool {
        secretKeys.contains(section + "." + key) || secretKeys.contains { $0.hasSuffix("." + key) }
    }

    /// The variables named `FIXCAST_…` that are not settings, so never warned about as a misspelt one:
    /// read by fixcast (`FIXCAST_CONFIG`, `FIXCAST_DATA_DIR`, `FIXCAST_DEMO_LABEL`), set by it for
    /// `alerts.command` (`FIXCAST_ALERT_EVENT`, `FIXCAST_ALERT_SEVERITY`: a `fixcast` run from the command
    /// sees them), and read by its tests and data scripts.
    public static let otherVariables: Set<String> = [
        "FIXCAST_CONFIG", "FIXCAST_DATA_DIR", "FIXCAST_DEMO_LABEL", "FIXCAST_ALERT_EVENT", "FIXCAST_ALERT_SEVERITY",
        "FIXCAST_UPDATE_GOLDEN", "FIXCAST_GPXPY_PYTHON", "FIXCAST_TEST_KEEP_SVG", "FIXCAST_TEST_KILL_WRITER_DB",
        "FIXCAST_GEONAMES_DIR", "FIXCAST_NATURAL_EARTH_DIR", "FIXCAST_ALERT_AREAS_DIR",
    ]

    public static let sections = [
        "gps", "trigger", "weather", "places", "storage", "display", "alerts", "report", "mqtt", "ahead",
    ]
    static var sectionList: String { sections.map { "[\($0)]" }.joined(separator: ", ") }

    public static let keys: [Key] =
        [
            Key(section: "gps", name: "host", kind: .string) { s, v in
                guard case .string(let h) = v else { return nil }
                guard HostAddress.isValid(h) else {
                    return "must be a host name (at most 253 characters) or IP address such as \"127.0.0.1\""
                }
                s.gps.host = h
                return nil
            },
            Key(section: "gps", name: "port", kind: .integer) { s, v in
                guard case .integer(let p) = v else { return nil }
                guard (1...65535).contains(p) else { return "must be a port from 1 to 65535, not \(p)" }
                s.gps.port = p
                return nil
            },
            // Up to 5 minutes: a receiver's cold start takes a minute or two; longer hides a dead one
            // (`now` waits this long for each try before the last-known position).
            range("gps", "fix_timeout_s", 0.1...300, unit: "seconds") { $0.gps.fixTimeoutS = $1 },
            Key(section: "gps", name: "fix_retries", kind: .integer) { s, v in
                guard case .integer(let n) = v else { return nil }
                // More than 10 retries of 8 s each would hide a dead receiver for minutes.
                guard (0...10).contains(n) else { return "must be from 0 to 10, not \(n)" }
                s.gps.fixRetries = n
                return nil
            },
            // hardening2: the speed above which a jump between fixes is held until later fixes agree.
            // 10 m/s holds a jump even on a bicycle; 3,000 m/s is above anything that carries a receiver.
            range("gps", "max_speed_mps", 10...3_000, unit: "m/s") { $0.gps.maxSpeedMps = $1 },
            // At least 1 km: the finest weather models' cells are 1-2 km, so a shorter move asks the
            // same cell again, and at speed it would be a reading (a request, a store row, a message)
            // every few fixes. At most 1,000 km.
            range("trigger", "move_km", 1...1_000, unit: "km") { $0.trigger.moveKm = $1 },
            // A reading is stored (and published) each time: below a minute a standing machine would fill the store.
            minutes("trigger", "periodic_min") { $0.trigger.periodicMin = $1 },
            // 0 (every resume reads) to a day.
            range("trigger", "resume_min_away_s", 0...86_400, unit: "seconds") { $0.trigger.resumeMinAwayS = $1 },
            choice("weather", "provider", WeatherProviderID.self) { $0.weather.provider = $1 },
            url("weather", "base_url") { $0.weather.baseURL = $1 },
            Key(section: "weather", name: "api_key", kind: .string) { s, v in
                guard case .string(let k) = v else { return nil }
                guard !k.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }) else {
                    return "must not contain spaces or control characters"
                }
                s.weather.apiKey = k
                return nil
            },
            // Never below a minute (DESIGN.md §3: never zero, to protect the shared API limit): a
            // shorter cache would ask the provider at every reading of a `run` that reads often.
            minutes("weather", "cache_min") { $0.weather.cacheMin = $1 },
            // The same floor: a forced refresh (SIGUSR1, r, --force, resume) must not burst the limit either.
            minutes("weather", "forced_cache_min") { $0.weather.forcedCacheMin = $1 },
            choice("places", "provider", Settings.PlacesProvider.self) { $0.places.provider = $1 },
            url("places", "base_url") { $0.places.baseURL = $1 },
            url("places", "search_url") { $0.places.searchURL = $1 },
            Key(section: "places", name: "language", kind: .string) { s, v in
                guard case .string(let l) = v else { return nil }
                // A BCP 47 tag as Nominatim's accept-language takes it ("en", "de", "pt-BR").
                let ok =
                    !l.isEmpty && l.count <= 35
                    && l.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                    && l.first?.isLetter == true
                guard ok else {
                    return "must be a language code such as \"en\" or \"pt-BR\", not \"\(TerminalText.echo(l))\""
                }
                s.places.language = l
                return nil
            },
            Key(section: "storage", name: "path", kind: .string) { s, v in
                guard case .string(let p) = v else { return nil }
                guard !p.contains("\0") else { return "must not contain a NUL character" }
                s.storage.path = p
                return nil
            },
            // A point a second at most often (gpsd's usual rate) to one an hour; 1 m to 100 km moved.
            range("storage", "track_interval_s", 1...3_600, unit: "seconds") { $0.storage.trackIntervalS = $1 },
            range("storage", "track_distance_m", 1...100_000, unit: "metres") { $0.storage.trackDistanceM = $1 },
            Key(section: "display", name: "units", kind: .string) { s, v in
                guard case .string(let u) = v else { return nil }
                guard let units = UnitSystem(rawValue: u) else {
                    return "must be metric or imperial, not \"\(TerminalText.echo(u))\""
                }
                s.display.units = units
                return nil
            },
            choice("display", "lang", Language.self) { $0.display.lang = $1 },
            flag("alerts", "enabled") { $0.alerts.enabled = $1 },
            choice("alerts", "source", AlertSourceSetting.self) { $0.alerts.source = $1 },
            url("alerts", "nws_base_url") { $0.alerts.nwsBaseURL = $1 },
            url("alerts", "metalerts_base_url") { $0.alerts.metAlertsBaseURL = $1 },
            url("alerts", "meteoalarm_base_url") { $0.alerts.meteoAlarmBaseURL = $1 },
            url("alerts", "eccc_base_url") { $0.alerts.ecccBaseURL = $1 },
            // MET Norway asks for alerts at most every 10 minutes; below a minute no source is polite.
            minutes("alerts", "check_min") { $0.alerts.checkMin = $1 },
            Key(section: "alerts", name: "command", kind: .string) { s, v in
                guard case .string(let c) = v else { return nil }
                guard !c.contains("\0") else { return "must not contain a NUL character" }
                s.alerts.command = c
                return nil
            },
            // reports: a gap this long without track points starts a new trip.
            // A minute (a stop at lights is not a new trip below it) to a week.
            range("report", "trip_gap_min", 1...10_080, unit: "minutes") { $0.report.tripGapMin = $1 },
        ] + mqttKeys + aheadKeys

    /// `[mqtt]` (CONTRACT.md "MQTT"). `password` is a secret: its value never appears in an error.
    static let mqttKeys: [Key] = [
        flag("mqtt", "enabled") { $0.mqtt.enabled = $1 },
        Key(section: "mqtt", name: "host", kind: .string) { s, v in
            guard case .string(let h) = v else { return nil }
            // The same rule as gps.host; libmosquitto takes an IPv6 address without brackets.
            guard let bare = HostAddress.bare(h) else {
                return "must be a host name (at most 253 characters) or IP address such as \"127.0.0.1\""
            }
            s.mqtt.host = bare
            return nil
        },
        Key(section: "mqtt", name: "port", kind: .integer) { s, v in
            guard case .integer(let p) = v else { return nil }
            guard (1...65535).contains(p) else { return "must be a port from 1 to 65535, not \(p)" }
            s.mqtt.port = p
            return nil
        },
        flag("mqtt", "tls") { $0.mqtt.tls = $1 },
        Key(section: "mqtt", name: "ca_file", kind: .string) { s, v in
            guard case .string(let p) = v else { return nil }
            guard !p.contains("\0") else { return "must not contain a NUL character" }
            // PATH_MAX: a longer path cannot be opened. Whether it is a readable regular file is
            // checked where it is used (MQTTLink), before libmosquitto opens it.
            guard p.utf8.count < 4096 else { return "must be a path of at most 4095 bytes, not \(p.utf8.count)" }
            s.mqtt.caFile = p
            return nil
        },
        Key(section: "mqtt", name: "username", kind: .string) { s, v in
            guard case .string(let u) = v else { return nil }
            if let reason = MQTTStringRule.problem(u) { return reason }
            s.mqtt.username = u
            return nil
        },
        Key(section: "mqtt", name: "password", kind: .string) { s, v in
            guard case .string(let p) = v else { return nil }
            // The value is a secret: the reason never repeats it.
            if let reason = MQTTStringRule.binaryProblem(p) { return reason }
            s.mqtt.password = p
            return nil
        },
        Key(section: "mqtt", name: "device_id", kind: .string) { s, v in
            guard case .string(let d) = v else { return nil }
            if let reason = DeviceID.problem(d) { return reason }
            s.mqtt.deviceID = d
            return nil
        },
        Key(section: "mqtt", name: "topic_prefix", kind: .string) { s, v in
            guard case .string(let t) = v else { return nil }
            guard !t.isEmpty else { return "must not be empty" }
            if let reason = MQTTTopics.prefixProblem(t) { return reason }
            s.mqtt.topicPrefix = t
            return nil
        },
        Key(section: "mqtt", name: "discovery_prefix", kind: .string) { s, v in
            guard case .string(let t) = v else { return nil }
            if !t.isEmpty, let reason = MQTTTopics.prefixProblem(t) { return reason }
            s.mqtt.discoveryPrefix = t
            return nil
        },
        Key(section: "mqtt", name: "qos", kind: .integer) { s, v in
            guard case .integer(let q) = v else { return nil }
            // QoS 0 would make the outbox meaningless (no PUBACK); 2 costs a round trip more for nothing
            // the reading's id does not already give (consumers drop duplicates).
            guard q == 1 else {
                return "must be 1 (readings leave the outbox on the broker's acknowledgement), not \(q)"
            }
            s.mqtt.qos = q
            return nil
        },
        Key(section: "mqtt", name: "outbox_max", kind: .integer) { s, v in
            guard case .integer(let n) = v else { return nil }
            // At least one reading must be able to wait; ten million readings is years at 1 a minute.
            guard (1...10_000_000).contains(n) else { return "must be from 1 to 10000000, not \(n)" }
            s.mqtt.outboxMax = n
            return nil
        },
    ]

    public static func key(section: String, name: String) -> Key? {
        keys.first { $0.section == section && $0.name == name }
    }

    /// A key whose value is a number (a TOML integer is accepted too): the one place a TOML number
    /// becomes a setting. `problem` says what is wrong with a value ("must be …"), nil when it will do.
    static func numeric(
        _ section: String, _ name: String, problem: @escaping @Sendable (Double) -> String?,
        _ set: @escaping @Sendable (inout Settings, Double) -> Void
    ) -> Key {
        Key(section: section, name: name, kind: .number) { s, v in
            let d: Double
            switch v {
            case .integer(let i): d = Double(i)
            case .float(let f): d = f
            default: return nil
            }
            if let problem = problem(d) { return problem }
            set(&s, d)
            return nil
        }
    }

    /// A finite number (an integer is accepted too) within `bounds`.
    static func range(
        _ section: String, _ name: String, _ bounds: ClosedRange<Double>, unit: String,
        _ set: @escaping @Sendable (inout Settings, Double) -> Void
    ) -> Key {
        ConfigSchema.numeric(
            section, name,
            problem: { d in
                guard d.isFinite, bounds.contains(d) else {
                    return
                        "must be from \(ConfigSchema.text(bounds.lowerBound)) to \(ConfigSchema.text(bounds.upperBound)) (\(unit)), not \(d.isFinite ? ConfigSchema.text(d) : "\(d)")"
                }
                return nil
            }, set)
    }

    /// A key in minutes between two requests or readings: from 1 to a day. Below a minute fixcast
    /// would ask a free API (or store a reading) many times a minute, which no provider's terms
    /// allow; one floor for every such key, so none is left without it. Above a day is never.
    static func minutes(_ section: String, _ name: String, _ set: @escaping @Sendable (inout Settings, Double) -> Void)
        -> Key
    {
        range(section, name, 1...1_440, unit: "minutes", set)
    }

    /// A key whose value is true or false.
    static func flag(_ section: String, _ name: String, _ set: @escaping @Sendable (inout Settings, Bool) -> Void)
        -> Key
    {
        Key(section: section, name: name, kind: .boolean) { s, v in
            guard case .boolean(let b) = v else { return nil }
            set(&s, b)
            return nil
        }
    }

    /// A key whose value is one of an enum's raw values; anything else is refused naming them all
    /// (the value echoed cleaned: a config file is outside text).
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ section: String, _ name: String, _ type: E.Type, _ set: @escaping @Sendable (inout Settings, E) -> Void
    ) -> Key where E.RawValue == String {
        Key(section: section, name: name, kind: .string) { s, v in
            guard case .string(let text) = v else { return nil }
            guard let value = E(rawValue: text) else {
                let names = E.allCases.map(\.rawValue).joined(separator: ", ")
                return "must be one of \(names), not \"\(TerminalText.echo(text))\""
            }
            set(&s, value)
            return nil
        }
    }

    static func url(
        _ section: String, _ name: String, _ set: @escaping @Sendable (inout Settings, String) -> Void
    ) -> Key {
        Key(section: section, name: name, kind: .string) { s, v in
            guard case .string(let u) = v else { return nil }
            if let reason = BaseURLRule.problem(u) { return reason }
            set(&s, BaseURLRule.normalized(u))
            return nil
        }
    }

    static func text(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
    }
}

/// The rule for `base_url` / `search_url` (CONTRACT.md): empty (the public endpoint), or scheme,
/// host (`HostAddress`), optional port and optional path prefix, with no control or bidi character
/// anywhere (`TerminalText.isUnsafe`: a tab, ESC or NUL would reach a request line or a terminal);
/// `https://`, except `http://` to a loopback host (tests, a local mirror), because an API key must
/// never cross a network in clear text.
public enum BaseURLRule {
    /// Why `url` is not acceptable, phrased to follow the key ("must …"); nil when it is.
    public static func problem(_ url: String) -> String? {
        if url.isEmpty { return nil }
        let shown = TerminalText.echo(Self.shown(url))
        let lower = url.lowercased()
        let isHTTPS = lower.hasPrefix("https://")
        guard isHTTPS || lower.hasPrefix("http://") else {
            return "must start with https:// (or be empty for the public endpoint), not \"\(shown)\""
        }
        if url.unicodeScalars.contains(where: TerminalText.isUnsafe) {
            return
                "must not contain control or bidi characters (a tab, ESC, NUL, a direction override), not \"\(shown)\""
        }
        let rest = url.dropFirst(isHTTPS ? 8 : 7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") { return "must not contain a user name or password" }
        if rest.contains(where: { $0 == "?" || $0 == "#" || $0 == " " }) {
            return "must be scheme, host, optional port and path only (no query, fragment or spaces), not \"\(shown)\""
        }
        guard let host = hostPart(of: authority), !host.isEmpty else {
            return "must name a host, not \"\(shown)\""
        }
        guard HostAddress.isValid(host) else {
            return "must name a host (letters, digits, '.', '-', '_', or an IP address), not \"\(shown)\""
        }
        if let port = portPart(of: authority) {
            guard let p = Int(port), (1...65535).contains(p) else { return "has a bad port \"\(port)\"" }
        }
        if !isHTTPS && !isLoopback(host) {
            return
                "must use https:// (plain http:// is allowed for 127.0.0.1, ::1 and localhost only), not \"\(shown)\""
        }
        return nil
    }

    /// `url` as an error may quote it: what follows a `?` or `#` (where an API key is put) as "…", and a
    /// user name and password before the host as "…" (`https://…@host`): a refused URL is echoed so the
    /// person can see what was read, never a secret in it.
    static func shown(_ url: String) -> String {
        let cut = url.prefix { $0 != "?" && $0 != "#" }
        var out = String(cut)
        if cut.count < url.count { out += String(url[cut.endIndex]) + "…" }
        // Everything up to the last `@` (a base URL has none in its path), after a `scheme://` if
        // there is one before it: with a scheme or without one, and a URL refused for its scheme
        // (`http:/user:pw@host`) is shown masked too.
        if let at = out.lastIndex(of: "@") {
            let scheme = out.firstRange(of: "://").flatMap { $0.upperBound <= at ? String(out[..<$0.upperBound]) : nil }
            out = (scheme ?? "") + "…" + out[at...]
        }
        return out
    }

    /// Without a trailing slash, so the provider's path can be appended.
    public static func normalized(_ url: String) -> String {
        var u = url
        while u.hasSuffix("/") && !u.hasSuffix("://") { u.removeLast() }
        return u
    }

    static func hostPart(of authority: Substring) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.prefix { $0 != ":" })
    }

    static func portPart(of authority: Substring) -> Substring? {
        let afterHost: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            afterHost = authority[authority.index(after: close)...]
        } else {
            afterHost = authority.drop { $0 != ":" }
        }
        guard afterHost.hasPrefix(":") else { return nil }
        return afterHost.dropFirst()
    }

    /// 127.0.0.0/8, ::1 and localhost.
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "::1" { return true }
        let octets = h.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
