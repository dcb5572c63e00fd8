import FixcastCore
import FixcastText
import FoundationEssentials

// The small stores the services use (StoreProtocols.swift), all in the one file.

extension SQLiteStore: LastKnownPositionStore {
    /// The last saved fix, marked `last-known` (it is only ever read back as a fallback); its
    /// `obtainedAt` is when the fix was received, so its age is honest.
    public func lastKnownPosition() throws(StorageError) -> Position? {
        let stmt = try db.prepare(
            "SELECT lat, lon, alt_m, speed_mps, track_deg, mode, fix_time, obtained_at, eph_m, satellites_used FROM last_known_position WHERE id = 1"
        )
        guard try stmt.step() else { return nil }
        guard let lat = stmt.double(0), let lon = stmt.double(1), let coordinate = Coordinate(lat: lat, lon: lon),
            let obtained = stmt.date(7)
        else { throw StorageError.corrupt(path: path, detail: "the stored last known position is out of range") }
        return Position(
            coordinate: coordinate, altitudeM: stmt.double(2), speedMps: stmt.double(3), trackDeg: stmt.double(4),
            mode: stmt.text(5).flatMap(FixMode.init(rawValue:)), fixTime: stmt.date(6), obtainedAt: obtained,
            source: .lastKnown, horizontalErrorM: stmt.double(8), satellitesUsed: stmt.int(9))
    }

    public func saveLastKnownPosition(_ position: Position) throws(StorageError) {
        let stmt = try db.kept(
            """
            INSERT OR REPLACE INTO last_known_position
            (id, lat, lon, alt_m, speed_mps, track_deg, mode, fix_time, obtained_at, source, eph_m, satellites_used)
            VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """)
        try stmt.bindAll([
            .double(position.coordinate.lat), .double(position.coordinate.lon), .of(position.altitudeM),
            .of(position.speedMps), .of(position.trackDeg), .of(position.mode?.rawValue), .of(position.fixTime),
            .of(position.obtainedAt), .text(position.source.rawValue), .of(position.horizontalErrorM),
            .of(position.satellitesUsed),
        ])
        _ = try stmt.step()
    }
}

extension SQLiteStore: WeatherCacheStore {
    /// Cached reports kept per file; older ones are dropped on save (a few weeks of 10-minute
    /// fetches, enough for `--offline` to find something without the cache growing forever).
    static let weatherCacheLimit = 2_000

    /// The report from `provider` within `withinKm` of `coordinate` saved last (by its row, not its
    /// `fetched_at`: see `lastReading`), exactly as saved (its `cached`/`stale` flags are the caller's to set).
    public func latestWeather(provider: WeatherProviderID, near coordinate: Coordinate, withinKm: Double)
        throws(StorageError) -> WeatherReport?
    {
        let box = NearbyBox(center: coordinate, km: withinKm)
        let (condition, values) = box.sql(firstParameter: 2)
        let stmt = try db.prepare(
            "SELECT lat, lon, json FROM weather_cache WHERE provider = ?1 AND \(condition) ORDER BY id DESC"
        )
        try stmt.bindAll([.text(provider.rawValue)] + values)
        while try stmt.step() {
            guard let lat = stmt.double(0), let lon = stmt.double(1), let here = Coordinate(lat: lat, lon: lon),
                GreatCircle.distanceKm(here, coordinate) <= withinKm
            else { continue }
            guard let text = stmt.text(2), let json = try? JSONValue.parse(text), let report = WeatherReport(json: json)
            else { throw StorageError.corrupt(path: path, detail: "a cached weather report is not readable JSON") }
            return report
        }
        return nil
    }

    public func saveWeather(_ report: WeatherReport) throws(StorageError) {
        try db.transaction { () throws(StorageError) in
            let stmt = try db.prepare(
                "INSERT INTO weather_cache (provider, fetched_at, lat, lon, json) VALUES (?1, ?2, ?3, ?4, ?5)")
            try stmt.bindAll([
                .text(report.provider.rawValue), .of(report.fetchedAt), .double(report.coordinate.lat),
                .double(report.coordinate.lon),
                .text(report.storedJSON(language: ReadingRow.storedLanguage).serialized()),
            ])
            _ = try stmt.step()
            try db.execute(
                "DELETE FROM weather_cache WHERE id <= (SELECT max(id) FROM weather_cache) - \(Self.weatherCacheLimit)")
        }
    }
}

extension SQLiteStore: PlaceCacheStore {
    /// Named places kept; a place name is good for years, so the limit is about file size only.
    static let placeCacheLimit = 20_000

    /// The nearest cached place from `source` within `withinKm`.
    public func cachedPlace(near coordinate: Coordinate, withinKm: Double, source: PlaceSource, language: String?)
        throws(StorageError) -> Place?
    {
        let box = NearbyBox(center: coordinate, km: withinKm)
        let (condition, values) = box.sql(firstParameter: language == nil ? 2 : 3)
        let inLanguage = language == nil ? "" : " AND language = ?2"
        let stmt = try db.prepare(
            "SELECT lat, lon, name, region, country, country_code FROM place_cache WHERE source = ?1\(inLanguage) AND \(condition)"
        )
        try stmt.bindAll([.text(source.rawValue)] + (language.map { [.text($0)] } ?? []) + values)
        var best: (km: Double, place: Place)?
        while try stmt.step() {
            guard let lat = stmt.double(0), let lon = stmt.double(1), let here = Coordinate(lat: lat, lon: lon),
                let name = stmt.text(2)
            else { continue }
            let km = GreatCircle.distanceKm(here, coordinate)
            guard km <= withinKm, km < (best?.km ?? .infinity) else { continue }
            best = (
                km,
                Place(
                    name: name, region: stmt.text(3), country: stmt.text(4), countryCode: stmt.text(5), source: source)
            )
        }
        return best?.place
    }

    /// What a "no place here" answer is kept under in `place_cache` (with an empty name): not a
    /// `PlaceSource`, so no name lookup ever finds it.
    static let noPlaceSource = "nominatim-none"

    public func knowsNoPlace(near coordinate: Coordinate, withinKm: Double, language: String?, since: Date)
        throws(StorageError) -> Bool
    {
        let box = NearbyBox(center: coordinate, km: withinKm)
        let (condition, values) = box.sql(firstParameter: 4)
        let stmt = try db.prepare(
            "SELECT lat, lon FROM place_cache WHERE source = ?1 AND language IS ?2 AND saved_at >= ?3 AND \(condition)")
        try stmt.bindAll([.text(Self.noPlaceSource), .of(language), .of(since)] + values)
        while try stmt.step() {
            guard let lat = stmt.double(0), let lon = stmt.double(1), let here = Coordinate(lat: lat, lon: lon) else {
                continue
            }
            if GreatCircle.distanceKm(here, coordinate) <= withinKm { return true }
        }
        return false
    }

    public func saveNoPlace(at coordinate: Coordinate, language: String?) throws(StorageError) {
        try db.transaction { () throws(StorageError) in
            let stmt = try db.prepare(
                "INSERT INTO place_cache (lat, lon, name, source, saved_at, language) VALUES (?1, ?2, '', ?3, ?4, ?5)")
            try stmt.bindAll([
                .double(coordinate.lat), .double(coordinate.lon), .text(Self.noPlaceSource), .of(clock.now()),
                .of(language),
            ])
            _ = try stmt.step()
        }
    }

    public func savePlace(_ place: Place, at coordinate: Coordinate, language: String?) throws(StorageError) {
        try db.transaction { () throws(StorageError) in
            let stmt = try db.prepare(
                "INSERT INTO place_cache (lat, lon, name, region, country, country_code, source, saved_at, language) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
            )
            try stmt.bindAll([
                .double(coordinate.lat), .double(coordinate.lon), .text(place.name), .of(place.region),
                .of(place.country),
                .of(place.countryCode), .text(place.source.rawValue), .of(clock.now()), .of(language),
            ])
            _ = try stmt.step()
            try db.execute(
                "DELETE FROM place_cache WHERE id <= (SELECT max(id) FROM place_cache) - \(Self.placeCacheLimit)")
        }
    }
}

extension SQLiteStore: StateStore {
    public func state(_ key: String) throws(StorageError) -> String? {
        let stmt = try db.prepare("SELECT value FROM state WHERE key = ?1")
        try stmt.bind(1, key)
        guard try stmt.step() else { return nil }
        return stmt.text(0)
    }

    /// Sets `key`, or removes it when `value` is nil.
    public func setState(_ key: String, _ value: String?) throws(StorageError) {
        let stmt: SQLiteStatement
        if let value {
            stmt = try db.prepare("INSERT OR REPLACE INTO state (key, value) VALUES (?1, ?2)")
            try stmt.bindAll([.text(key), .text(value)])
        } else {
            stmt = try db.prepare("DELETE FROM state WHERE key = ?1")
            try stmt.bind(1, key)
        }
        _ = try stmt.step()
    }

    public func stateHeads(prefix: String, length: Int) throws(StorageError) -> [String: String] {
        // Every text that begins with `prefix` sorts at or after it (SQLite compares text bytewise):
        // the primary key is searched from there.
        let stmt = try db.prepare(
            "SELECT key, substr(value, 1, ?2) FROM state WHERE key >= ?1 AND substr(key, 1, length(?1)) = ?1")
        try stmt.bind(1, prefix)
        try stmt.bind(2, max(0, length))
        var out: [String: String] = [:]
        while try stmt.step() {
            if let key = stmt.text(0), let value = stmt.text(1) { out[key] = value }
        }
        return out
    }
}
