import FixcastCore
import FoundationEssentials
import Synchronization

/// MET Norway Locationforecast 2.0 `compact`, under MET's terms of service: coordinates rounded to
/// 4 decimals, a User-Agent naming the client (the HTTP client sends it), no request before the
/// previous answer's `Expires` (while it stands: `ServerExpiry`), and `If-Modified-Since` with the
/// stored `Last-Modified` (a 304 reads the body it still holds again at the new time, or serves the
/// stored report with its own age). With a store, the validators are kept in its state and the report
/// in its weather cache, so that separate `fixcast now` runs obey `Expires` too.
/// - SeeAlso: https://api.met.no/doc/TermsOfService, https://api.met.no/doc/locationforecast/HowTO
public final class MetNorwayWeather: WeatherFetching {
    public static let publicBaseURL = "https://api.met.no"
    public static let path = "/weatherapi/locationforecast/2.0/compact"
    public let provider = WeatherProviderID.metNorway
    public let baseURL: String
    private let http: any HTTPFetching

    /// What MET said about one rounded position: the report, until when it is current, and the
    /// validator to revalidate it with.
    struct Entry: Sendable {
        var report: WeatherReport
        var expires: Date?
        /// When the answer that set `expires` came (`ServerExpiry` measures from it).
        var receivedAt: Date?
        var lastModified: String?
        /// The body MET sent, in this process only: a 304 says it is still MET's newest, and it is
        /// decoded again at the new time (the current step, today and the days move on with the
        /// clock). An entry rebuilt from the store has none.
        var body: [UInt8]? = nil
    }
    /// The entries of the last positions asked, in this process. Each holds MET's whole answer (about
    /// 100 KB), which only a request at the same rounded position can use again: a moving `run` asks at
    /// a new one each time, so they are few (a standing machine needs one; a drive, the last few).
    private let entries = Mutex<[String: Entry]>([:])
    static let entriesInMemory = 8
    /// The validators kept in the store: a day's worth (MET's data changes every hour, so an older
    /// `Last-Modified` would only get the whole answer again), at most 200 positions (a day's drive of
    /// 1,000 km, a reading every 5 km).
    static let storedValidators = StateFamilyLimit(prefix: stateKey(""), maxAgeS: 86_400, limit: 200)
    private let store: (any WeatherCacheStore & StateStore)?

    public init(baseURL: String = "", http: any HTTPFetching, store: (any WeatherCacheStore & StateStore)? = nil) {
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: Self.publicBaseURL)
        self.http = http
        self.store = store
    }

    static func stateKey(_ key: String) -> String { "weather.metno.validators?" + key }

    /// `expiresEpochSeconds receivedEpochSeconds|Last-Modified`: the expiry empty when the answer set
    /// none, the times empty when the entry has no received time, the validator empty when MET sent none.
    /// (Before the received time was kept, the first part was the expiry alone: it reads as no times.)
    static func stateText(_ entry: Entry) -> String {
        func epoch(_ date: Date?) -> String? {
            date.flatMap { Int(checked: $0.timeIntervalSince1970).map(String.init) }
        }
        let times = epoch(entry.receivedAt).map { (epoch(entry.expires) ?? "") + " " + $0 } ?? ""
        return times + "|" + (entry.lastModified ?? "")
    }

    /// The `expires` (nil when the answer set none) and received times of a stored text (`stateText`);
    /// nil when it holds no received time.
    static func storedTimes(_ text: String) -> (expires: Date?, receivedAt: Date)? {
        let parts = text.prefix { $0 != "|" }.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let received = Int(parts[1]) else { return nil }
        return (
            Int(parts[0]).map { Date(timeIntervalSince1970: Double($0)) }, Date(timeIntervalSince1970: Double(received))
        )
    }

    /// The entry for `key`: from memory, else rebuilt from the store (validators + the stored report).
    private func entry(_ key: String, near coordinate: Coordinate) async -> Entry? {
        if let entry = entries.withLock({ $0[key] }) { return entry }
        guard let store, let text = try? await store.state(Self.stateKey(key)) else { return nil }
        let parts = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2,
            let report = try? await store.latestWeather(provider: .metNorway, near: coordinate, withinKm: 0.05)
        else { return nil }
        let times = Self.storedTimes(text)
        return Entry(
            report: report, expires: times?.expires, receivedAt: times?.receivedAt,
            lastModified: parts[1].isEmpty ? nil : String(parts[1]))
    }

    /// Keeps `entry` in memory (the oldest answer goes past `entriesInMemory`) and its validators in the
    /// store; a position new to this process trims the stored ones (`storedValidators`).
    private func remember(_ entry: Entry, key: String, now: Date) async {
        let isNew = entries.withLock { entries in
            let isNew = entries[key] == nil
            entries[key] = entry
            // An entry received at no known time (rebuilt from an old store text) ranks oldest.
            let times = entries.map { (key: $0.key, time: $0.value.receivedAt ?? .distantPast) }
            for old in StateFamilyLimit.beyondNewest(times, limit: Self.entriesInMemory) { entries[old] = nil }
            return isNew
        }
        guard let store else { return }
        try? await store.setState(Self.stateKey(key), Self.stateText(entry))
        if isNew { await store.trim(Self.storedValidators, now: now) { Self.storedTimes($0)?.receivedAt } }
    }

    /// How many answers this process holds (for the tests of the bound).
    var entriesHeld: Int { entries.withLock { $0.count } }

    static func key(_ coordinate: Coordinate) -> String {
        "lat=\(QueryEncoding.decimal(coordinate.lat, places: 4))&lon=\(QueryEncoding.decimal(coordinate.lon, places: 4))"
    }

    public func url(for coordinate: Coordinate) -> String { baseURL + Self.path + "?" + Self.key(coordinate) }

    public func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherReport {
        let key = Self.key(coordinate)
        let stored = await entry(key, near: coordinate)
        if let stored, let receivedAt = stored.receivedAt,
            ServerExpiry.stands(stored.expires, receivedAt: receivedAt, now: now)
        {
            // MET's data for this point has not expired: asking again is against its terms.
            var report = stored.report
            report.cached = true
            return report
        }
        var headers = ["Accept": "application/json"]
        if let lastModified = stored?.lastModified { headers["If-Modified-Since"] = lastModified }
        let response = try await WeatherHTTP.get(
            HTTPRequest(url: url(for: coordinate), headers: headers), http: http, provider: provider)
        let expires = ServerExpiry.onLocalClock(
            expires: response.header("expires").flatMap(HTTPDate.parse),
            serverDate: response.header("date").flatMap(HTTPDate.parse), receivedAt: now)
        if response.status == 304 {
            guard var entry = stored else {
                throw .invalidResponse(
                    provider: provider, detail: "304 Not Modified for a forecast fixcast does not hold")
            }
            if let body = entry.body,
                let again = try? MetNorwayDecoder.decode(body, coordinate: coordinate, fetchedAt: now)
            {
                // The same forecast, read at this hour: a new observation of it, stored as one.
                entry.report = again
            } else {
                // Only the stored report (another process fetched it): its values are those of the
                // hour it was read at, so it keeps that age rather than passing for one read now.
                entry.report.cached = true
            }
            entry.report.stale = false
            if let expires {
                entry.expires = expires
                entry.receivedAt = now
            }
            if let lastModified = response.header("last-modified") { entry.lastModified = lastModified }
            await remember(entry, key: key, now: now)
            return entry.report
        }
        try WeatherHTTP.requireSuccess(response, provider: provider)
        let report = try WeatherHTTP.decoded(response, provider: provider) { () throws(WeatherDecodeError) in
            try MetNorwayDecoder.decode(response.body, coordinate: coordinate, fetchedAt: now)
        }
        await remember(
            Entry(
                report: report, expires: expires, receivedAt: now, lastModified: response.header("last-modified"),
                body: response.body),
            key: key, now: now)
        return report
    }
}
