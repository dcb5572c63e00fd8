import FixcastAdapters
import FixcastApp

/// The `--help` texts, written like the help of the command-line tools people know.
public enum HelpText {
    /// The option lines of `command`'s help: exactly the options it accepts (`CommandOptions`),
    /// after the lines its own help gives for its own options.
    static func options(for command: CommandName) -> String {
        let lines = command.acceptedOptions.compactMap(\.sharedHelp) + ["  -h, --help           Show help."]
        return lines.joined(separator: "\n")
    }

    /// The options every command takes, for the main help.
    static let everyCommandOptions =
        (OptionName.common.compactMap(\.sharedHelp) + ["  -h, --help           Show help."])
        .joined(separator: "\n")

    /// The COMMANDS block of the main help: each command's name and summary, in a column.
    static let commandList: String = {
        let width = CommandName.allCases.map(\.helpName.count).max() ?? 0
        return CommandName.allCases.map { command in
            "  " + command.helpName + String(repeating: " ", count: width - command.helpName.count + 2)
                + command.summary
        }.joined(separator: "\n")
    }()

    public static let main = """
        fixcast — local weather that follows your GPS.

        USAGE: fixcast <command> [options]

        COMMANDS:
        \(commandList)

        OPTIONS (every command but completions):
        \(everyCommandOptions)
          -V, --version        Show the version and data credits.

        See 'fixcast <command> --help' or 'fixcast help <command>' for more about a command.
        Exit status: 0 done, 1 could not do it (stderr says why), 2 usage or configuration error.
        """

    public static func forCommand(_ command: CommandName) -> String {
        switch command {
        case .run:
            return """
                USAGE: fixcast run [options]

                Follows gpsd until interrupted and takes a reading at the first fix, after moving more than
                5 km from where the weather was last fetched, every 30 minutes (after 1, 2, 5, then every
                10 minutes while the last reading got no fresh weather), after the machine resumes from
                suspend (at the first fix after it), and on SIGUSR1 or the r key. On a terminal it shows a live screen (r
                refreshes, q quits); otherwise, with --json or where TERM=dumb, it prints one JSON reading
                per line and, to spare the battery, reads gpsd's fixes every 10 s instead of one by one
                (each keeps the time it came; SIGUSR1 and the stop read what waits first; gpsd going away is
                seen at once, a lost fix within 10 s). A reader of those lines that stops reading holds back
                up to 4 MiB of them, not the agent. A receiver that stops sending while gpsd stays up has
                lost its fix 15 s after the last fix read (3 of its intervals if slower): within 15 s on the
                live screen, 25 s otherwise. stderr says once when gpsd, MQTT, the weather, the alerts, the
                weather ahead or the store stop working, when no fix comes (at start, or from a silent
                receiver), and once when each works again. Every reading and a thinned track are stored in
                the SQLite store. With --at or --place it stays at that position instead of following gpsd
                (readings at start, every 30 minutes, on resume and on demand). SIGTERM, SIGINT and SIGHUP
                stop it without losing anything, as does its stdout's reader going away (exit 0); a reading
                still being taken gets 3 s, else it is not printed and stderr says so; exit 1 when a reading
                could not be stored or printed.

                With ahead.enabled (the default) each reading also carries the weather ahead: a sample
                every 15 minutes of travel along the route (--route or ahead.route) or, without one, the
                course, asked in one request at most every ahead.refresh_min (15 minutes; sooner when
                leaving or rejoining the route, or on r / SIGUSR1). See fixcast ahead --help.

                OPTIONS:
                \(options(for: .run))
                """
        case .now:
            return """
                USAGE: fixcast now [options]

                Takes one reading: waits for a fix (8 s, 2 retries, then the last known position), names
                the place, fetches the weather (or serves it from the 10-minute cache), prints the reading
                and stores it. With mqtt.enabled the reading waits in the store's outbox: `fixcast run`
                publishes it (now itself does not connect to the broker).

                OPTIONS:
                \(options(for: .now))
                """
        case .forecast:
            return """
                USAGE: fixcast forecast [--days N] [options]

                Shows the daily forecast for the current position (or --at / --place).

                OPTIONS:
                  --days N             How many days to show (1-16, default 7). A forecast may have
                                       fewer (Open-Meteo's, as fixcast asks for it, has 7); then
                                       stderr says so.
                \(options(for: .forecast))
                """
        case .search:
            return """
                USAGE: fixcast search QUERY [--limit N] [options]

                Lists places whose name matches QUERY, best match first, with region, country,
                coordinates and population. With --offline the bundled GeoNames table is searched;
                its names are in Latin letters, and a name typed in Cyrillic is read in them.

                OPTIONS:
                  --limit N            At most N places (1-100, default 10).
                \(options(for: .search))
                """
        case .export:
            return """
                USAGE: fixcast export --format gpx|csv|geojson [--since T] [--until T] [-o FILE] [options]

                Writes the stored readings and track. GPX: the track as trk, readings as wpt with the
                weather in extensions. CSV: one reading a row. GeoJSON: Point features for readings and
                a LineString for the track (cut into parts where it crosses 180° of longitude,
                and where more than 5 minutes pass without a point, as GPX's segments).
                Times, order and --since/--until are as trips takes them: the receiver's fix times (a
                fix before it knew the date goes by the fixes received next to it; a position given by
                hand by the reading's own time). T is YYYY-MM-DD (a whole UTC day) or an ISO 8601 time
                (UTC unless it ends in an offset such as +01:00).

                OPTIONS:
                  --format FORMAT      gpx, csv or geojson.
                  --since T            Only what was recorded at or after T.
                  --until T            Only what was recorded at or before T.
                  -o, --output FILE    Write to FILE instead of standard output (- is standard
                                       output). A regular FILE is replaced only once the export is
                                       complete; a device or FIFO is written in place; a symlink's
                                       target is written. CSV text cells that would start a formula
                                       (= + - @, or a tab or CR first) get a leading '.
                \(options(for: .export))
                """
        case .status:
            return """
                USAGE: fixcast status [options]

                Shows whether gpsd answers and its last fix, the last reading and its age, the
                store's path and size, and (with mqtt.enabled) the MQTT link and the readings waiting
                in the outbox for the broker.

                OPTIONS:
                \(options(for: .status))
                """
        case .alerts:
            return """
                USAGE: fixcast alerts [--at LAT,LON | --place NAME] [--json] [options]

                Shows the official weather alerts active at the current position (or --at / --place),
                most severe first, each with its description and instruction. The US National Weather
                Service covers the United States and its territories, MET Norway covers Norway and
                Svalbard, Environment and Climate Change Canada covers Canada, and MeteoAlarm covers its
                European member countries (chosen offline from the position); elsewhere it says "not
                covered" and names the country. A source is asked at most once per alerts.check_min (10
                minutes) for a spot within 5 km, and a MeteoAlarm country feed once per check_min
                wherever in the country; its warnings are placed offline by their areas, and one whose
                area is unknown is listed for the whole country. With --json it prints the reading's
                alerts object.

                OPTIONS:
                \(options(for: .alerts))
                """
        case .ahead:
            return """
                USAGE: fixcast ahead [--route FILE.gpx] [--hours N] [--json] [options]

                Shows the forecast where you will be: a sample every ahead.step_min (15) minutes of travel,
                never closer than ahead.min_step_km (5 km), out to --hours (ahead.hours, 3), each at its
                arrival time, with its place (offline), temperature, rain, the wind against you and the
                conditions, under a headline such as "Rain in about 45 min, 63 km ahead, near Kyritz." It
                follows the route (--route or ahead.route: a GPX rte, else trk, from the nearest point
                ahead), else the course over ground of the last minutes; slower than 1 m/s for 2 minutes,
                the samples are here, at later times. The speed is learned from the stored track (the
                median moving speed of the last 20 minutes), else the receiver's. Every sample is asked of
                Open-Meteo in one request. Official alerts whose area a sample reaches while they are
                active are listed ahead ("Alert ahead: Wind warning (severe) in about 1 h, 85 km ahead,
                near Truckee."), from the region you are in and each region the samples cross (an NWS
                state, Norway, a MeteoAlarm country, an ECCC box), each asked at most once per
                alerts.check_min. With --at or --place there is no course: it needs a route and a track
                stored in the last 20 minutes to time it by (fixes received and timed within the last 20
                minutes of the clock, as a run on the same store records them; an older or replayed drive
                gives no speed). With --json it prints the reading's ahead object. The forecast is
                stored, as run's are; line's %r counts from the newest. The newest stored forecast answers
                instead of a new request when it was made within weather.cache_min (10 minutes; 1 with
                --force) from within 2 km, on the same basis, with every sample within 2 km of where it
                would be now; it is shown as of when it was made ("Ahead as of 15:57: ..."). --offline asks
                no forecast service: only such a stored forecast answers, marked stale once older than
                weather.cache_min. Exit 0 when a forecast was made or answered, 1 when not or when it
                could not be stored (stderr says why).

                OPTIONS:
                  --hours N            How far ahead (1-12, default ahead.hours).
                \(options(for: .ahead))
                """
        case .trips:
            return """
                USAGE: fixcast trips [--json] [options]

                Lists the trips in the store, oldest first: a gap of report.trip_gap_min minutes (default
                30) without track points starts a new trip, and so does a stop as long within 200 m (a
                receiver that keeps its fix while parked): the trip ends on arriving, the next begins on
                leaving, and a stay in one place is no trip. Each shows its number, start and end (UTC),
                distance along the stored track, duration, first and last place, the number of readings
                and the temperature range. A reading belongs to the trip its fix time falls in. The last
                column checks the trip's ahead forecasts against what its readings met (a reading within
                5 km and 30 min of a sample): pairs, median ETA error in % of the lead (arrival: when the
                track passed nearest the sample, within 1 km, else the reading's time), temperature
                error, rain hits, misses and false alarms (--json: ahead_checks).

                OPTIONS:
                \(options(for: .trips))
                """
        case .line:
            return """
                USAGE: fixcast line [--format TEMPLATE] [--waybar|--i3blocks] [--watch] [options]

                Prints one line from the last stored reading, for a status bar. It never asks the network
                or gpsd, and reads the store while run writes it. A reading older than twice
                trigger.periodic_min, or one whose weather was stored weather served because a fetch
                failed, is marked stale (~ before the text); with no reading or no fix it says
                "no fix". A place name's bar markup (tmux's #( #{ #[, polybar's %{) shows as ＃ or ％,
                so it is never run. Exit 0 when a line was printed, 1 when the store cannot be read.

                OPTIONS:
                  --format TEMPLATE    What to print (default "%l %c %t %w"): %c condition symbol,
                                       %C condition text, %t temperature, %f feels like, %h humidity,
                                       %w wind, %l place (at most 32 columns), %p precipitation,
                                       %P pressure, %S sunrise, %s sunset, %a age of the reading,
                                       %A alerts (count, most severe), %r rain ahead from the
                                       stored ahead forecast ("rain in 45 min"; empty when none is
                                       ahead), %% a percent sign.
                                       (In tmux's status-right, write each % as %%.)
                  --waybar             One JSON object a line for waybar's custom module (return-type
                                       json): text, tooltip, class (ok or stale, or no-fix;
                                       rain-ahead, alert-SEVERITY), alt.
                  --i3blocks           i3blocks' lines: full text, short text, colour (with
                                       --watch, for interval=persist: the full text alone).
                  --watch              Keep running and print a new line each time a reading (or a
                                       newer ahead forecast) is stored, and each time the line
                                       changes with time alone: the reading turns stale, an alert
                                       expires, the rain ahead passes, the age shown (%a, and
                                       waybar's tooltip) reaches its next minute, or a new day
                                       begins for %S and %s. It is woken by the
                                       store's files changing and at those moments only, by the
                                       wall clock (a laptop's sleep counts). It follows the store
                                       at its path, waits for its folder when there is none (yet,
                                       or any more), and ends when its reader has gone.
                \(options(for: .line))
                """
        case .mqtt:
            return """
                USAGE: fixcast mqtt test [options]

                Connects to the broker of the [mqtt] settings (host, port, tls, ca_file, username and
                FIXCAST_MQTT_PASSWORD), publishes one retained "online" to
                <topic_prefix>/<device_id>/availability, and says in one sentence what worked or what
                failed (name lookup, TCP connection, TLS handshake or login). Then it leaves the topic as
                it found it: a stopped run's "offline" is put back, a running one's "online" left, and
                the topic is cleared again where nothing was kept. Exit 0 when the broker acknowledged
                the message, 1 when not.

                OPTIONS:
                \(options(for: .mqtt))
                """
        case .completions:
            return """
                USAGE: fixcast completions bash|zsh|fish [options]

                Prints the completion script for the shell: commands, each command's options, the values
                of --format, --units, --lang and --trip (last and the stored trips' numbers) and file
                names after the options that take a path. The Debian package installs them; otherwise
                load one from the shell's start-up file, e.g. source <(fixcast completions bash) in
                ~/.bashrc, or fixcast completions fish > ~/.config/fish/completions/fixcast.fish.

                OPTIONS:
                \(options(for: .completions))
                """
        case .report:
            return """
                USAGE: fixcast report [--trip N|last] [--since T] [--until T] [-o FILE.svg|FILE.html] [options]

                Draws a trip as one self-contained picture: the track on a map coloured by temperature
                (interpolated between readings), each reading with its place and temperature, a scale bar,
                and below it temperature and precipitation against distance. An .html file holds the same
                picture and a table of the readings. No network, scripts or external fonts. The default is
                the last trip, written to trip-<start>.svg in the current folder (its first point's
                time, UTC, to the minute: trip-2026-01-30T0812Z.svg). T is YYYY-MM-DD (a whole UTC day) or
                an ISO 8601 time (UTC unless it ends in an offset such as +01:00).

                OPTIONS:
                  --trip N|last        The trip to draw, numbered as fixcast trips lists them (default last: the last that moved).
                  --since T            Only what was recorded at or after T (without --trip: the range itself).
                  --until T            Only what was recorded at or before T.
                  -o, --output FILE    Write to FILE (.svg or .html); - writes the SVG to standard output.
                \(options(for: .report))
                """
        }
    }
}

extension CommandName {
    /// The command as a person types it (`mqtt test`).
    var helpName: String {
        switch self {
        case .mqtt: return "mqtt test"
        case .completions: return "completions"
        default: return rawValue
        }
    }

    /// One line on what the command does, for the main help, the man page and the completions.
    var summary: String {
        switch self {
        case .run: return "Follow gpsd and keep the local weather current, shown and logged."
        case .now: return "Take one reading (position, place, weather), print it, store it."
        case .forecast: return "Show the multi-day forecast for here."
        case .search: return "Find places by name."
        case .export: return "Write the stored track and readings as GPX, CSV or GeoJSON."
        case .status: return "Show gpsd, the last reading, the store and the MQTT link."
        case .alerts: return "Show the official weather alerts active here, or that none cover it."
        case .ahead: return "Show the forecast where you will be, along the route or the course."
        case .trips: return "List the trips in the store: times, distance, places, readings."
        case .report: return "Draw a trip as a picture (SVG or HTML): track by temperature, readings, profile."
        case .mqtt: return "Connect to the configured MQTT broker and say what worked."
        case .line: return "Print one status-bar line from the last stored reading (waybar, i3blocks, tmux)."
        case .completions: return "Print the shell completion script for bash, zsh or fish."
        }
    }
}
