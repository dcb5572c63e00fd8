import FoundationEssentials

/// The alert service's failures, one sentence each (component: alerts). None of them changes the
/// weather or the exit code of a reading: the reading goes out with `alerts: null` (or the stored
/// alerts marked stale) and this in `errors`.
public enum AlertError: UserFacingError, Hashable {
    /// The transfer failed (DNS, refused, timeout, TLS, too large …).
    case transport(source: AlertSourceID, HTTPError)
    /// The service answered with an error status; `retryAfter` is its `Retry-After`, verbatim.
    case status(source: AlertSourceID, code: Int, detail: String?, retryAfter: String? = nil)
    /// The body was not the alert collection the API documents (HTML, garbage, another JSON).
    case invalidResponse(source: AlertSourceID, detail: String)
    /// A library the source's answer is read with could not be loaded (libxml2, for MeteoAlarm's Atom
    /// feed; it is opened at the first feed, not linked).
    case libraryMissing(source: AlertSourceID, MissingLibrary)
    /// 429/5xx earlier: no request until `until`.
    case backingOff(source: AlertSourceID, until: Date)
    /// `--offline` and no stored alerts near here.
    case offline
    /// `alerts.source = "auto"` needs the bundled place table to know the country.
    case countryUnknown(detail: String)
    /// MeteoAlarm's warnings need the bundled area table to be placed; without it they are all listed
    /// for the country as "area unknown".
    case areasUnavailable(detail: String)

    public var component: Component { .alerts }

    public var message: String {
        switch self {
        case .transport(let s, let e):
            return "alerts: the \(s.displayName) request failed: \(e.explained(setting: s.baseURLKey))."
        case .status(let s, let code, let detail, _):
            let why = detail.map { ": \($0)" } ?? ""
            let hint: String
            switch code {
            case _ where RetryBackoff.backsOff(status: code): hint = RetryBackoff.backingOffHint(status: code)
            default: hint = "; check \(s.baseURLKey)"
            }
            return "alerts: \(s.displayName) answered HTTP \(code)\(why)\(hint)."
        case .invalidResponse(let s, let d):
            return "alerts: \(s.displayName) sent a response fixcast could not read (\(d)); try again later."
        case .libraryMissing(let s, let library):
            return "alerts: \(s.displayName)'s warnings cannot be read: \(library.clause)."
        case .backingOff(let s, let until):
            return
                "alerts: \(s.displayName) answered with a server error or asked fixcast to slow down (HTTP 5xx or 429), so fixcast waits: the next request is allowed after \(UTCTime.format(until))."
        case .offline:
            return "alerts: offline mode and no stored alerts near here; run without --offline to fetch them."
        case .countryUnknown(let d):
            return
                "alerts: cannot tell which alert service covers this position (\(d)); set alerts.source to nws, metalerts, eccc or none, or reinstall fixcast."
        case .areasUnavailable(let d):
            return
                "alerts: the MeteoAlarm area table cannot be read (\(d)), so every warning of the country is listed as area unknown; reinstall fixcast."
        }
    }
}
