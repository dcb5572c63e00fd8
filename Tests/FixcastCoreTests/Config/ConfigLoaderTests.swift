import FixcastText
import Foundation
import Testing

@testable import FixcastCore

@Suite struct ConfigLoaderTests {
    static let path = "/etc/fixcast/config.toml"

    func load(_ text: String, environment: [String: String] = [:], readableByOthers: Bool = false) throws(ConfigError)
        -> LoadedConfig
    {
        try ConfigLoader.load(
            file: ConfigFileText(path: Self.path, text: text, readableByOthers: readableByOthers),
            environment: environment)
    }

    @Test func noFileAndNoEnvironmentGiveTheDefaults() throws {
        let loaded = try ConfigLoader.load(file: nil, environment: ["HOME": "/root", "FIXCAST_CONFIG": "/x"])
        #expect(loaded.settings == Settings())
        #expect(loaded.filePath == nil)
        #expect(loaded.warnings.isEmpty)
    }

    /// The annotated example sets every key to its default, and every key is in it.
    @Test func theExampleFileHoldsEveryKeyAtItsDefault() throws {
        let examplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/fixcast.toml").path
        let text = try String(contentsOfFile: examplePath, encoding: .utf8)
        let loaded = try ConfigLoader.load(
            file: ConfigFileText(path: examplePath, text: text, readableByOthers: true), environment: [:])
        #expect(loaded.settings == Settings())
        let doc = try TOMLSubset.parse(text)
        let inFile = Set(doc.entries.map { "\($0.section).\($0.key)" })
        let known = Set(ConfigSchema.keys.map { "\($0.section).\($0.name)" })
        #expect(inFile == known)
        #expect(loaded.warnings.isEmpty)  // no api_key in the example
    }

    @Test func everyKeyIsApplied() throws {
        let loaded = try load(
            """
            [gps]
            host = "gps.local"
            port = 3000
            fix_timeout_s = 4.5
            fix_retries = 0
            [trigger]
            move_km = 2
            periodic_min = 15
            resume_min_away_s = 0
            [weather]
            provider = "metno"
            base_url = "http://127.0.0.1:8080/"
            api_key = "k3y"
            cache_min = 5
            forced_cache_min = 1.5
            [places]
            provider = "offline"
            base_url = "https://nominatim.example.org/sub"
            search_url = "http://[::1]:9000"
            language = "pt-BR"
            [storage]
            path = "/var/lib/fixcast/x.sqlite"
            track_interval_s = 1
            track_distance_m = 5.5
            [display]
            units = "imperial"
            lang = "zh"
            [alerts]
            enabled = false
            source = "metalerts"
            nws_base_url = "http://127.0.0.1:9001/"
            metalerts_base_url = "https://mirror.example.org/met"
            meteoalarm_base_url = "http://127.0.0.1:9002/"
            check_min = 15
            command = "notify-send \\"$FIXCAST_ALERT_EVENT\\""
            """)
        var expected = Settings()
        expected.gps.host = "gps.local"
        expected.gps.port = 3000
        expected.gps.fixTimeoutS = 4.5
        expected.gps.fixRetries = 0
        expected.trigger.moveKm = 2
        expected.trigger.periodicMin = 15
        expected.trigger.resumeMinAwayS = 0
        expected.weather.provider = .metNorway
        expected.weather.baseURL = "http://127.0.0.1:8080"
        expected.weather.apiKey = "k3y"
        expected.weather.cacheMin = 5
        expected.weather.forcedCacheMin = 1.5
        expected.places.provider = .offline
        expected.places.baseURL = "https://nominatim.example.org/sub"
        expected.places.searchURL = "http://[::1]:9000"
        expected.places.language = "pt-BR"
        expected.storage.path = "/var/lib/fixcast/x.sqlite"
        expected.storage.trackIntervalS = 1
        expected.storage.trackDistanceM = 5.5
        expected.display.units = .imperial
        expected.display.lang = .zh
        expected.alerts.enabled = false
        expected.alerts.source = .metalerts
        expected.alerts.nwsBaseURL = "http://127.0.0.1:9001"
        expected.alerts.metAlertsBaseURL = "https://mirror.example.org/met"
        expected.alerts.meteoAlarmBaseURL = "http://127.0.0.1:9002"
        expected.alerts.checkMin = 15
        expected.alerts.command = "notify-send \"$FIXCAST_ALERT_EVENT\""
        #expect(loaded.settings == expected)
        #expect(loaded.filePath == Self.path)
    }

    /// Each error names the file, the line and the key, and its message says so.
    @Test(arguments: [
        ("[trigger]\nmove_km = 5\nwether = 1", 3, "unknown key \"wether\" in [trigger]"),
        ("[gps]\nport = 1\n[wether]\nx = 1", 3, "unknown section [wether]"),
        ("[alerts]\ncheck_min = 0", 2, "\"check_min\" in [alerts] must be from 1 to 1440 (minutes), not 0"),
        (
            "[alerts]\nsource = \"dwd\"", 2,
            "\"source\" in [alerts] must be one of auto, nws, metalerts, meteoalarm, eccc, none"
        ),
        ("[alerts]\nnws_base_url = \"http://api.weather.gov\"", 2, "\"nws_base_url\" in [alerts] must use https://"),
        ("[gps]\nport = \"2947\"", 2, "\"port\" in [gps] must be an integer, not a string"),
        ("[gps]\nport = 2947.0", 2, "\"port\" in [gps] must be an integer, not a float"),
        ("[gps]\nhost = 1", 2, "\"host\" in [gps] must be a string, not an integer"),
        ("[trigger]\nmove_km = true", 2, "\"move_km\" in [trigger] must be a number, not a boolean"),
        ("[gps]\nport = 0", 2, "\"port\" in [gps] must be a port from 1 to 65535"),
        ("[gps]\nport = 70000", 2, "\"port\" in [gps] must be a port from 1 to 65535"),
        ("[gps]\nhost = \"\"", 2, "\"host\" in [gps] must be a host name"),
        ("[gps]\nfix_timeout_s = 0", 2, "\"fix_timeout_s\" in [gps] must be from 0.1 to 300 (seconds), not 0"),
        // No absurd number becomes a setting: a fix waited for 31 years, a reading every 20 m.
        ("[gps]\nfix_timeout_s = 1e9", 2, "\"fix_timeout_s\" in [gps] must be from 0.1 to 300 (seconds)"),
        ("[trigger]\nmove_km = 0.02", 2, "\"move_km\" in [trigger] must be from 1 to 1000 (km), not 0.02"),
        ("[alerts]\ncheck_min = 1e300", 2, "\"check_min\" in [alerts] must be from 1 to 1440 (minutes)"),
        ("[report]\ntrip_gap_min = 1e-9", 2, "\"trip_gap_min\" in [report] must be from 1 to 10080 (minutes)"),
        ("[storage]\ntrack_interval_s = 0.01", 2, "\"track_interval_s\" in [storage] must be from 1 to 3600"),
        ("[trigger]\nresume_min_away_s = 1e12", 2, "\"resume_min_away_s\" in [trigger] must be from 0 to 86400"),
        ("[gps]\nfix_retries = -1", 2, "\"fix_retries\" in [gps] must be from 0 to 10"),
        ("[gps]\nmax_speed_mps = 0", 2, "\"max_speed_mps\" in [gps] must be from 10 to 3000 (m/s), not 0"),
        ("[gps]\nmax_speed_mps = 1e-6", 2, "\"max_speed_mps\" in [gps] must be from 10 to 3000 (m/s)"),
        (
            "[trigger]\nresume_min_away_s = -5", 2,
            "\"resume_min_away_s\" in [trigger] must be from 0 to 86400 (seconds), not -5"
        ),
        ("[trigger]\nperiodic_min = inf", 2, "\"periodic_min\" in [trigger] must be from 1 to 1440 (minutes), not inf"),
        (
            "[weather]\nprovider = \"darksky\"", 2,
            "\"provider\" in [weather] must be one of open-meteo, openweathermap, metno"
        ),
        (
            "[weather]\nforced_cache_min = 0", 2,
            "\"forced_cache_min\" in [weather] must be from 1 to 1440 (minutes), not 0"
        ),
        // A request (or a stored reading) more often than once a minute is refused on every key that sets one.
        ("[weather]\ncache_min = 0.001", 2, "\"cache_min\" in [weather] must be from 1 to 1440 (minutes), not 0.001"),
        ("[weather]\nforced_cache_min = 0.5", 2, "\"forced_cache_min\" in [weather] must be from 1 to 1440 (minutes)"),
        (
            "[trigger]\nperiodic_min = 1e-9", 2,
            "\"periodic_min\" in [trigger] must be from 1 to 1440 (minutes), not 1e-09"
        ),
        ("[alerts]\ncheck_min = 0.5", 2, "\"check_min\" in [alerts] must be from 1 to 1440 (minutes), not 0.5"),
        ("[weather]\nbase_url = \"http://api.example.com\"", 2, "\"base_url\" in [weather] must use https://"),
        ("[weather]\nbase_url = \"ftp://x\"", 2, "\"base_url\" in [weather] must start with https://"),
        ("[weather]\nbase_url = \"https://x/?q=1\"", 2, "no query"),
        ("[weather]\nbase_url = \"https://u:p@x\"", 2, "user name or password"),
        ("[weather]\nbase_url = \"https://x:99999\"", 2, "bad port"),
        ("[weather]\napi_key = \"a b\"", 2, "\"api_key\" in [weather] must not contain spaces"),
        ("[places]\nprovider = \"google\"", 2, "\"provider\" in [places] must be one of nominatim, offline"),
        ("[places]\nsearch_url = \"http://10.0.0.1\"", 2, "\"search_url\" in [places] must use https://"),
        ("[places]\nlanguage = \"en_US!\"", 2, "\"language\" in [places] must be a language code"),
        (
            "[storage]\ntrack_distance_m = -1", 2,
            "\"track_distance_m\" in [storage] must be from 1 to 100000 (metres), not -1"
        ),
        ("[display]\nunits = \"si\"", 2, "\"units\" in [display] must be metric or imperial"),
        ("[display]\nlang = \"de\"", 2, "\"lang\" in [display] must be one of en, ru, zh"),
        ("[display]\nlang = en", 2, "the value of \"lang\": en is not a value (strings need quotes: \"en\")"),
        ("[gps]\nhost = \"open", 2, "the value of \"host\": unterminated string"),
        (
            "[trigger]\nperiodic_min = 99_999_999_999_999_999_999", 2,
            "the value of \"periodic_min\": 99_999_999_999_999_999_999 is too large for an integer (at most 9223372036854775807)"
        ),
        (
            "[gps]\nport = 0x0B83", 2,
            "the value of \"port\": 0x0B83 is not a value (strings need quotes: \"0x0B83\"; numbers are decimal integers, and floats such as 2.5 or 1e3, without 0x"
        ),
        (
            "[trigger]\nperiodic_min = 2026-12-04", 2,
            "2026-12-04 is not a value (strings need quotes: \"2026-12-04\"; numbers are decimal integers"
        ),
        ("[gps]\nport = -08", 2, "-08 is not a value (strings need quotes: \"-08\"; numbers are"),
    ])
    func errorsNameFileLineAndKey(text: String, line: Int, fragment: String) {
        do {
            _ = try load(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.origin == .file(path: Self.path, line: line))
            #expect(error.message.hasPrefix("config: \(Self.path) line \(line): "), "\(error.message)")
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.component == .config)
            #expect(error.message.hasSuffix("."))
        }
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz config`, bench/README.md): a secret's line
    // under the wrong table, with a value that does not read, was quoted in the syntax error.
    @Test func aSecretUnderTheWrongTableIsNeverShown() {
        for text in ["[gps]\napi_key = \u{2}\"s3cr3t\"", "[weather]\npassword = ]'s3cr3t'", "[mqtt]\napi_key = s3cr3t"]
        {
            do {
                _ = try load(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.message.hasPrefix("config: \(Self.path) line 2: "), "\(error.message)")
                #expect(!error.message.contains("s3cr3t"), "\(error.message)")
            }
        }
    }

    /// A credential pasted as a key (`sk-…= "x"` is a valid line) is not quoted back in the unknown-key
    /// error; a typo of a key still is.
    @Test func anUnknownKeyThatLooksLikeASecretIsNotShown() {
        let message = ConfigError.unknownKey(
            .file(path: Self.path, line: 3), section: "weather", key: "sk-0123456789abcdef0123456789"
        ).message
        #expect(!message.contains("0123456789"), "\(message)")
        #expect(message.contains("not shown"))
        #expect(
            ConfigError.unknownKey(.file(path: Self.path, line: 3), section: "weather", key: "api_ky").message
                .contains("\"api_ky\""))
    }

    @Test func theUnknownKeyMessageReadsAsTheContractShows() {
        #expect(throws: ConfigError.unknownKey(.file(path: Self.path, line: 7), section: "trigger", key: "wether")) {
            try load("[trigger]\n\n\n\n\n\nwether = 1")
        }
        let message = ConfigError.unknownKey(.file(path: Self.path, line: 7), section: "trigger", key: "wether").message
        #expect(
            message
                == "config: /etc/fixcast/config.toml line 7: unknown key \"wether\" in [trigger]; every key is in /etc/fixcast/config.toml (config/fixcast.toml in the source)."
        )
    }

    @Test func environmentOverridesTheFile() throws {
        let loaded = try load(
            "[weather]\nbase_url = \"https://file.example\"\ncache_min = 20\n[gps]\nport = 1000",
            environment: [
                "FIXCAST_WEATHER_BASE_URL": "http://127.0.0.1:8080", "FIXCAST_WEATHER_API_KEY": "secret",
                "FIXCAST_GPS_PORT": "2000", "FIXCAST_TRIGGER_MOVE_KM": "7.5", "FIXCAST_DISPLAY_LANG": "ru",
                "FIXCAST_CONFIG": "/ignored/here", "FIXCASTLE": "x", "PATH": "/bin",
            ])
        #expect(loaded.settings.weather.baseURL == "http://127.0.0.1:8080")
        #expect(loaded.settings.weather.apiKey == "secret")
        #expect(loaded.settings.weather.cacheMin == 20)
        #expect(loaded.settings.gps.port == 2000)
        #expect(loaded.settings.trigger.moveKm == 7.5)
        #expect(loaded.settings.display.lang == .ru)
    }

    @Test(arguments: [
        ("FIXCAST_GPS_PORT", "abc", "\"port\" in [gps] must be an integer, not \"abc\""),
        ("FIXCAST_GPS_PORT", "0", "must be a port from 1 to 65535"),
        ("FIXCAST_TRIGGER_MOVE_KM", "far", "\"move_km\" in [trigger] must be a number, not \"far\""),
        ("FIXCAST_WEATHER_PROVIDER", "x", "\"provider\" in [weather] must be one of"),
        ("FIXCAST_WEATHER_BASE_URL", "http://example.com", "must use https://"),
        ("FIXCAST_WEATHER_WETHER", "1", "unknown key \"wether\" in [weather]"),
    ])
    func environmentErrorsNameTheVariable(variable: String, value: String, fragment: String) {
        do {
            _ = try ConfigLoader.load(file: nil, environment: [variable: value])
            Issue.record("accepted \(variable)=\(value)")
        } catch {
            #expect(error.origin == .environment(variable: variable))
            #expect(error.message.hasPrefix("config: environment variable \(variable): "), "\(error.message)")
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    /// A variable whose section is misspelt set nothing, silently: it is warned about, with the
    /// setting it most likely meant, while the variables fixcast, its alert command, its tests and
    /// scripts use for other things are not.
    @Test func aVariableWithAnUnknownSectionIsWarnedAbout() throws {
        let loaded = try ConfigLoader.load(
            file: nil, environment: ["FIXCAST_PLACE_PROVIDER": "offline", "FIXCAST_ALERT_ENABLED": "false"])
        #expect(loaded.settings == Settings())
        #expect(loaded.warnings.count == 2)
        #expect(
            loaded.warnings.first
                == "config: environment variable FIXCAST_ALERT_ENABLED names no setting and is ignored (did you mean FIXCAST_ALERTS_ENABLED?); a setting's variable is FIXCAST_<SECTION>_<KEY>, \(ConfigError.keysHint)."
        )
        #expect(loaded.warnings.last?.contains("(did you mean FIXCAST_PLACES_PROVIDER?)") == true)
        let far = try ConfigLoader.load(file: nil, environment: ["FIXCAST_ZZZZ": "1"])
        #expect(far.warnings.count == 1)
        #expect(far.warnings.first?.contains("did you mean") == false)
        // Every FIXCAST_ name the tree uses for something other than a setting.
        let others = Dictionary(uniqueKeysWithValues: ConfigSchema.otherVariables.map { ($0, "x") })
        #expect(others.keys.contains("FIXCAST_ALERT_EVENT") && others.keys.contains("FIXCAST_UPDATE_GOLDEN"))
        #expect(try ConfigLoader.load(file: nil, environment: others).warnings.isEmpty)
    }

    @Test func anAPIKeyInAFileOthersCanReadIsWarnedAbout() throws {
        let text = "[weather]\nprovider = \"openweathermap\"\napi_key = \"k\""
        let open = try load(text, readableByOthers: true)
        #expect(open.warnings.count == 1)
        #expect(open.warnings.first?.contains(Self.path) == true)
        #expect(open.warnings.first?.contains("chmod 600") == true)
        #expect(try load(text, readableByOthers: false).warnings.isEmpty)
        #expect(try load("[weather]\napi_key = \"\"", readableByOthers: true).warnings.isEmpty)
        // A key from the environment is not the file's problem.
        #expect(
            try load("[gps]\nport = 1", environment: ["FIXCAST_WEATHER_API_KEY": "k"], readableByOthers: true).warnings
                .isEmpty)
    }
}

@Suite struct ConfigLookupTests {
    @Test func anExplicitPathIsTheOnlyCandidateAndRequired() {
        #expect(
            ConfigLookup.candidates(explicitPath: "/a.toml", environment: ["FIXCAST_CONFIG": "/b.toml", "HOME": "/h"])
                == [ConfigCandidate(path: "/a.toml", required: true, origin: "--config")])
    }

    @Test func fixcastConfigComesNext() {
        #expect(
            ConfigLookup.candidates(explicitPath: nil, environment: ["FIXCAST_CONFIG": "/b.toml", "HOME": "/h"])
                == [ConfigCandidate(path: "/b.toml", required: true, origin: "$FIXCAST_CONFIG")])
    }

    @Test func thenXDGOrHomeThenEtc() {
        #expect(
            ConfigLookup.candidates(explicitPath: nil, environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).map(\.path)
                == ["/x/fixcast/config.toml", "/etc/fixcast/config.toml"])
        #expect(
            ConfigLookup.candidates(explicitPath: nil, environment: ["HOME": "/h", "FIXCAST_CONFIG": ""]).map(\.path)
                == ["/h/.config/fixcast/config.toml", "/etc/fixcast/config.toml"])
        #expect(
            ConfigLookup.candidates(explicitPath: nil, environment: [:]).map(\.path) == ["/etc/fixcast/config.toml"])
        #expect(ConfigLookup.candidates(explicitPath: nil, environment: ["HOME": "/h"]).allSatisfy { !$0.required })
    }
}

@Suite struct BaseURLRuleTests {
    @Test(arguments: [
        "", "https://api.open-meteo.com", "https://x.example:8443/prefix/", "http://127.0.0.1:8080", "http://127.1.2.3",
        "http://localhost:9/p", "http://[::1]:8080", "HTTPS://UPPER.EXAMPLE",
    ])
    func accepted(url: String) {
        #expect(BaseURLRule.problem(url) == nil)
    }

    @Test(arguments: [
        "http://example.com", "http://10.0.0.1", "http://127.0.0.1.evil.com", "http://[::2]", "api.example.com",
        "https://", "https://:80", "https://x y", "https://x#f", "https://a@b", "https://x:0", "https://x:abc",
        // Control and bidi characters anywhere, and a host that is no host name or address.
        "https://x.example/p\tq", "https://x.example/\u{1B}[2J", "http://127.0.0.1:8080/\u{0}",
        "https://x.example/\u{202E}gpj", "https://x.exa\u{7F}mple", "https://x.example/\u{85}",
        "https://ex*ample.com", "https://exa%41mple.com", "https://-x.example", "https://[fe80::1%\u{1B}]/",
        "https://[zz::1]/", "https://ünï.example",
    ])
    func refused(url: String) {
        #expect(BaseURLRule.problem(url) != nil)
    }

    /// A refused base URL is a configuration error, exit 2, naming the variable or the key.
    @Test func aBaseURLWithAControlCharacterIsAConfigError() {
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(
                file: nil, environment: ["FIXCAST_WEATHER_BASE_URL": "https://x.example/\u{1B}]0;t\u{7}"])
        }
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(file: nil, environment: ["FIXCAST_PLACES_BASE_URL": "https://bad host.example"])
        }
    }

    /// A refused URL is echoed so the person sees what was read, but never a key in its query nor a
    /// password before its host, whichever rule it breaks first.
    @Test(arguments: [
        "https://api.openweathermap.org/data/2.5?appid=0123abcdSECRET", "htps://me:SECRET@mirror.example",
        "http://me:SECRET@10.0.0.1/x", "ftp://x/?key=SECRET", "https://x y?SECRET", "https://x#SECRET",
        "me:SECRET@host", "http:/user:SECRET@host", "https:user:SECRET@host",
    ])
    func aRefusedURLNeverShowsASecret(url: String) throws {
        let problem = try #require(BaseURLRule.problem(url))
        #expect(!problem.contains("SECRET"), "\(problem)")
        let loaded = Result { try ConfigLoader.load(file: nil, environment: ["FIXCAST_WEATHER_BASE_URL": url]) }
        guard case .failure(let error as ConfigError) = loaded else {
            Issue.record("accepted: \(url)")
            return
        }
        #expect(!error.message.contains("SECRET"), "\(error.message)")
    }

    @Test func theShownURLKeepsWhatIsNotSecret() {
        #expect(BaseURLRule.shown("https://x.example/p?appid=k") == "https://x.example/p?…")
        // Up to the last @ (a base URL has none in its path): the user and password never show.
        #expect(BaseURLRule.shown("htps://u:p@x.example/a") == "htps://…@x.example/a")
        #expect(BaseURLRule.shown("ftp://x") == "ftp://x")
        #expect(BaseURLRule.shown("http:/u:p@host/x") == "…@host/x")
        // A query with an @ is a query: its rule says so, not the user-name one.
        #expect(BaseURLRule.problem("https://host?k=a@b")?.contains("no query") == true)
    }

    @Test func trailingSlashesAreDropped() {
        #expect(BaseURLRule.normalized("https://x/p//") == "https://x/p")
        #expect(BaseURLRule.normalized("https://x") == "https://x")
    }
}

@Suite struct MaxSpeedConfigTests {
    @Test func maxSpeedIsReadFromTheFileAndTheEnvironment() throws {
        let file = ConfigFileText(path: "/x.toml", text: "[gps]\nmax_speed_mps = 90", readableByOthers: false)
        #expect(try ConfigLoader.load(file: file, environment: [:]).settings.gps.maxSpeedMps == 90)
        let env = try ConfigLoader.load(file: file, environment: ["FIXCAST_GPS_MAX_SPEED_MPS": "250.5"])
        #expect(env.settings.gps.maxSpeedMps == 250.5)
        #expect(Settings().gps.maxSpeedMps == 600)
    }
}
