import FixcastText
import FoundationEssentials

/// Every current warning of one MeteoAlarm country feed with where it applies, for alerts ahead
/// (`AlertsAhead`): an entry's own polygons when it has them (the polygon wins, as in
/// `MeteoAlarmPlacement`), else the bundled table's areas its geocodes name. One candidate per entry,
/// under the identity its warning has (`AlertIdentity`), so a warning filed under several areas is
/// met in whichever comes first; an entry the table cannot place has no footprint and is not ahead
/// (it is listed for the whole country where the traveller is, by `MeteoAlarmFeedAlerts`).
public enum MeteoAlarmFeedFootprints {
    public static func candidates(in feed: XMLElement, table: AlertAreaTable?, now: Date) -> [AlertsAhead.Candidate] {
        guard let entries = try? MeteoAlarmAtomDecoder.entries(feed) else { return [] }
        var messages: [AlertIdentity.Message] = []
        var placed: [(id: String, footprint: AlertFootprint)] = []
        for entry in entries {
            // As `MeteoAlarmFeedAlerts` reads the feed: a Cancel is kept whatever its times, and ends the
            // warning it joins (`AlertIdentity`), so a cancelled warning is not ahead either.
            guard let message = MeteoAlarmAtomDecoder.liveMessage(entry: entry, at: now) else { continue }
            messages.append(message)
            if message.kind != .cancel, let footprint = footprint(entry, table: table) {
                placed.append((message.alert.id, footprint))
            }
        }
        var byID: [String: Alert] = [:]
        for alert in AlertIdentity.onePerIdentity(messages) {
            for id in [alert.id] + alert.aliases where byID[id] == nil { byID[id] = alert }
        }
        return placed.compactMap { entry in
            byID[entry.id].map { AlertsAhead.Candidate(alert: $0, footprint: entry.footprint) }
        }
    }

    /// The codes `candidates` names areas by (each area's own geocode) for the areas holding `point`:
    /// the matcher's `areasAt`. Held as a warning here and now is (`MeteoAlarmPlacement.Position`: one
    /// in no area takes those within a few km), so a town the geometry leaves out is not passed over
    /// ahead either.
    public static func areaCodes(at point: Coordinate, table: AlertAreaTable) -> Set<String> {
        Set(MeteoAlarmPlacement.Position(point, in: table).containing.map { table.area(at: $0).geocode.code })
    }

    static func footprint(_ entry: XMLElement, table: AlertAreaTable?) -> AlertFootprint? {
        let polygons = MeteoAlarmEntryAreas.polygons(in: entry).filter { $0.count >= 3 }
        if !polygons.isEmpty {
            // Each CAP polygon is an outline of its own (CAP has no holes).
            return .polygons(polygons.map { [$0.map { AlertFootprint.Point(lon: $0.lon, lat: $0.lat) }] })
        }
        guard let table else { return nil }
        let codes = MeteoAlarmEntryAreas.geocodes(in: entry).compactMap { g in
            table.areaIndex(code: g.code, scheme: g.scheme).map { table.area(at: $0).geocode.code }
        }
        return codes.isEmpty ? nil : .areas(Set(codes))
    }
}
