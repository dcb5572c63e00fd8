import FoundationEssentials

/// One forecast of the weather where the traveller will be: the reading's `ahead` object
/// (CONTRACT.md "Weather ahead"). Made by the ahead service, shown on the screen and by
/// `fixcast ahead`, stored with every reading that carries it, and later checked against the
/// readings taken where and when the samples said (`AheadCheck`). A value: every field is what was
/// decided when it was made, so a stored forecast reads back the same (its times to within a
/// microsecond: the store counts seconds from 1970, `Date` from 2001).
public struct AheadForecast: Sendable, Equatable, Hashable {
    /// The route being followed: its name (from the GPX, cleaned) and what remains of it.
    public struct Route: Sendable, Equatable, Hashable {
        public var name: String?
        public var remainingKm: Double

        public init(name: String?, remainingKm: Double) {
            self.name = name
            self.remainingKm = remainingKm
        }
    }

    /// Where the forecast was made from.
    public struct Origin: Sendable, Equatable, Hashable {
        public var coordinate: Coordinate
        /// The receiver's time of the fix the forecast was made from.
        public var fixTime: Date?

        public init(coordinate: Coordinate, fixTime: Date?) {
            self.coordinate = coordinate
            self.fixTime = fixTime
        }
    }

    /// Where the speed came from (CONTRACT.md `speed_source`).
    public enum SpeedSource: String, Sendable, Equatable, Hashable {
        /// The median moving speed of the stored track's last 20 min.
        case history
        /// The receiver's own speed.
        case gps
    }

    /// One sample: the place and ETA, with the forecast there (every value unknown when the
    /// forecast did not reach that time). The values are one `AheadConditions`, read as the
    /// sample's own (`sample.temperatureC`), so their list exists once.
    @dynamicMemberLookup
    public struct Sample: Sendable, Equatable, Hashable {
        public var minutes: Int
        public var eta: Date
        public var distanceKm: Double
        public var coordinate: Coordinate
        /// The offline place name (bundled table; never a Nominatim request for a sample).
        public var place: String?
        public var conditions: AheadConditions

        public init(
            minutes: Int, eta: Date, distanceKm: Double, coordinate: Coordinate, place: String? = nil,
            conditions: AheadConditions = AheadConditions()
        ) {
            self.minutes = minutes
            self.eta = eta
            self.distanceKm = distanceKm
            self.coordinate = coordinate
            self.place = place
            self.conditions = conditions
        }

        public subscript<Value>(dynamicMember value: WritableKeyPath<AheadConditions, Value>) -> Value {
            get { conditions[keyPath: value] }
            set { conditions[keyPath: value] = newValue }
        }
    }

    /// "Rain ahead": the first sample at or above `ahead.rain_mm_h`.
    public struct Rain: Sendable, Equatable, Hashable {
        public var inMin: Int
        public var atKm: Double
        public var place: String?
        public var mmH: Double

        public init(inMin: Int, atKm: Double, place: String?, mmH: Double) {
            self.inMin = inMin
            self.atKm = atKm
            self.place = place
            self.mmH = mmH
        }
    }

    /// The extremes over the window (one type with the rule that finds them).
    public typealias Worst = AheadSummary.Worst

    /// An active alert whose area holds a sample between its onset and expiry (issue 21).
    public struct AlertAhead: Sendable, Equatable, Hashable {
        public var id: String
        public var event: String
        public var severity: String
        public var inMin: Int
        public var atKm: Double
        public var place: String?

        public init(id: String, event: String, severity: String, inMin: Int, atKm: Double, place: String?) {
            self.id = id
            self.event = event
            self.severity = severity
            self.inMin = inMin
            self.atKm = atKm
            self.place = place
        }
    }

    public var basis: AheadBasis
    public var offRoute: Bool
    public var madeAt: Date
    public var from: Origin
    public var speedMps: Double?
    public var speedSource: SpeedSource?
    public var route: Route?
    public var samples: [Sample]
    public var rain: Rain?
    public var worst: Worst
    public var alerts: [AlertAhead]
    /// True when this is the last good forecast kept after a failed refresh (`errors` says why).
    public var stale: Bool

    public init(
        basis: AheadBasis, offRoute: Bool = false, madeAt: Date, from: Origin, speedMps: Double?,
        speedSource: SpeedSource?, route: Route? = nil, samples: [Sample], rain: Rain? = nil,
        worst: Worst = Worst(minTemperatureC: nil, maxGustMps: nil, maxPrecipitationMmH: nil),
        alerts: [AlertAhead] = [], stale: Bool = false
    ) {
        self.basis = basis
        self.offRoute = offRoute
        self.madeAt = madeAt
        self.from = from
        self.speedMps = speedMps
        self.speedSource = speedSource
        self.route = route
        self.samples = samples
        self.rain = rain
        self.worst = worst
        self.alerts = alerts
        self.stale = stale
    }
}

extension AheadForecast {
    /// Every sample's arrival time has passed at `now`: kept after failed refreshes (offline, a dead
    /// network, a provider that keeps refusing), the forecast then says nothing about the way ahead,
    /// and "(stale) No rain ahead in the next 2 h" from three hours ago would read as news. The ahead
    /// service stops serving it then (`ahead` is null and `errors` says why). A forecast without
    /// samples (the route's end, nothing to ask) never outlives itself: it claims no time.
    public func isOutlived(at now: Date) -> Bool {
        guard let last = samples.map(\.eta).max() else { return false }
        return last < now
    }
}

extension AheadForecast {
    /// The last sample whose rain is known (a precipitation value came for its hour): how far "no
    /// rain ahead" reaches when no sample reaches `ahead.rain_mm_h`. nil when no sample's rain is
    /// known: the rain ahead is then unknown, never "none" (`rain` is nil both ways).
    public var lastSampleWithKnownRain: Sample? {
        samples.last { $0.precipitationMmH?.isFinite == true }
    }
}
