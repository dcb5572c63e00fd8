import FoundationEssentials

/// One answer of an alert source: the alerts (or "not modified since"), with the caching headers.
public struct AlertAnswer: Sendable, Hashable {
    /// nil for 304 Not Modified (the last answer stands).
    public var alerts: [Alert]?
    public var expires: Date?
    public var lastModified: String?
    public var etag: String?

    public init(alerts: [Alert]?, expires: Date?, lastModified: String?, etag: String? = nil) {
        self.alerts = alerts
        self.expires = expires
        self.lastModified = lastModified
        self.etag = etag
    }
}

/// An official alert service asked for a point (NWS, MET Norway, ECCC). A source that publishes one
/// document per country instead (MeteoAlarm) is a `MeteoAlarmSource`, matched to the point offline.
/// Network only: when to ask and what to keep is `AlertService`'s job.
public protocol AlertSource: Sendable {
    var id: AlertSourceID { get }
    func url(for coordinate: Coordinate) -> String
    func fetch(at coordinate: Coordinate, ifModifiedSince: String?) async throws(AlertError) -> AlertAnswer
}

/// Tells the country at a position without a network (the GeoNames code of the nearest place).
public protocol CountryLocating: Sendable {
    /// nil when no place is near enough to say (open sea); throws when the table is unavailable.
    func countryCode(at coordinate: Coordinate) throws(PlaceError) -> String?
    /// The country and the first-level division (GeoNames admin1 name) at a position, for the regions
    /// ahead (`AlertRegionsAhead`); the default knows the country only.
    func spot(at coordinate: Coordinate) throws(PlaceError) -> AlertRegionsAhead.Spot
}

extension CountryLocating {
    public func spot(at coordinate: Coordinate) throws(PlaceError) -> AlertRegionsAhead.Spot {
        AlertRegionsAhead.Spot(coordinate: coordinate, country: try countryCode(at: coordinate), region: nil)
    }
}
