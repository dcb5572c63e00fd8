import FixcastText
import FoundationEssentials

/// Environment and Climate Change Canada's alerts, as MSC GeoMet's OGC API serves them
/// (`/collections/weather-alerts/items?f=json`): a GeoJSON FeatureCollection, one feature per alert and
/// warning area, each with its polygon and bilingual properties (`alert_name_en`/`_fr`, `feature_name_…`,
/// `alert_text_…`, `risk_colour_…`). Only features whose polygon contains the point are kept (the
/// query asks for a box around it); an `ended` or `cancelled` status ends an alert rather than being one.
/// Severity is ECCC's risk colour on MeteoAlarm's scale (yellow → moderate, orange → severe, red →
/// extreme), else its `impact` word, else unknown. The feature `id` (the alert's identifier, `_`, the
/// area's) is the alert's id; one id is one alert (`AlertIdentity`, newest `publication_datetime`).
/// - SeeAlso: https://eccc-msc.github.io/open-data/msc-geomet/readme_en/
public enum ECCCAlertDecoder {
    /// The statuses that end an alert (ECCC's `status_en`: issued, updated, continued, ended, cancelled).
    static let endingStatuses: Set<String> = ["ended", "cancelled", "canceled"]

    /// `language`: `en` or `fr`, the suffix of the fields read (another value reads English).
    public static func decode(
        _ body: [UInt8], at point: Coordinate? = nil, language: String = "en"
    ) throws(AlertDecodeFailure) -> [Alert] {
        let lang = language == "fr" ? "fr" : "en"
        var alerts: [AlertIdentity.Message] = []
        for feature in try AlertGeoJSON.features(body) {
            guard let p = feature["properties"], p.objectValue != nil else { continue }
            func text(_ key: String) -> String? { AlertGeoJSON.text(p[key + "_" + lang]) ?? AlertGeoJSON.text(p[key]) }
            if let status = AlertGeoJSON.text(p["status_en"])?.lowercased(), endingStatuses.contains(status) {
                continue
            }
            if let point, AlertGeoJSON.geometry(feature["geometry"], contains: point) == false { continue }
            guard let id = AlertText.line(AlertGeoJSON.text(p["id"]) ?? AlertGeoJSON.text(feature["id"])) else {
                continue
            }
            let event = AlertText.line(text("alert_name")).map(capitalizedFirst) ?? "Alert"
            alerts.append(
                AlertIdentity.Message(
                    alert: Alert(
                        id: id, event: event, headline: nil, severity: severity(p),
                        certainty: AlertText.line(text("confidence")), urgency: nil,
                        onset: AlertGeoJSON.time(p["validity_datetime"]),
                        expires: AlertGeoJSON.time(p["expiration_datetime"]),
                        ends: AlertGeoJSON.time(p["event_end_datetime"]),
                        area: AlertText.line(text("feature_name")),
                        description: AlertText.paragraph(text("alert_text")), instruction: nil, url: nil
                    ).placed(AlertFootprint(geoJSON: feature["geometry"])),
                    sent: AlertGeoJSON.time(p["publication_datetime"])))
        }
        return AlertIdentity.onePerIdentity(alerts)
    }

    static func severity(_ p: JSONValue) -> AlertSeverity {
        if let colour = p["risk_colour_en"]?.stringValue, let s = AlertSeverity(awarenessColour: colour) { return s }
        return AlertSeverity(cap: p["impact_en"]?.stringValue)
    }

    /// "freezing rain warning" → "Freezing rain warning" (ECCC's names are lower case).
    static func capitalizedFirst(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }
}
