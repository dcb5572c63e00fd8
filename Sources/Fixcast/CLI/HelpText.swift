/// The `--help` texts, written like the help of the command-line tools people know.
public enum HelpText {
    static let commonOptions = """
      --config PATH        Read settings from PATH (default: $FIXCAST_CONFIG, then
                           ~/.config/fixcast/config.toml, then /etc/fixcast/config.toml).
      --gpsd HOST[:PORT]   The gpsd to follow (default 127.0.0.1:2947).
      --at LAT,LON         Use this position instead of gpsd (e.g. --at 52.52,13.405).
      --place NAME         Use the best match for NAME as the position.
      --db PATH            The SQLite store (default ~/.local/share/fixcast/fixcast.sqlite).
      --units metric|imperial
                           Units of the human display (JSON is always metric).
      --lang en|ru|zh      Language of weather descriptions.
      --json               Print JSON instead of text.
      --offline            No network: offline place names and stored weather only.
      --force              Fetch weather past the 10-minute cache (never more than once a minute).
      -h, --help           Show help.
    """

    public static let main = """
    fixcast — local weather that follows your GPS.

    USAGE: fixcast <command> [options]

    COMMANDS:
      run        Follow gpsd and keep the local weather current, shown and logged.
      now        Take one reading (position, place, weather), print it, store it.
      forecast   Show the multi-day forecast for here.
      search     Find places by name.
      export     Write the stored track and readings as GPX, CSV or GeoJSON.
      status     Show gpsd, the last reading, the store and the MQTT link.
      mqtt test  Connect to the configured MQTT broker and say what worked.

    OPTIONS:
    \(commonOptions)
      -V, --version        Show the version and data credits.

    See 'fixcast <command> --help' for more about a command.
    Exit status: 0 done, 1 could not do it (stderr says why), 2 usage or configuration error.
    """

    public static func forCommand(_ command: CommandName) -> String {
        switch command {
        case .run:
            return """
            USAGE: fixcast run [options]

            Follows gpsd until interrupted and takes a reading at the first fix, after moving more
            than 5 km from where the weather was last fetched, every 30 minutes, after the machine
            resumes from suspend, and on SIGUSR1 or the r key. On a terminal it shows a live screen
            (r refreshes, q quits); otherwise, or with --json, it prints one JSON reading per line.
            Every reading and a thinned track are stored in the SQLite store. With --at or --place it
            stays at that position instead of following gpsd (readings at start, every 30 minutes, on
            resume and on demand).

            OPTIONS:
            \(commonOptions)
            """
        case .now:
            return """
            USAGE: fixcast now [options]

            Takes one reading: waits for a fix (8 s, 2 retries, then the last known position), names
            the place, fetches the weather (or serves it from the 10-minute cache), prints the reading
            and stores it.

            OPTIONS:
            \(commonOptions)
            """
        case .forecast:
            return """
            USAGE: fixcast forecast [--days N] [options]

            Shows the daily forecast for the current position (or --at / --place).

            OPTIONS:
              --days N             How many days to show (1-16, default 7).
            \(commonOptions)
            """
        case .search:
            return """
            USAGE: fixcast search QUERY [--limit N] [options]

            Lists places whose name matches QUERY, best match first, with region, country,
            coordinates and population. With --offline the bundled GeoNames table is searched.

            OPTIONS:
              --limit N            At most N places (1-100, default 10).
            \(commonOptions)
            """
        case .export:
            return """
            USAGE: fixcast export --format gpx|csv|geojson [--since T] [--until T] [-o FILE] [options]

            Writes the stored readings and track. GPX: the track as trk, readings as wpt with the
            weather in extensions. CSV: one reading a row. GeoJSON: Point features for readings and
            a LineString for the track. T is YYYY-MM-DD or an ISO 8601 time.

            OPTIONS:
              --format FORMAT      gpx, csv or geojson.
              --since T            Only what was recorded at or after T.
              --until T            Only what was recorded at or before T.
              -o, --output FILE    Write to FILE instead of standard output.
            \(commonOptions)
            """
        case .status:
            return """
            USAGE: fixcast status [options]

            Shows whether gpsd answers and its last fix, the last reading and its age, the
            store's path and size, and (with mqtt.enabled) the MQTT link and the readings waiting
            in the outbox for the broker.

            OPTIONS:
            \(commonOptions)
            """
        case .mqtt:
            return """
            USAGE: fixcast mqtt test [options]

            Connects to the broker of the [mqtt] settings (host, port, tls, ca_file, username and
            FIXCAST_MQTT_PASSWORD), publishes one retained "online" to
            <topic_prefix>/<device_id>/availability, and says in one sentence what worked or what
            failed (name lookup, TCP connection, TLS handshake or login). Exit 0 when the broker
            acknowledged the message, 1 when not.

            OPTIONS:
            \(commonOptions)
            """
        }
    }
}
