import FixcastTables
import FixcastText
import FoundationEssentials

/// Why an alert service's body could not be read: not JSON, or not the collection of alerts its
/// API documents. `detail` is short and names the part; the HTTP source wraps it into `AlertError`.
public struct AlertDecodeFailure: Error, Sendable, Hashable {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// Shared steps of the GeoJSON alert decoders.
enum AlertGeoJSON {
    /// The `features` array of a GeoJSON FeatureCollection, every one of them: the decoders filter
    /// first and `AlertReport.fetched` caps after (the body itself is capped by the HTTP client).
    static func features(_ body: [UInt8]) throws(AlertDecodeFailure) -> [JSONValue] {
        try features(of: document(body))
    }

    /// The body as a JSON object.
    static func document(_ body: [UInt8]) throws(AlertDecodeFailure) -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            throw AlertDecodeFailure(error.summary)
        }
        guard json.objectValue != nil else { throw AlertDecodeFailure("the body is not a JSON object") }
        return json
    }

    /// The `features` array of a FeatureCollection already read.
    static func features(of json: JSONValue) throws(AlertDecodeFailure) -> [JSONValue] {
        guard let features = json["features"]?.arrayValue else {
            throw AlertDecodeFailure("no \"features\" array (not a GeoJSON FeatureCollection)")
        }
        return features
    }

    /// The features that are alerts at `point` (every point when nil), with their `properties`
    /// object: CAP's `status` is `Actual` (`AlertIdentity.isActual`) and the geometry, when there is
    /// one, contains the point. NWS and MetAlerts answer with the same shape.
    static func actualFeatures(_ body: [UInt8], at point: Coordinate?) throws(AlertDecodeFailure) -> [(
        feature: JSONValue, properties: JSONValue
    )] {
        try features(body).compactMap { feature in
            guard let p = feature["properties"], p.objectValue != nil,
                AlertIdentity.isActual(status: p["status"]?.stringValue)
            else { return nil }
            if let point, geometry(feature["geometry"], contains: point) == false { return nil }
            return (feature, p)
        }
    }

    /// A string value, or nil for absent, null or another type.
    static func text(_ value: JSONValue?) -> String? { value?.stringValue }

    /// An ISO 8601 time from 1970 to 2200, or nil (absent, null, unreadable, absurd: never made up).
    static func time(_ value: JSONValue?) -> Date? { AlertTime.parse(value?.stringValue) }

    /// `references` as NWS sends it (an array of `{identifier, sent}`) or as CAP text
    /// (`sender,identifier,sent` triples); anything else is none.
    static func references(_ value: JSONValue?) -> [AlertIdentity.Reference] {
        if let text = value?.stringValue { return AlertIdentity.references(cap: text) }
        guard let items = value?.arrayValue else { return [] }
        return items.prefix(AlertIdentity.maxReferences).compactMap { item in
            AlertIdentity.Reference(id: item["identifier"]?.stringValue, sent: time(item["sent"]))
        }
    }

    /// Whether a GeoJSON `Polygon`/`MultiPolygon` contains `point`; nil when the geometry is absent, of
    /// another kind, or has no usable polygon (then the source's own point query is trusted). Read by
    /// the one rule that reads it for alerts ahead (`AlertFootprint(geoJSON:)`: a polygon with a ring
    /// that does not read is left out whole, so a broken outline never makes its hole the area).
    static func geometry(_ g: JSONValue?, contains point: Coordinate) -> Bool? {
        AlertFootprint(geoJSON: g).map { $0.contains(point, areasAt: { _ in [] }) }
    }
}

/// The NWS API's `/alerts/active?point=` GeoJSON (CAP fields in each feature's `properties`).
/// Only `status: Actual` messages count (tests, exercises and drafts are not alerts). Updates
/// (`references`, each with its `identifier` and `sent`) and a `Cancel` go to `AlertIdentity`, which
/// makes one alert of a chain, with its latest text, and ends a cancelled one.
/// - SeeAlso: https://www.weather.gov/documentation/services-web-api
public enum NWSAlertDecoder {
    public static func decode(_ body: [UInt8], at point: Coordinate? = nil) throws(AlertDecodeFailure) -> [Alert] {
        var alerts: [AlertIdentity.Message] = []
        for (feature, p) in try AlertGeoJSON.actualFeatures(body, at: point) {
            guard let id = AlertText.line(AlertGeoJSON.text(p["id"]) ?? AlertGeoJSON.text(feature["id"])) else {
                continue
            }
            let event =
                AlertText.line(AlertGeoJSON.text(p["event"])) ?? AlertText.line(AlertGeoJSON.text(p["headline"]))
                ?? "Alert"
            alerts.append(
                AlertIdentity.Message(
                    alert: Alert(
                        id: id, event: event, headline: AlertText.line(AlertGeoJSON.text(p["headline"])),
                        severity: AlertSeverity(cap: AlertGeoJSON.text(p["severity"])),
                        certainty: AlertText.line(AlertGeoJSON.text(p["certainty"])),
                        urgency: AlertText.line(AlertGeoJSON.text(p["urgency"])),
                        onset: AlertGeoJSON.time(p["onset"]) ?? AlertGeoJSON.time(p["effective"]),
                        expires: AlertGeoJSON.time(p["expires"]), ends: AlertGeoJSON.time(p["ends"]),
                        area: AlertText.line(AlertGeoJSON.text(p["areaDesc"])),
                        description: AlertText.paragraph(AlertGeoJSON.text(p["description"])),
                        instruction: AlertText.paragraph(AlertGeoJSON.text(p["instruction"])),
                        url: AlertText.line(AlertGeoJSON.text(p["@id"]) ?? AlertGeoJSON.text(feature["id"]))
                    ).placed(
                        AlertFootprint(geoJSON: feature["geometry"]) ?? AlertFootprint(nwsZones: p["affectedZones"])),
                    sent: AlertGeoJSON.time(p["sent"]), kind: AlertIdentity.Kind(cap: p["messageType"]?.stringValue),
                    references: AlertGeoJSON.references(p["references"])))
        }
        return AlertIdentity.onePerIdentity(alerts)
    }
}

/// MET Norway MetAlerts 2.0 `current.json` (GeoJSON; CAP-like `properties`, validity in
/// `when.interval`). Severity comes from the awareness colour (`awareness_level` "2; yellow; Moderate",
/// else `riskMatrixColor`), as MET's own warnings are graded by colour; CAP `severity` only when
/// neither is sent. Features whose polygon does not contain the point are left out (the query
/// already asks for the point; this keeps a whole-country answer honest). `AlertIdentity` makes one
/// alert of each chain (`type` Alert/Update/Cancel, `references` when sent; MetAlerts' GeoJSON
/// usually carries neither `sent` nor `references`, so its same-event-severity-onset-expiry-area rule
/// and, without times, the most severe decide).
/// - SeeAlso: https://api.met.no/weatherapi/metalerts/2.0/documentation
public enum MetAlertsDecoder {
    public static func decode(_ body: [UInt8], at point: Coordinate? = nil) throws(AlertDecodeFailure) -> [Alert] {
        var alerts: [AlertIdentity.Message] = []
        for (feature, p) in try AlertGeoJSON.actualFeatures(body, at: point) {
            guard let id = AlertText.line(AlertGeoJSON.text(p["id"])) else { continue }
            let interval = feature["when"]?["interval"]?.arrayValue ?? []
            let event =
                AlertText.line(AlertGeoJSON.text(p["eventAwarenessName"])) ?? AlertText.line(
                    AlertGeoJSON.text(p["event"])) ?? "Alert"
            let url = AlertGeoJSON.text(p["web"]) ?? p["resources"]?[0]?["uri"]?.stringValue
            alerts.append(
                AlertIdentity.Message(
                    alert: Alert(
                        id: id, event: event, headline: AlertText.line(AlertGeoJSON.text(p["title"])),
                        severity: severity(p), certainty: AlertText.line(AlertGeoJSON.text(p["certainty"])),
                        urgency: nil,
                        onset: AlertGeoJSON.time(interval.first),
                        expires: interval.count > 1 ? AlertGeoJSON.time(interval[1]) : nil,
                        ends: AlertGeoJSON.time(p["eventEndingTime"]),
                        area: AlertText.line(AlertGeoJSON.text(p["area"])),
                        description: AlertText.paragraph(AlertGeoJSON.text(p["description"])),
                        instruction: AlertText.paragraph(AlertGeoJSON.text(p["instruction"])), url: AlertText.line(url)
                    ).placed(AlertFootprint(geoJSON: feature["geometry"])),
                    sent: AlertGeoJSON.time(p["sent"]), kind: AlertIdentity.Kind(cap: p["type"]?.stringValue),
                    references: AlertGeoJSON.references(p["references"])))
        }
        return AlertIdentity.onePerIdentity(alerts)
    }

    static func severity(_ p: JSONValue) -> AlertSeverity {
        if let level = p["awareness_level"]?.stringValue {
            let parts = level.split(separator: ";")
            if parts.count >= 2, let s = AlertSeverity(awarenessColour: String(parts[1])) { return s }
        }
        if let colour = p["riskMatrixColor"]?.stringValue, let s = AlertSeverity(awarenessColour: colour) { return s }
        return AlertSeverity(cap: p["severity"]?.stringValue)
    }
}
