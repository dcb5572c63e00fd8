import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// The text formats: the JSON parser every API answer goes through, GPX routes and the TOML config.
extension FuzzTargets {
    static let json = jsonTarget(
        name: "json", about: "FixcastText's JSON parser (every API answer), and writing back what it read",
        seedNames: [
            "open-meteo-forecast.json", "metno-compact.json", "nws-alerts-active-point-phoenix.json",
            "eccc-weather-alerts-toronto.json", "nominatim-reverse-jsonv2-docs.json", "owm-forecast.json",
            "open-meteo-geocoding.json", "open-meteo-ahead-multi-location.json", "open-meteo-error-docs-example.txt",
        ]
    ) { _ in
        { bytes in
            FuzzCheck.judge { (check) throws(JSONParseError) in
                let value = try JSONValue.parse(bytes)
                check.noNaN(value)
                let text = value.serialized()
                check.terminalSafe(text, "the serialized JSON")
                if let again = try? JSONValue.parse(text) {
                    check.require(again == value.infinitiesAsNull, "the serialized JSON reads back different")
                } else {
                    check.require(false, "the serialized JSON does not parse")
                }
            } refused: { error, check in
                check.require(
                    error.offset >= 0 && error.offset <= bytes.count,
                    "the error's offset \(error.offset) is outside the \(bytes.count) bytes")
            }
        }
    }

    /// Small routes beside the demo's: a named route, tracks in segments, namespaces, CDATA, references
    /// and a byte order mark.
    static let gpxSeeds = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"x\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<metadata><name>Meta &amp; data</name></metadata>\n<rte><name>Route &#x41;</name>\n<rtept lat=\"39.5\" lon=\"-119.8\"><ele>1373</ele></rtept>\n<rtept lat=\"39.4\" lon=\"-119.9\"/>\n<rtept lat=\"39.3\" lon=\"-120.0\"/>\n</rte>\n</gpx>\n",
        "\u{FEFF}<!-- a track -->\n<g:gpx xmlns:g=\"http://www.topografix.com/GPX/1/0\" version=\"1.0\"><g:trk><g:name><![CDATA[Track <one>]]></g:name><g:trkseg><g:trkpt lat=\"60.1\" lon=\"11.0\"><g:time>2026-01-30T12:00:00Z</g:time></g:trkpt><g:trkpt lat='60.2' lon='11.1'/></g:trkseg><g:trkseg><g:trkpt lat=\"60.3\" lon=\"11.2\"/></g:trkseg></g:trk><?pi x?></g:gpx>",
        "<gpx><trk><trkseg><trkpt lat=\"0.5\" lon=\"179.9\"/><trkpt lat=\"0.6\" lon=\"-179.9\"/><trkpt lat=\"-89.9\" lon=\"0\"/></trkseg></trk><extensions><a><b><c><d>x</d></c></b></a></extensions></gpx>",
    ].map { Array($0.utf8) }

    static let gpx = FuzzTarget(
        name: "gpx", about: "GPX route files (--route, ahead.route)", seedNames: ["reno_tahoe_route.gpx"]
    ) { files, setup in
        let seeds = files + gpxSeeds
        let mutator = MarkupMutator(seeds: seeds, maxBytes: min(setup.maxCaseBytes, (8 << 20) + 4096))
        return FuzzCampaign(seeds: seeds, mutator: { mutator.mutate(&$0) }) { bytes in
            FuzzCheck.judge { (check) throws(GPXRouteError) in
                check.route(try GPXRouteReader.read(bytes))
            } refused: { error, check in
                check.terminalSafe(TerminalText.forStderrMessage(error.message), "the route error as printed")
            }
        }
    }

    /// A config with secrets in it, so a case can check that no error ever quotes them.
    static let configSeeds = [
        "[weather]\nprovider = \"openweathermap\"\napi_key = \"s3cr3t-fuzz\"\n\n[mqtt]\nenabled = false\npassword = 's3cr3t-fuzz'\n[gps]\nport = 2947\nmax_speed_mps = 600.5\n",
        "[display]\nunits = \"imperial\"\nlang = \"zh\"\n[trigger]\nmove_km = 1e1\nperiodic_min = 1_000\n[ahead]\nenabled = true\n",
    ].map { Array($0.utf8) }

    static let config = FuzzTarget(
        name: "config", about: "the TOML subset and the config loader (config.toml)", seedNames: ["fixcast.toml"]
    ) { files, setup in
        let seeds = files + configSeeds
        let mutator = LineMutator(seeds: seeds)
        return FuzzCampaign(seeds: seeds, mutator: { mutator.mutate(&$0) }) { bytes in
            guard case .success(let text) = ConfigFileBytes.text(bytes) else {
                return FuzzCaseResult(outcome: .refused, violations: [])
            }
            _ = try? TOMLSubset.parse(text)
            return FuzzCheck.judge { (_) throws(ConfigError) in
                _ = try ConfigLoader.load(
                    file: ConfigFileText(path: "/fuzz.toml", text: text, readableByOthers: true), environment: [:])
            } refused: { error, check in
                check.require(
                    error.message.hasPrefix("config: /fuzz.toml"),
                    "the config error does not name the file: \(error.message.prefix(200))")
                // The secret may be quoted only where a mutation moved it under a key that is no secret.
                let secretElsewhere = text.split(separator: "\n").contains { line in
                    let key = line.split(separator: "=").first.map { $0.filter { $0 != " " && $0 != "\t" } } ?? ""
                    return line.contains("s3cr3t") && key != "api_key" && key != "password"
                }
                if !secretElsewhere {
                    check.require(
                        !error.message.contains("s3cr3t"),
                        "the config error shows a secret: \(error.message.prefix(300))")
                }
            }
        }
    }
}

extension FuzzCheck {
    /// A route as `GPXRouteReader` promises it (2 to 100,000 points, no point twice in a row, a clean name
    /// of at most 100 characters), and its geometry's points along it.
    mutating func route(_ route: GPXRoute) {
        require(
            route.points.count >= 2 && route.points.count <= GPXRouteBuilder.maxPoints,
            "the route has \(route.points.count) points")
        for i in route.points.indices.dropFirst() where route.points[i] == route.points[i - 1] {
            require(false, "the route repeats point \(i)")
            break
        }
        if let name = route.name {
            terminalSafe(name, "the route's name")
            require(!name.isEmpty && name.count <= 100, "the route's name is \(name.count) characters")
        }
        guard let geometry = RouteGeometry(route) else {
            require(false, "the route has no geometry")
            return
        }
        finite(geometry.lengthM, "the route's length")
        for along in [0, geometry.lengthM / 3, geometry.lengthM, -1, 1e308, .infinity] {
            finite(geometry.point(atAlongM: along).bearingDeg, "the bearing at \(along) m")
        }
    }

    /// No NaN anywhere in a parsed document (an overflow is ±infinity by design; NaN has no JSON text).
    mutating func noNaN(_ value: JSONValue) {
        switch value {
        case .double(let d): require(!d.isNaN, "the document holds a NaN")
        case .array(let items):
            for item in items { noNaN(item) }
        case .object(let members):
            for member in members { noNaN(member.1) }
        default: break
        }
    }
}

extension JSONValue {
    /// The value as written and read back: an infinity is written as null.
    var infinitiesAsNull: JSONValue {
        switch self {
        case .double(let d) where !d.isFinite: return .null
        case .array(let items): return .array(items.map(\.infinitiesAsNull))
        case .object(let members): return .object(members.map { ($0.0, $0.1.infinitiesAsNull) })
        default: return self
        }
    }
}
