import FixcastCore
import FoundationEssentials

/// Builds the weather provider `weather.provider` names, pointed at `weather.base_url` (empty: the
/// provider's public HTTPS endpoint). `store` lets MET Norway keep its `Expires`/`Last-Modified`
/// across runs (the other providers need none).
public enum WeatherProviders {
    public static func make(
        settings: Settings.Weather, http: any HTTPFetching, store: (any WeatherCacheStore & StateStore)? = nil
    )
        throws(WeatherError) -> any WeatherFetching
    {
        switch settings.provider {
        case .openMeteo:
            return OpenMeteoWeather(baseURL: settings.baseURL, http: http)
        case .openWeatherMap:
            guard !settings.apiKey.isEmpty else { throw .missingAPIKey(provider: .openWeatherMap) }
            return OpenWeatherMapWeather(baseURL: settings.baseURL, apiKey: settings.apiKey, http: http)
        case .metNorway:
            return MetNorwayWeather(baseURL: settings.baseURL, http: http, store: store)
        }
    }
}

/// The plumbing every weather provider shares: the GET with its errors
/// mapped to `WeatherError`, and reading an API's own reason out of an error body.
enum WeatherHTTP {
    /// One GET; transport failures become `WeatherError.transport` with every secret removed from any
    /// URL the error quotes.
    static func get(_ request: HTTPRequest, http: any HTTPFetching, provider: WeatherProviderID, secrets: [String] = [])
        async throws(WeatherError) -> HTTPResponse
    {
        do {
            return try await http.get(request)
        } catch {
            throw .transport(provider: provider, redact(error, secrets: secrets))
        }
    }

    static func redact(_ error: HTTPError, secrets: [String]) -> HTTPError {
        switch error {
        case .invalidURL(let u): return .invalidURL(redact(u, secrets: secrets))
        case .insecureURL(let u): return .insecureURL(redact(u, secrets: secrets))
        case .transport(let d): return .transport(detail: redact(d, secrets: secrets))
        case .tls(let h, let d): return .tls(host: h, detail: redact(d, secrets: secrets))
        default: return error
        }
    }

    /// `text` with each secret (as given and percent-encoded) replaced by `REDACTED`.
    static func redact(_ text: String, secrets: [String]) -> String {
        var out = text
        for secret in secrets where !secret.isEmpty {
            for form in Set([secret, QueryEncoding.encode(secret)]) {
                out = out.replacing(form, with: "REDACTED")
            }
        }
        return out
    }

    /// A 2xx passes; anything else is `WeatherError.status` carrying the API's own reason.
    static func requireSuccess(_ response: HTTPResponse, provider: WeatherProviderID, secrets: [String] = [])
        throws(WeatherError)
    {
        guard !(200...299).contains(response.status) else { return }
        // Redacted before the cap, so that a key cut in half at the end cannot survive it.
        let detail = apiReason(response).map {
            TextCap.capped(redact($0, secrets: secrets), maxBytes: TextCap.serverReason)
        }
        throw .status(
            provider: provider, code: response.status, detail: detail, retryAfter: response.retryAfter)
    }

    /// The reason an API gave in an error body: Open-Meteo `reason`, OpenWeatherMap `message`,
    /// `error.message` (Nominatim style), or a short plain-text body. An HTML page gives none.
    static func apiReason(_ response: HTTPResponse) -> String? {
        if looksLikeHTML(response) { return nil }
        if let reason = OpenMeteoDecoder.errorReason(response.body) { return reason }
        if let message = OpenWeatherMapDecoder.errorMessage(response.body) { return message }
        let contentType = response.header("content-type")?.lowercased() ?? ""
        if contentType.hasPrefix("text/plain") {
            let text = String(decoding: response.body.prefix(300), as: UTF8.self)
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return line.isEmpty ? nil : String(line.prefix(200))
        }
        return nil
    }

    static func looksLikeHTML(_ response: HTTPResponse) -> Bool {
        if response.header("content-type")?.lowercased().contains("html") == true { return true }
        let start = response.body.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
        return start.first == UInt8(ascii: "<")
    }

    /// A decode error → `invalidResponse` with a short cause ("an HTML page instead of JSON" for a
    /// captive portal or proxy error page that answered 200).
    static func decoded<T>(
        _ response: HTTPResponse, provider: WeatherProviderID, _ decode: () throws(WeatherDecodeError) -> T
    )
        throws(WeatherError) -> T
    {
        if looksLikeHTML(response) {
            throw .invalidResponse(provider: provider, detail: "an HTML page instead of JSON")
        }
        if response.body.isEmpty { throw .invalidResponse(provider: provider, detail: "an empty body") }
        do {
            return try decode()
        } catch {
            throw .invalidResponse(provider: provider, detail: error.detail)
        }
    }
}
