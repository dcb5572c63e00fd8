import FoundationEssentials

/// A region whose alerts one request answers whole, so that the alerts on the way can be matched
/// offline (CONTRACT.md "Alerts ahead"): an NWS state (`/alerts/active?area=XX`), MET Norway's whole
/// warning area, one MeteoAlarm country feed, or an ECCC box.
public enum AlertRegion: Sendable, Hashable {
    /// An NWS state or territory by its postal code (`NV`, `PR`).
    case nwsState(String)
    /// MetAlerts for all of Norway and Svalbard (`current.json` without a point).
    case metAlertsCountry
    /// A MeteoAlarm country feed by its slug (`MeteoAlarmFeeds`).
    case meteoAlarmFeed(String)
    /// An ECCC box in whole degrees (west, south, east, north), snapped outwards so that the same
    /// stretch of road asks the same box (and the box's answer is reused for `check_min`).
    case ecccBox(west: Int, south: Int, east: Int, north: Int)

    public var source: AlertSourceID {
        switch self {
        case .nwsState: return .nws
        case .metAlertsCountry: return .metalerts
        case .meteoAlarmFeed: return .meteoalarm
        case .ecccBox: return .eccc
        }
    }

    /// A stable name for the region's stored answer and rate limit (`nws.NV`, `eccc.-80.43.-78.45`).
    public var key: String {
        switch self {
        case .nwsState(let code): return "nws." + code
        case .metAlertsCountry: return "metalerts.all"
        case .meteoAlarmFeed(let slug): return "meteoalarm." + slug
        case .ecccBox(let w, let s, let e, let n): return "eccc.\(w).\(s).\(e).\(n)"
        }
    }
}

/// Decides which regions to ask for the alerts ahead (issue 21.5): each sample's region, from its
/// country and first-level division as the offline place table names them, asked once whatever the
/// number of samples in it. NWS by state, MetAlerts once for the country, MeteoAlarm one feed per
/// country, ECCC one box around every Canadian sample. A sample whose state or country is unknown
/// (open sea) adds nothing.
public enum AlertRegionsAhead {
    /// Where one sample lies, offline.
    public struct Spot: Sendable, Hashable {
        public var coordinate: Coordinate
        /// ISO 3166-1 alpha-2 of the nearest place; nil when none is near enough.
        public var country: String?
        /// The nearest place's first-level division (GeoNames admin1 name: "Nevada").
        public var region: String?

        public init(coordinate: Coordinate, country: String?, region: String?) {
            self.coordinate = coordinate
            self.country = country
            self.region = region
        }
    }

    /// The regions for `spots`, in the order of the first sample in each; ECCC's box last. `setting` is
    /// `alerts.source` (a forced source asks its own kind of region wherever the samples are).
    public static func plan(_ spots: [Spot], setting: AlertSourceSetting) -> [AlertRegion] {
        var regions: [AlertRegion] = []
        var canadian: [Coordinate] = []
        for spot in spots {
            let region: AlertRegion?
            switch AlertCoverage.source(countryCode: spot.country, setting: setting) {
            case nil: region = nil
            case .nws?: region = nwsState(country: spot.country, region: spot.region).map(AlertRegion.nwsState)
            case .metalerts?: region = .metAlertsCountry
            case .meteoalarm?:
                region = spot.country.flatMap(MeteoAlarmFeeds.slug(countryCode:)).map(AlertRegion.meteoAlarmFeed)
            case .eccc?:
                canadian.append(spot.coordinate)
                region = nil
            }
            if let region, !regions.contains(region) { regions.append(region) }
        }
        if let box = ecccBox(around: canadian) { regions.append(box) }
        return regions
    }

    /// The box holding every point with ECCC's margin (`marginDegrees`), floored and ceiled to whole
    /// degrees; nil for no points.
    static func ecccBox(around points: [Coordinate]) -> AlertRegion? {
        guard let first = points.first else { return nil }
        var (w, s, e, n) = (first.lon, first.lat, first.lon, first.lat)
        for p in points.dropFirst() {
            w = min(w, p.lon)
            e = max(e, p.lon)
            s = min(s, p.lat)
            n = max(n, p.lat)
        }
        return .ecccBox(
            west: Int((w - marginDegrees).rounded(.down)), south: max(-90, Int((s - marginDegrees).rounded(.down))),
            east: Int((e + marginDegrees).rounded(.up)), north: min(90, Int((n + marginDegrees).rounded(.up))))
    }

    /// The margin around the samples, as the position's own ECCC box has (about 5.5 km): a warning
    /// area that holds a sample crosses the box.
    static let marginDegrees = 0.05

    /// The NWS area code of a US state (by GeoNames' admin1 name) or territory (by its own country code).
    public static func nwsState(country: String?, region: String?) -> String? {
        switch country?.uppercased() {
        case "US"?: return region.flatMap { usStates[$0] }
        case let code? where ["PR", "GU", "VI", "AS", "MP"].contains(code): return code
        default: return nil
        }
    }

    /// GeoNames' admin1 names of the states and DC → the postal codes NWS's `area=` takes.
    static let usStates: [String: String] = [
        "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA", "Colorado": "CO",
        "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA", "Hawaii": "HI", "Idaho": "ID",
        "Illinois": "IL", "Indiana": "IN", "Iowa": "IA", "Kansas": "KS", "Kentucky": "KY", "Louisiana": "LA",
        "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA", "Michigan": "MI", "Minnesota": "MN",
        "Mississippi": "MS", "Missouri": "MO", "Montana": "MT", "Nebraska": "NE", "Nevada": "NV",
        "New Hampshire": "NH", "New Jersey": "NJ", "New Mexico": "NM", "New York": "NY", "North Carolina": "NC",
        "North Dakota": "ND", "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA",
        "Rhode Island": "RI", "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN", "Texas": "TX",
        "Utah": "UT", "Vermont": "VT", "Virginia": "VA", "Washington": "WA", "Washington, D.C.": "DC",
        "West Virginia": "WV", "Wisconsin": "WI", "Wyoming": "WY",
    ]
}

extension AlertRegionsAhead {
    /// Every alert of a region's answer with its footprint (no point to filter by: the whole region is
    /// kept and matched to the samples). MeteoAlarm feeds are `MeteoAlarmFeedFootprints`' (they are
    /// placed by the area table); nil for them here.
    public static func alerts(
        of region: AlertRegion, body: [UInt8], language: String
    ) throws(AlertDecodeFailure) -> [Alert]? {
        switch region {
        case .nwsState: return try NWSAlertDecoder.decode(body)
        case .metAlertsCountry: return try MetAlertsDecoder.decode(body)
        case .ecccBox: return try ECCCAlertDecoder.decode(body, language: language)
        case .meteoAlarmFeed: return nil
        }
    }
}
