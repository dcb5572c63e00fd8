import FoundationEssentials

/// Why a reading was taken (CONTRACT.md `trigger`).
public enum Trigger: String, Sendable, Hashable, CaseIterable {
    /// The first fix after `fixcast run` started.
    case startup
    /// More than `trigger.move_km` from where weather was last fetched.
    case moved
    /// `trigger.periodic_min` without a reading.
    case periodic
    /// The machine came back from a suspend of at least `trigger.resume_min_away_s` (forced).
    case resume
    /// SIGUSR1 or the `r` key (forced).
    case manual
    /// `fixcast now`.
    case once
    /// An official alert not seen before at this position became active (`fixcast run`; not forced).
    case alert

    /// Whether this trigger asks for fresh data past the 10-minute cache (1-minute floor).
    public var isForced: Bool { self == .resume || self == .manual }
}

/// A problem that kept part of a reading from being had; the reading still goes out with it.
public struct ReadingIssue: Sendable, Hashable {
    public var component: Component
    public var message: String

    public init(component: Component, message: String) {
        self.component = component
        self.message = message
    }

    public init(_ error: some UserFacingError) {
        self.init(component: error.component, message: error.message)
    }
}

/// One reading: position, place and weather at a moment, with what went wrong (CONTRACT.md).
public struct Reading: Sendable, Hashable {
    /// `"<device_id>:<store row id>"` once stored (CONTRACT.md `id`), so consumers can drop
    /// duplicates; nil when the reading was not stored.
    public var id: String?
    public var time: Date
    public var trigger: Trigger
    public var position: Position?
    public var place: Place?
    public var weather: WeatherReport?
    /// nil when alerts are off or could not be had (then `errors` says why); `.notCovered` where no source covers the position.
    public var alerts: AlertReport?
    /// The weather where the traveller will be (CONTRACT.md "Weather ahead"); nil when ahead is off
    /// or not yet known.
    public var ahead: AheadForecast?
    public var errors: [ReadingIssue]

    public init(
        time: Date, trigger: Trigger, position: Position?, place: Place? = nil, weather: WeatherReport? = nil,
        alerts: AlertReport? = nil, ahead: AheadForecast? = nil, errors: [ReadingIssue] = [], id: String? = nil
    ) {
        self.id = id
        self.time = time
        self.trigger = trigger
        self.position = position
        self.place = place
        self.weather = weather
        self.alerts = alerts
        self.ahead = ahead
        self.errors = errors
    }
}
