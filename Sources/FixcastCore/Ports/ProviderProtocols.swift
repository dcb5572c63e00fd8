import FixcastText
import FoundationEssentials

/// The weather service's failures, one sentence each (component: weather).
public enum WeatherError: UserFacingError, Hashable {
    /// The transfer failed (DNS, refused, timeout, TLS, too large …).
    case transport(provider: WeatherProviderID, HTTPError)
    /// The API answered with an error status; `detail` is the API's own reason when it gave one;
    /// `retryAfter` is its `Retry-After` header, verbatim (the back-off reads it).
    case status(provider: WeatherProviderID, code: Int, detail: String?, retryAfter: String? = nil)
    /// The body was not the JSON we expected.
    case invalidResponse(provider: WeatherProviderID, detail: String)
    /// 429/5xx earlier: no request until `until`.
    case backingOff(provider: WeatherProviderID, until: Date)
    /// OpenWeatherMap without a key.
    case missingAPIKey(provider: WeatherProviderID)
    /// `--offline` and nothing stored.
    case offline

    public var component: Component { .weather }

    public var message: String { "weather: " + statement }

    /// The sentence after its component ("the Open-Meteo request failed: …"), for a sentence that quotes
    /// it (`WeatherValueProblem.Cause.notFetched`).
    public var statement: String {
        switch self {
        case .transport(let p, let e):
            return
                "the \(p.displayName) request failed: \(e.explained(setting: "weather.base_url", clause: ErrorText.clause))."
        case .status(let p, let code, let detail, _):
            let why = detail.map { ": \(ErrorText.clause($0))" } ?? ""
            let hint: String
            switch code {
            case 401 where p == .openWeatherMap, 403 where p == .openWeatherMap:
                hint = "; check weather.api_key"
            case 401, 403:
                hint = "; the service refuses this client: try again later or choose another weather.provider"
            case _ where RetryBackoff.backsOff(status: code):
                hint = RetryBackoff.backingOffHint(status: code)
            default: hint = "; check weather.base_url"
            }
            return "\(p.displayName) answered HTTP \(code)\(why)\(hint)."
        case .invalidResponse(let p, let d):
            return
                "\(p.displayName) sent a response fixcast could not read (\(ErrorText.clause(d))); try again later or choose another weather.provider."
        case .backingOff(let p, let until):
            return
                "\(p.displayName) answered with a server error or asked fixcast to slow down (HTTP 5xx or 429), so fixcast waits: the next request is allowed after \(UTCTime.format(until))."
        case .missingAPIKey(let p):
            return "\(p.displayName) needs an API key; set FIXCAST_WEATHER_API_KEY or weather.api_key."
        case .offline:
            return "offline mode and no stored weather near here; run without --offline to fetch it."
        }
    }
}

extension WeatherProviderID {
    public var displayName: String {
        switch self {
        case .openMeteo: return "Open-Meteo"
        case .openWeatherMap: return "OpenWeatherMap"
        case .metNorway: return "MET Norway"
        }
    }
}

/// The names of the place services, as their errors say them (`PlaceError`'s `service`).
public enum PlaceServiceName {
    public static let nominatim = "Nominatim"
    public static let openMeteoGeocoding = "Open-Meteo geocoding"

    /// The config key of the service's URL.
    static func setting(_ service: String) -> String {
        service == openMeteoGeocoding ? "places.search_url" : "places.base_url"
    }
}

/// The place service's failures (component: place).
public enum PlaceError: UserFacingError, Hashable {
    case transport(service: String, HTTPError)
    /// An HTTP status other than 200; `retryAfter` is the answer's `Retry-After` (429, 503).
    case status(service: String, code: Int, detail: String?, retryAfter: String? = nil)
    case invalidResponse(service: String, detail: String)
    /// The service answered 429, 5xx or 403 (Nominatim's "blocked") and fixcast waits before asking
    /// it again; the place is named from the bundled table meanwhile.
    case backingOff(service: String, until: Date)
    /// `--place NAME` matched nothing.
    case noPlaceNamed(String)
    /// The bundled GeoNames table could not be found or read.
    case offlineDataMissing(detail: String)

    public var component: Component { .place }

    public var message: String {
        switch self {
        case .transport(let s, let e):
            return
                "place: the \(s) request failed: \(e.explained(setting: PlaceServiceName.setting(s), clause: ErrorText.clause))."
        case .status(let s, let code, let d, _):
            let hint: String
            switch code {
            case 403:
                hint = "; it refuses this client: set places.provider = \"offline\" or \(PlaceServiceName.setting(s))"
            case _ where RetryBackoff.backsOffNominatim(status: code):
                hint = RetryBackoff.backingOffHint(status: code)
            default: hint = "; check \(PlaceServiceName.setting(s))"
            }
            return "place: \(s) answered HTTP \(code)\(d.map { ": \(ErrorText.clause($0))" } ?? "")\(hint)."
        case .backingOff(let s, let until):
            return
                "place: \(s) refused or asked fixcast to slow down (HTTP 403, 429 or 5xx), so places are named from the bundled table until \(UTCTime.format(until))."
        case .invalidResponse(let s, let d):
            return
                "place: \(s) sent a response fixcast could not read (\(ErrorText.clause(d))); try again later or check \(PlaceServiceName.setting(s))."
        case .noPlaceNamed(let n):
            let shown = TerminalText.echo(n)
            return
                "place: no place named \"\(shown)\"; try `fixcast search \(ShellWord.argument(shown))` to see what matches."
        case .offlineDataMissing(let d):
            return "place: the bundled place table cannot be used (\(d)); reinstall fixcast or set FIXCAST_DATA_DIR."
        }
    }
}

/// Fetches the weather at a position from one provider (network only; caching is the service's job).
public protocol WeatherFetching: Sendable {
    var provider: WeatherProviderID { get }
    func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherReport
}

/// Names the place at a position; nil means "no place here" (not an error).
public protocol ReverseGeocoding: Sendable {
    func place(at coordinate: Coordinate) async throws(PlaceError) -> Place?
}

/// Finds places by name, best match first; an empty array is "no match".
public protocol PlaceSearching: Sendable {
    func search(_ query: String, limit: Int) async throws(PlaceError) -> [PlaceMatch]
}
