import FixcastText
import FoundationEssentials

/// Decides the MQTT `alert` topic's messages (CONTRACT.md "MQTT"): one when an alert first applies,
/// however many updates it gets (`AlertIdentity` keeps its id across them), and one with
/// `"ended": true` when it stops applying — cancelled, expired, no longer listed, or left behind (the
/// position moved out of its area or out of every source's coverage).
///
/// Fed the readings in the order they are published. A reading without an alert report (alerts off,
/// or no source could be asked and nothing stored stood in) tells nothing and changes nothing: an
/// outage is not the end of an alert. The state is a value, so the publisher can keep it in the store
/// and a restart does not announce the same alerts again.
public struct AlertAnnouncer: Sendable, Hashable {
    /// One `alert` topic message.
    public struct Announcement: Sendable, Hashable {
        public var alert: Alert
        public var source: AlertSourceID?
        public var ended: Bool
        /// The reading's time.
        public var time: Date

        /// The payload: the alert as in a reading (`alerts.active[]`), its source, `ended` and `time`.
        public var payload: JSONValue {
            var members = alert.json.objectValue ?? []
            members.append(("source", .string(source?.rawValue)))
            members.append(("ended", .bool(ended)))
            members.append(("time", .string(UTCTime.format(time))))
            return .object(members)
        }
    }

    /// The alerts that apply now, by id, as last announced or updated, with their source.
    public private(set) var applying: [String: Applying] = [:]

    public struct Applying: Sendable, Hashable {
        public var alert: Alert
        public var source: AlertSourceID?
    }

    public init() {}

    /// The announcements a reading with `report` at `time` makes: ended ones first (oldest listed
    /// first), then the new ones in the report's order (most severe first).
    public mutating func observe(_ report: AlertReport?, at time: Date) -> [Announcement] {
        guard let report else { return [] }
        let active = report.covered ? Alert.active(report.active, at: time) : []
        let ids = Set(active.map(\.id))
        var out: [Announcement] = []
        for id in applying.keys.sorted() where !ids.contains(id) {
            guard let gone = applying.removeValue(forKey: id) else { continue }
            out.append(Announcement(alert: gone.alert, source: gone.source, ended: true, time: time))
        }
        for alert in active {
            let isNew = applying[alert.id] == nil
            applying[alert.id] = Applying(alert: alert, source: report.source)
            if isNew { out.append(Announcement(alert: alert, source: report.source, ended: false, time: time)) }
        }
        return out
    }

    // MARK: - Kept in the store between runs

    /// More than this many alerts applying at once is not a real state (`AlertReport.maxAlerts`).
    static let maxKept = AlertReport.maxAlerts

    public var json: JSONValue {
        .array(
            applying.keys.sorted().prefix(Self.maxKept).compactMap { id in
                applying[id].map { .object([("source", .string($0.source?.rawValue)), ("alert", $0.alert.json)]) }
            })
    }

    /// The state read back; nil for anything that is not one (the store is outside data too).
    public init?(json: JSONValue) {
        guard let items = json.arrayValue else { return nil }
        for item in items.prefix(Self.maxKept) {
            guard let alertJSON = item["alert"], let alert = Alert(json: alertJSON) else { continue }
            let source = item["source"]?.stringValue.flatMap(AlertSourceID.init(rawValue:))
            applying[alert.id] = Applying(alert: alert, source: source)
        }
    }
}
