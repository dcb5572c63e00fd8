import FixcastAdapters
import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

/// The GeoJSON alert decoders: NWS, MET Norway's MetAlerts and ECCC.
extension FuzzTargets {
    /// Where a case asks for alerts: nil (no point filter), the seeds' own places, and the edges.
    static let alertPoints: [Coordinate?] =
        [nil]
        + [
            (40.71, -74.0), (33.45, -112.07), (60.39, 5.32), (69.65, 18.96), (43.65, -79.38), (0, 179.9999),
            (0, -180), (90, 0), (-90, 0), (65, -168.5),
        ].map { Coordinate(lat: $0.0, lon: $0.1) }

    static func alertTarget(
        name: String, about: String, seedNames: [String], source: AlertSourceID,
        decode: @escaping @Sendable ([UInt8], Coordinate?, UInt64) throws(AlertDecodeFailure) -> [Alert]
    ) -> FuzzTarget {
        jsonTarget(name: name, about: about, seedNames: seedNames) { _ in
            let now = UTCTime.parse("2026-01-30T12:00:00Z") ?? Date(timeIntervalSince1970: 0)
            return { bytes in
                let h = fnv(bytes)
                return FuzzCheck.judge { (check) throws(AlertDecodeFailure) in
                    let alerts = try decode(bytes, alertPoints[Int(h % UInt64(alertPoints.count))], h)
                    check.alerts(alerts, source: source, now: now, points: alertPoints.compactMap { $0 })
                }
            }
        }
    }

    static let nwsAlerts = alertTarget(
        name: "nws-alerts", about: "NWS api.weather.gov /alerts/active?point= (GeoJSON)",
        seedNames: [
            "nws-alerts-active-point-phoenix.json", "nws-alerts-active-point-nyc-empty.json", "nws-alerts-none.json",
        ],
        source: .nws
    ) { bytes, point, _ throws(AlertDecodeFailure) in try NWSAlertDecoder.decode(bytes, at: point) }

    static let metAlerts = alertTarget(
        name: "metalerts", about: "MET Norway MetAlerts 2.0 current.json (GeoJSON)",
        seedNames: ["metalerts-current-vestland-coast.json", "metalerts-current-norway-all.json"], source: .metalerts
    ) { bytes, point, _ throws(AlertDecodeFailure) in try MetAlertsDecoder.decode(bytes, at: point) }

    static let ecccAlerts = alertTarget(
        name: "eccc-alerts", about: "ECCC MSC GeoMet weather-alerts (GeoJSON), English and French",
        seedNames: ["eccc-weather-alerts-toronto.json"], source: .eccc
    ) { bytes, point, h throws(AlertDecodeFailure) in
        try ECCCAlertDecoder.decode(bytes, at: point, language: h % 2 == 0 ? "en" : "fr")
    }
}

extension FuzzCheck {
    /// Every alert by the decoders' promises; then the report a reading holds, through its JSON and back,
    /// and each footprint asked about a few points (the alerts-ahead matcher's question).
    mutating func alerts(_ alerts: [Alert], source: AlertSourceID, now: Date, points: [Coordinate]) {
        for (i, a) in alerts.enumerated() { alert(a, "alert[\(i)]") }
        let report = AlertReport.fetched(alerts, source: source, fetchedAt: now, now: now)
        require(report.active.count <= AlertReport.maxAlerts, "the report keeps \(report.active.count) alerts")
        let text = report.json.serialized()
        terminalSafe(text, "the alerts' JSON")
        let back = (try? JSONValue.parse(text)).flatMap(AlertReport.init(json:))
        require(back != nil, "the alerts' JSON does not read back")
        for a in alerts.prefix(20) {
            guard case .polygons(let polygons)? = a.footprint else { continue }
            for point in points {
                for rings in polygons {
                    _ = RingContainment.polygonHolds(point, rings: rings.map { $0.map { ($0.lon, $0.lat) } })
                }
            }
        }
    }
}

/// MeteoAlarm's Atom country feeds: read as production reads them (libxml2, `MeteoAlarmSource.feed`), then
/// placed at a point with the bundled area table (`MeteoAlarmFeedAlerts`) and turned into the alerts-ahead
/// candidates (`MeteoAlarmFeedFootprints`).
extension FuzzTargets {
    /// What a hostile feed puts between two tokens: entries whose fields are hostile (times out of
    /// range, control characters by reference, geocodes the table lacks or mangles, polygons of absurd
    /// numbers or that zigzag across the antimeridian, a Cancel, a test message), and feed elements.
    static let meteoAlarmInsertions: [String] = {
        let cap = { (fields: String) in
            "<entry><cap:identifier>fz</cap:identifier><cap:event>Wind &#x1B;[2J</cap:event>" + fields + "</entry>"
        }
        return [
            cap("<cap:onset>0000-01-01T00:00:00+00:00</cap:onset><cap:expires>9999-12-31T23:59:59+14:00</cap:expires>"),
            cap("<cap:expires>2022-12-08T15:00:00+99:99</cap:expires><cap:severity>Extreme</cap:severity>"),
            cap("<cap:geocode><valueName>EMMA_ID</valueName><value>FR035</value></cap:geocode>"),
            cap("<cap:geocode><valueName>EMMA_ID</valueName><value>\u{202E}UK105&#x85;</value></cap:geocode>"),
            cap(
                "<cap:geocode><valueName>NUTS3</valueName><value>" + String(repeating: "X", count: 5000)
                    + "</value></cap:geocode>"),
            cap("<cap:polygon>45,6 46,7 45,7 45,6</cap:polygon>"),
            cap("<cap:polygon>0,179.9999 1,-179.9999 0,179.9999 1,-179.9999 0,179.9999</cap:polygon>"),
            cap("<cap:polygon>1e308,1e308 nan,inf -91,181 1,1</cap:polygon>"),
            cap("<cap:message_type>Cancel</cap:message_type><cap:status>Actual</cap:status>"),
            cap("<cap:status>Test</cap:status>"),
            cap("<cap:areaDesc>" + String(repeating: "é\u{301}", count: 3000) + "</cap:areaDesc>"),
            "<entry/>", "<entry><cap:identifier/></entry>", "</entry>", "<entry>", "</feed>", "<feed>",
            "<updated>2200-01-01T00:00:00Z</updated>", "<updated>-1</updated>",
            "<link href=\"javascript:alert(1)\" type=\"application/cap+xml\"/>",
        ]
    }()

    static let meteoAlarm = FuzzTarget(
        name: "meteoalarm",
        about: "MeteoAlarm Atom country feeds (libxml2), placed with alert-areas.bin",
        seedNames: ["meteoalarm-atom-france.xml", "meteoalarm-atom-united-kingdom.xml", "alert-areas.bin"]
    ) { files, setup in
        // alert-areas.bin is found like a seed, but it is the table the feeds are placed with, never mutated.
        var table: AlertAreaTable?
        var seeds: [[UInt8]] = []
        for file in files {
            if table == nil, let t = try? AlertAreaTable(storage: InMemoryTableStorage(copying: file)) {
                table = t
            } else {
                seeds.append(file)
            }
        }
        // Points in the recorded feeds' countries (Haute-Savoie, Paris, Strathclyde, Shetland), a border,
        // the sea and the edges.
        let points =
            [
                (46.0, 6.4), (48.86, 2.35), (55.86, -4.25), (60.3, -1.3), (43.6, 7.5), (47.0, -5.0), (0, 179.9999),
                (90, 0), (-90, -180),
            ].compactMap { Coordinate(lat: $0.0, lon: $0.1) }
        let mutator = MarkupMutator(
            seeds: seeds, maxBytes: min(setup.maxCaseBytes, (2 << 20) + 4096), insertions: meteoAlarmInsertions,
            repeated: ["<entry"])
        let fallback = UTCTime.parse("2022-12-07T18:00:00Z") ?? Date(timeIntervalSince1970: 0)
        return FuzzCampaign(seeds: seeds, mutator: { mutator.mutate(&$0) }) { [table] bytes in
            let h = fnv(bytes)
            return FuzzCheck.judge { (check) throws(AlertError) in
                let tree = try MeteoAlarmSource.feed(bytes)
                // The feed's own time, so that its warnings are current; a mangled one falls back.
                let now =
                    MeteoAlarmAtomDecoder.updated(tree).flatMap {
                        PlausibleTime.contains($0.timeIntervalSince1970) ? $0 : nil
                    } ?? fallback
                let placing = h % 4 == 0 ? nil : table
                let point = points[Int(h % UInt64(points.count))]
                let answer: MeteoAlarmFeedAlerts.Answer
                do throws(AlertDecodeFailure) {
                    answer = try MeteoAlarmFeedAlerts.alerts(in: tree, at: point, table: placing, now: now)
                } catch {
                    throw .invalidResponse(source: .meteoalarm, detail: error.detail)
                }
                check.require(answer.unplacedAreas >= 0, "unplaced areas \(answer.unplacedAreas)")
                check.alerts(answer.alerts, source: .meteoalarm, now: now, points: points)
                for candidate in MeteoAlarmFeedFootprints.candidates(in: tree, table: placing, now: now).prefix(50) {
                    check.alert(candidate.alert, "candidate")
                }
            } refused: { error, check in
                check.terminalSafe(TerminalText.forStderrMessage(error.message), "the feed's error as printed")
            }
        }
    }
}
