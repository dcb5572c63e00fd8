import FixcastTables
import FoundationEssentials

/// Where an active alert applies, as the alerts-ahead matcher asks it: the alert's own polygons
/// (NWS, MetAlerts, ECCC; each an outer ring and its holes, lon/lat), or the geocoded areas it names
/// (MeteoAlarm), answered by the bundled area table.
public enum AlertFootprint: Sendable, Hashable {
    /// Polygons: the first ring of each is its outline, the others its holes.
    case polygons([[[AlertFootprint.Point]]])
    /// Area codes (the table's EMMA_IDs); a point is inside when the table places it in one of them.
    case areas(Set<String>)
    /// NWS zones (`/zones/forecast/NVZ003`, from `affectedZones`) of an alert sent without geometry:
    /// nothing is inside until the alert service replaces them with the zones' polygons.
    case zones([String])

    public struct Point: Sendable, Hashable {
        public var lon: Double
        public var lat: Double

        public init(lon: Double, lat: Double) {
            self.lon = lon
            self.lat = lat
        }
    }

    /// Whether `point` lies in the footprint; `areasAt` gives the area codes that contain a point.
    func contains(_ point: Coordinate, areasAt: (Coordinate) -> Set<String>) -> Bool {
        switch self {
        case .areas(let codes):
            return !codes.isDisjoint(with: areasAt(point))
        case .zones:
            return false
        case .polygons(let polygons):
            return polygons.contains { rings in
                RingContainment.polygonHolds(point, rings: rings.map { ring in ring.map { ($0.lon, $0.lat) } })
            }
        }
    }
}

extension AlertReport {
    /// The report for `point`, a few km from where it was asked (`AlertCheckPolicy.sameSpotKm`, an
    /// answer used again without asking): an alert whose own polygon does not hold `point` is left out
    /// (a storm cell's warning, asked at its edge, no longer applies 5 km on); one of an area or zone
    /// is kept, as its area cannot be told here.
    public func narrowed(to point: Coordinate) -> AlertReport {
        var copy = self
        copy.active = active.filter { alert in
            guard let footprint = alert.footprint, case .polygons = footprint else { return true }
            return footprint.contains(point, areasAt: { _ in [] })
        }
        return copy
    }
}

/// Decides which active alerts lie on the way (issue 21.5, CONTRACT.md "Alerts ahead"): an alert is
/// ahead when its footprint contains a sample's position at a time, the sample's ETA, from its onset
/// (unknown: already begun) until the hazard ends (`hazardEnd`). Each such alert once, at the first
/// sample that meets it, soonest first; an alert that only begins after the traveller has passed
/// through its area is not ahead.
public enum AlertsAhead {
    /// One active alert and where it applies.
    public struct Candidate: Sendable, Hashable {
        public var alert: Alert
        public var footprint: AlertFootprint

        public init(alert: Alert, footprint: AlertFootprint) {
            self.alert = alert
            self.footprint = footprint
        }
    }

    /// When the hazard is over: its `ends` when the message gives one, else the message's `expires`.
    /// NWS sends a warning days ahead with the message expiring hours before the hazard's onset (it is
    /// refreshed, or updated, meanwhile): the message's expiry would leave no time at which the hazard
    /// is on, and a traveller heading into it would never be told. Here and now, the message's expiry
    /// still decides (`Alert.isExpired`): an expired message is no longer the agency's word.
    static func hazardEnd(_ alert: Alert) -> Date? { alert.ends ?? alert.expires }

    /// `areasAt`: the area codes that contain a point (the area table's answer); only asked for
    /// candidates with `.areas` footprints, once per sample.
    public static func match(
        _ candidates: [Candidate], samples: [AheadForecast.Sample],
        areasAt: (Coordinate) -> Set<String> = { _ in [] }
    ) -> [AheadForecast.AlertAhead] {
        guard !candidates.isEmpty else { return [] }
        let needsTable = candidates.contains { if case .areas = $0.footprint { true } else { false } }
        var found: [(alert: Alert, ahead: AheadForecast.AlertAhead)] = []
        var matched = Set<String>()
        for sample in samples.sorted(by: { $0.eta < $1.eta }) {
            let codes = needsTable ? areasAt(sample.coordinate) : []
            for candidate in candidates where !matched.contains(candidate.alert.id) {
                let alert = candidate.alert
                if let onset = alert.onset, sample.eta < onset { continue }
                if let end = hazardEnd(alert), sample.eta >= end { continue }
                guard candidate.footprint.contains(sample.coordinate, areasAt: { _ in codes }) else { continue }
                matched.insert(alert.id)
                found.append(
                    (
                        alert,
                        AheadForecast.AlertAhead(
                            id: alert.id, event: alert.event, severity: alert.severity.rawValue,
                            inMin: sample.minutes, atKm: sample.distanceKm, place: sample.place)
                    ))
            }
        }
        return found.sorted { a, b in
            a.ahead.inMin != b.ahead.inMin ? a.ahead.inMin < b.ahead.inMin : Alert.displayOrder(a.alert, b.alert)
        }.map(\.ahead)
    }
}
