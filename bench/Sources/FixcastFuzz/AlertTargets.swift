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
