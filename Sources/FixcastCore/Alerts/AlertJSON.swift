import FixcastText
import FoundationEssentials

// The JSON form of alerts (CONTRACT.md's `alerts` object of a reading, and `alerts --json`), and
// reading it back (the store keeps readings and the last answer as this JSON).

extension Alert {
    public var json: JSONValue {
        .object([
            ("id", .string(id)),
            ("event", .string(event)),
            ("headline", .string(headline)),
            ("severity", .string(severity.rawValue)),
            ("certainty", .string(certainty)),
            ("urgency", .string(urgency)),
            ("onset", .string(onset.map(UTCTime.format))),
            ("expires", .string(expires.map(UTCTime.format))),
            ("ends", .string(ends.map(UTCTime.format))),
            ("area", .string(area)),
            ("description", .string(description)),
            ("instruction", .string(instruction)),
            ("url", .string(url)),
        ])
    }

    public init?(json a: JSONValue) {
        guard let id = a["id"]?.stringValue, let event = a["event"]?.stringValue else { return nil }
        func time(_ key: String) -> Date? { AlertTime.parse(a[key]?.stringValue) }
        self.init(
            id: id, event: event, headline: a["headline"]?.stringValue,
            severity: AlertSeverity(cap: a["severity"]?.stringValue), certainty: a["certainty"]?.stringValue,
            urgency: a["urgency"]?.stringValue, onset: time("onset"), expires: time("expires"), ends: time("ends"),
            area: a["area"]?.stringValue, description: a["description"]?.stringValue,
            instruction: a["instruction"]?.stringValue, url: a["url"]?.stringValue)
    }
}

extension AlertReport {
    /// `{"covered": false, "source": null, "active": []}` when not covered (CONTRACT.md), else the full object.
    public var json: JSONValue {
        guard covered else {
            return .object([("covered", .bool(false)), ("source", .null), ("active", .array([]))])
        }
        var members: [(String, JSONValue)] = [
            ("source", .string(source?.rawValue)),
            ("covered", .bool(true)),
            ("fetched_at", .string(fetchedAt.map(UTCTime.format))),
            ("stale", .bool(stale)),
            ("active", .array(active.map(\.json))),
        ]
        if omitted > 0 { members.append(("omitted", .int(omitted))) }
        return .object(members)
    }

    public init?(json r: JSONValue) {
        guard let covered = r["covered"]?.boolValue else { return nil }
        guard covered else {
            self = .notCovered
            return
        }
        let active = (r["active"]?.arrayValue ?? []).compactMap(Alert.init(json:))
        self.init(
            source: r["source"]?.stringValue.flatMap(AlertSourceID.init(rawValue:)), covered: true,
            fetchedAt: r["fetched_at"]?.stringValue.flatMap(UTCTime.parse), stale: r["stale"]?.boolValue ?? false,
            active: active, omitted: Self.omittedCount(r["omitted"]))
    }
}

extension AlertReport {
    /// `omitted` read back: a whole number from 0 to a million, else 0 (the store is outside data too).
    static func omittedCount(_ value: JSONValue?) -> Int {
        guard let d = value?.doubleValue, d.isFinite, d >= 0, d <= 1_000_000 else { return 0 }
        return Int(d)
    }
}

extension AlertCheck {
    /// The form kept in the store's state (one key per source).
    public var json: JSONValue {
        .object([
            ("source", .string(source.rawValue)),
            ("lat", .double(coordinate.lat)),
            ("lon", .double(coordinate.lon)),
            ("checked_at", .string(UTCTime.format(checkedAt))),
            ("expires", .string(expires.map(UTCTime.format))),
            ("last_modified", .string(lastModified)),
            ("url", .string(url)),
            ("report", report.json),
            ("aliases", Self.aliasesJSON(report.active)),
            ("footprints", Self.footprintsJSON(report.active)),
        ])
    }

    /// Each alert's `footprint` by its id (only those that have one): alerts ahead match the last
    /// answer's alerts by where they apply, which the reading JSON leaves out.
    static func footprintsJSON(_ alerts: [Alert]) -> JSONValue {
        .object(alerts.compactMap { a in a.footprint.map { (a.id, $0.json) } })
    }

    /// Each alert's `aliases` by its id (only those that have some): the reading JSON leaves them
    /// out, the next answer needs them to join an update to the alert it continues.
    static func aliasesJSON(_ alerts: [Alert]) -> JSONValue {
        .object(alerts.filter { !$0.aliases.isEmpty }.map { ($0.id, .array($0.aliases.map { .string($0) })) })
    }

    public init?(json c: JSONValue) {
        guard let source = c["source"]?.stringValue.flatMap(AlertSourceID.init(rawValue:)),
            let lat = c["lat"]?.doubleValue, let lon = c["lon"]?.doubleValue,
            let coordinate = Coordinate(lat: lat, lon: lon),
            let checkedAt = c["checked_at"]?.stringValue.flatMap(UTCTime.parse),
            let reportJSON = c["report"], var report = AlertReport(json: reportJSON)
        else { return nil }
        if let aliases = c["aliases"], aliases.objectValue != nil {
            for i in report.active.indices {
                let ids = (aliases[report.active[i].id]?.arrayValue ?? []).compactMap { AlertText.line($0.stringValue) }
                report.active[i].aliases = Array(
                    ids.prefix(AlertIdentity.maxReferences).map { TextCap.capped($0, maxBytes: TextCap.alertID) })
            }
        }
        if let footprints = c["footprints"], footprints.objectValue != nil {
            for i in report.active.indices {
                report.active[i].footprint = footprints[report.active[i].id].flatMap(AlertFootprint.init(json:))
            }
        }
        self.init(
            source: source, coordinate: coordinate, checkedAt: checkedAt,
            expires: c["expires"]?.stringValue.flatMap(UTCTime.parse), lastModified: c["last_modified"]?.stringValue,
            report: report, url: c["url"]?.stringValue)
    }
}
