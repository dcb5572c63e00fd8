import FixcastTables
import FixcastText
import FoundationEssentials

/// Decides which warnings of one MeteoAlarm country feed apply at a position (CONTRACT.md "Alerts"):
/// each entry is placed by its own polygon, else by its geocodes in the bundled area table
/// (`MeteoAlarmPlacement`). A warning placed here is listed; one placed elsewhere is not; one whose areas
/// the table cannot place is listed for the whole country with "(area unknown)" after its area names,
/// never dropped. The feed is kept whole in the store, so a 304 or a move within the country runs this
/// again on the same document (read once into its tree), for the new position, without a request.
public enum MeteoAlarmFeedAlerts {
    public struct Answer: Sendable, Hashable {
        /// The warnings that apply here or cannot be placed, one per identifier, in feed order.
        public var alerts: [Alert]
        /// Distinct geocodes of the feed's current warnings that the table cannot place (`status`'s
        /// `alerts.unplaced_areas`); entries with their own polygon need no geocode and add nothing.
        public var unplacedAreas: Int

        public init(alerts: [Alert], unplacedAreas: Int) {
            self.alerts = alerts
            self.unplacedAreas = unplacedAreas
        }
    }

    /// What a warning that cannot be placed says instead of (or after) its area names.
    public static let areaUnknown = "area unknown"

    /// `table` nil: the bundled table could not be read, so every warning without a polygon is
    /// "area unknown" (the caller says why, once). Entries expired by `now` are left out first, so that
    /// an expired copy neither counts as unplaced nor lends its area name.
    public static func alerts(
        in feed: XMLElement, at point: Coordinate, table: AlertAreaTable?, now: Date
    ) throws(AlertDecodeFailure) -> Answer {
        let entries = try MeteoAlarmAtomDecoder.entries(feed)
        let position = table.map { MeteoAlarmPlacement.Position(point, in: $0) }
        var here: [AlertIdentity.Message] = []
        // Unplaceable warnings: their messages (one identity rule for them too: versions and a Cancel
        // join their alert) and the area names each identifier is filed under, in feed order.
        var unknown: [AlertIdentity.Message] = []
        var unknownAreas: [String: [String]] = [:]
        var unplaced = Set<AlertGeocode>()
        for entry in entries {
            // A Cancel is kept whatever its times: it ends the alert it names (`AlertIdentity`).
            guard let message = MeteoAlarmAtomDecoder.liveMessage(entry: entry, at: now) else { continue }
            let alert = message.alert
            let counts = message.kind != .cancel
            let polygons = MeteoAlarmEntryAreas.polygons(in: entry)
            let geocodes = MeteoAlarmEntryAreas.geocodes(in: entry)
            let verdict: MeteoAlarmPlacement.Verdict
            if let table, let position {
                verdict =
                    MeteoAlarmPlacement.place(polygons: polygons, geocodes: geocodes, at: position, table: table)
                    .verdict
                if polygons.isEmpty, counts {
                    for g in geocodes where table.areaIndex(code: g.code, scheme: g.scheme) == nil {
                        unplaced.insert(g)
                    }
                }
            } else if !polygons.isEmpty {
                let inside = polygons.contains { RingContainment.locate(point, in: $0) != .outside }
                verdict = inside ? .here : .elsewhere
            } else {
                verdict = .areaUnknown
                if counts { unplaced.formUnion(geocodes) }
            }
            switch verdict {
            case .here:
                here.append(message)
            case .elsewhere:
                break
            case .areaUnknown:
                unknown.append(message)
                if let name = alert.area, unknownAreas[alert.id, default: []].contains(name) == false {
                    unknownAreas[alert.id, default: []].append(name)
                }
            }
        }
        var alerts = AlertIdentity.onePerIdentity(here)
        let placedIDs = Set(alerts.flatMap { [$0.id] + $0.aliases })
        for found in AlertIdentity.onePerIdentity(unknown) {
            let names = [found.id] + found.aliases
            guard !names.contains(where: placedIDs.contains) else { continue }
            var alert = found
            var areas: [String] = []
            for name in names {
                for area in unknownAreas[name] ?? [] where !areas.contains(area) { areas.append(area) }
            }
            // The names are cut, never the words that say the area is unknown.
            let suffix = " (\(areaUnknown))"
            alert.area =
                areas.isEmpty
                ? areaUnknown
                : TextCap.capped(areas.joined(separator: ", "), maxBytes: TextCap.alertLine - suffix.utf8.count)
                    + suffix
            alerts.append(alert)
        }
        return Answer(alerts: alerts, unplacedAreas: unplaced.count)
    }
}
