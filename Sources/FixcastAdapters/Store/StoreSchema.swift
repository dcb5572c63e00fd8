/// The store's schema as ordered migrations; `PRAGMA user_version` is the number applied.
///
/// A migration is only ever appended, never edited: a file written by an older fixcast upgrades
/// step by step, and a file from a newer fixcast (a higher version) is refused rather than guessed at.
enum StoreSchema {
    static let migrations: [String] = [
        // 1: readings, the thinned track, and the caches.
        """
        CREATE TABLE readings (
            id INTEGER PRIMARY KEY,
            time REAL NOT NULL,               -- unix seconds, UTC
            trigger TEXT NOT NULL,
            lat REAL, lon REAL, alt_m REAL, speed_mps REAL, track_deg REAL,
            mode TEXT, fix_time REAL, position_source TEXT,
            place_name TEXT, place_region TEXT, place_country TEXT, place_country_code TEXT, place_source TEXT,
            weather_provider TEXT, fetched_at REAL, cached INTEGER, stale INTEGER,
            temperature_c REAL, feels_like_c REAL, humidity_pct REAL, dew_point_c REAL, pressure_hpa REAL,
            wind_speed_mps REAL, wind_gust_mps REAL, wind_dir_deg REAL, precipitation_mm REAL,
            cloud_cover_pct REAL, weather_code INTEGER,
            errors TEXT,                      -- "component: message" lines
            json TEXT NOT NULL                -- Reading.json(language: .en), read back as is
        );
        CREATE INDEX readings_time ON readings(time);

        CREATE TABLE track_points (
            id INTEGER PRIMARY KEY,
            time REAL NOT NULL,               -- when fixcast received the fix (unix seconds)
            lat REAL NOT NULL, lon REAL NOT NULL, alt_m REAL, speed_mps REAL, track_deg REAL,
            mode TEXT NOT NULL,
            fix_time REAL                     -- the receiver's own time, when it gave one
        );
        CREATE INDEX track_points_time ON track_points(time);

        CREATE TABLE last_known_position (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            lat REAL NOT NULL, lon REAL NOT NULL, alt_m REAL, speed_mps REAL, track_deg REAL,
            mode TEXT, fix_time REAL, obtained_at REAL NOT NULL, source TEXT NOT NULL,
            eph_m REAL, satellites_used INTEGER
        );

        CREATE TABLE weather_cache (
            id INTEGER PRIMARY KEY,
            provider TEXT NOT NULL,
            fetched_at REAL NOT NULL,
            lat REAL NOT NULL, lon REAL NOT NULL,
            json TEXT NOT NULL                -- WeatherReport.json(language: .en)
        );
        CREATE INDEX weather_cache_lookup ON weather_cache(provider, lat, lon);
        CREATE INDEX weather_cache_fetched ON weather_cache(fetched_at);

        CREATE TABLE place_cache (
            id INTEGER PRIMARY KEY,
            lat REAL NOT NULL, lon REAL NOT NULL,
            name TEXT NOT NULL, region TEXT, country TEXT, country_code TEXT,
            source TEXT NOT NULL,
            saved_at REAL NOT NULL
        );
        CREATE INDEX place_cache_lookup ON place_cache(source, lat, lon);

        CREATE TABLE state (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
        // alerts: each reading's alert count and highest severity, for queries and exports (the
        // alerts themselves are in the reading's json).
        """
        ALTER TABLE readings ADD COLUMN alerts_count INTEGER;
        ALTER TABLE readings ADD COLUMN alerts_max_severity TEXT;
        """,
        // reports: trips and reports find track points and readings by fix time, the receive time
        // where the receiver gave none (CONTRACT.md "Trips and reports"); `trips` streams this index
        // once to find the gaps instead of loading a year of points.
        """
        CREATE INDEX track_points_trip_time ON track_points(coalesce(fix_time, time));
        CREATE INDEX readings_trip_time ON readings(coalesce(fix_time, time));
        """,
        // mqtt: readings waiting for the broker's acknowledgement (PUBACK), oldest first. A row is
        // added in the transaction that stores the reading and removed when the broker has it.
        """
        CREATE TABLE outbox (
            -- AUTOINCREMENT: ids never come back after the newest rows were sent and deleted, so the
            -- publisher's "after the last id I sent" never skips a reading queued later.
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            reading_id INTEGER NOT NULL       -- readings.id; the payload is that row's json
        );
        """,
        // ahead: every ahead forecast (CONTRACT.md "Weather ahead"), one row, with its samples and
        // alerts ahead one row each (so a check finds samples by ETA without parsing JSON). A reading
        // names the forecast it carried (`ahead_id`) and whether it was the last one kept after a failed
        // refresh (`ahead_stale`); readings that carry the same forecast share its row.
        """
        CREATE TABLE ahead_forecasts (
            id INTEGER PRIMARY KEY,
            made_at REAL NOT NULL,            -- unix seconds, UTC
            basis TEXT NOT NULL, off_route INTEGER NOT NULL,
            from_lat REAL NOT NULL, from_lon REAL NOT NULL, from_fix_time REAL,
            speed_mps REAL, speed_source TEXT,
            route_name TEXT, route_remaining_km REAL,
            rain_in_min INTEGER, rain_at_km REAL, rain_place TEXT, rain_mm_h REAL,
            min_temperature_c REAL, max_gust_mps REAL, max_precipitation_mm_h REAL
        );
        CREATE INDEX ahead_forecasts_made_at ON ahead_forecasts(made_at);

        CREATE TABLE ahead_samples (
            forecast_id INTEGER NOT NULL,     -- ahead_forecasts.id
            seq INTEGER NOT NULL,             -- the sample's place in the forecast, from 0
            minutes INTEGER NOT NULL, eta REAL NOT NULL, distance_km REAL NOT NULL,
            lat REAL NOT NULL, lon REAL NOT NULL, place TEXT,
            temperature_c REAL, precipitation_mm_h REAL, precipitation_probability_pct REAL, weather_code INTEGER,
            wind_speed_mps REAL, wind_gust_mps REAL, wind_dir_deg REAL, headwind_mps REAL, crosswind_mps REAL,
            PRIMARY KEY (forecast_id, seq)
        ) WITHOUT ROWID;

        CREATE TABLE ahead_alerts (
            forecast_id INTEGER NOT NULL, seq INTEGER NOT NULL,
            alert_id TEXT NOT NULL, event TEXT NOT NULL, severity TEXT NOT NULL,
            in_min INTEGER NOT NULL, at_km REAL NOT NULL, place TEXT,
            PRIMARY KEY (forecast_id, seq)
        ) WITHOUT ROWID;

        ALTER TABLE readings ADD COLUMN ahead_id INTEGER;
        ALTER TABLE readings ADD COLUMN ahead_stale INTEGER;
        """,
        // The language a cached place name was asked in (`places.language`): after a change of it, the
        // names of the old language are not served as the new one's. NULL: not asked in one (the
        // bundled table), or saved before this column (never served for a language).
        """
        ALTER TABLE place_cache ADD COLUMN language TEXT;
        """,
    ]

    static var currentVersion: Int { migrations.count }
}
