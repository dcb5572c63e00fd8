import FoundationEssentials

/// Why there is no fresh forecast ahead; one sentence naming `ahead` and what happens next. A
/// failed refresh never fails the reading: the reading keeps the last forecast, marked stale.
public enum AheadError: UserFacingError, Equatable {
    /// The transfer failed before any status (the `HTTPError` reason, for the middle of a sentence).
    case transport(reason: String)
    /// The forecast service answered with a status other than 2xx.
    case status(code: Int, detail: String?)
    /// The answer could not be read.
    case decode(AheadForecastDecodeError)
    /// Held back after a 429 or 5xx until this instant.
    case backingOff(until: Date)
    /// The route file could not be read or followed.
    case route(GPXRouteError)
    /// The route file could not be opened (`detail` follows the path: "does not exist").
    case routeFile(path: String, detail: String)
    /// A route problem (`route`, `routeFile`) with where `ahead.route` was set in the config file or
    /// the environment, so that the message names the line to mend.
    indirect case routeSetting(AheadError, ConfigOrigin)
    /// Neither a route nor a course to follow (a fixed position, a first fix without speed).
    case noBasis
    /// A route to follow but no speed to time it by: no moving stored track and no receiver speed
    /// (`--at`/`--place` with a route and a store with no recent drive). Never a fixed speed.
    case noSpeed
    /// `--offline`: the forecast service is not asked, and there is no forecast ahead to serve.
    case offline

    public var component: Component { .ahead }

    public var message: String {
        switch self {
        case .transport(let reason):
            return
                "ahead: the forecast service could not be reached (\(ErrorText.clause(reason))); the last forecast ahead is kept, and it is asked again at the next refresh."
        case .status(let code, let detail):
            let why = detail.map { ": \(ErrorText.clause($0))" } ?? ""
            let next =
                RetryBackoff.backsOff(status: code)
                ? "fixcast waits before asking again (Retry-After or back-off)"
                : "it is asked again at the next refresh"
            return
                "ahead: the forecast service answered HTTP \(code)\(why); the last forecast ahead is kept, and \(next)."
        case .decode(let e):
            return e.message
        case .backingOff(let until):
            return
                "ahead: the forecast service asked fixcast to wait; it is not asked again before \(UTCTime.format(until)), and the last forecast ahead is kept."
        case .route(let e):
            return e.message
        case .routeFile(let path, let detail):
            return
                "ahead: the route file \(ErrorText.clause(path)) \(ErrorText.clause(detail)); pass a readable GPX file with --route or ahead.route."
        case .routeSetting(let problem, let origin):
            let sentence = problem.message
            let clause = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
            return "\(clause); ahead.route is \(origin.setting)."
        case .noBasis:
            return
                "ahead: there is nothing to follow yet; weather ahead needs a route (--route FILE.gpx) or a moving fix with a course."
        case .noSpeed:
            return
                "ahead: the route is set but there is no speed to time it by yet; follow a moving fix from gpsd, whose stored track gives the speed."
        case .offline:
            return "ahead: --offline asks no forecast service; run without --offline to forecast the way ahead."
        }
    }
}
