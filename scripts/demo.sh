#!/usr/bin/env bash
# The README's first command: replay a real 137 km drive (Reno -> Lake Tahoe, a Garmin receiver's own
# NMEA) through a real gpsd, serve recorded weather responses from a loopback server (labelled as
# demo data on screen), and run `fixcast run` on the live screen. q or Ctrl-C ends it and stops
# everything it started. Needs no network once the Debian packages are installed.
#
#   scripts/demo.sh            live screen on a terminal; JSON lines otherwise
#   DEMO_SPEED=0.01 scripts/demo.sh   seconds between NMEA sentences (default 0.004; gpsfake adds a few ms of its own: ~3 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

scripts/install-deps.sh
echo "fixcast demo: building (release, as the package ships it)..." >&2
# The package's build (scripts/build-release.sh: static stdlib, a fix's functions laid out together), so
# the demo runs what is installed. A failed build stops here, even with an older binary left behind.
build_log=$(mktemp /tmp/fixcast-demo-build.XXXXXX)
if ! bin=$(scripts/build-release.sh 2>"$build_log"); then
  grep -E "error" "$build_log" >&2 || true
  rm -f "$build_log"
  echo "fixcast demo: the build failed; run 'scripts/build-release.sh' to see why." >&2
  exit 1
fi
grep -E "warning: unre|Compiling fixcast|Build" "$build_log" >&2 || true
rm -f "$build_log"
[ -x "$bin" ] || { echo "fixcast demo: the build left no binary; run 'scripts/build-release.sh' to see why." >&2; exit 1; }

work=$(mktemp -d /tmp/fixcast-demo.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 0.3
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  # gpsfake starts its own gpsd; make sure none of ours survives.
  [ -f "$work/gpsd.pid" ] && kill -9 "$(cat "$work/gpsd.pid")" 2>/dev/null || true
  pkill -f "gpsd.*-S $gps_port" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
gps_port=$(free_port)

# 1. The recorded API responses, on loopback. One recorded response has one "current" block, so a
# whole drive would see one temperature; the server instead answers the n-th request with that same
# response whose "current" temperature and weather code are the response's own n-th hourly values
# (rain codes keep the recorded 0.3 mm, others 0 mm; "feels like" becomes unknown, as the hourly
# series has none), so the trip report has a day's weather to draw.
/usr/bin/python3 - "$root/demo/open-meteo-forecast.json" "$work" <<'PY' > "$work/server-routes.json"
import copy, json, sys
src, work = sys.argv[1], sys.argv[2]
recorded = json.load(open(src))
hourly = recorded["hourly"]
routes = []
for n in range(len(hourly["time"])):
    d = copy.deepcopy(recorded)
    code = hourly["weather_code"][n]
    d["current"]["temperature_2m"] = hourly["temperature_2m"][n]
    d["current"]["weather_code"] = code
    d["current"]["precipitation"] = recorded["current"]["precipitation"] if code >= 51 else 0.0
    del d["current"]["apparent_temperature"]  # no hourly value for it: unknown, not borrowed
    path = f"{work}/forecast-{n:03d}.json"
    json.dump(d, open(path, "w"))
    routes.append({"status": 200, "file": path})
print(json.dumps(routes))
PY
cat > "$work/server.json" <<JSON
{"port": 0, "port_file": "$work/http.port", "log": "$work/requests.jsonl",
 "routes": {"/v1/forecast": $(cat "$work/server-routes.json"),
            "/ahead/v1/forecast": [{"status": 200, "multi_location": true, "rebase_hours": true,
                                    "file": "$PWD/Tests/FixcastTests/Fixtures/api/open-meteo-ahead-multi-location.json"}],
            "/alerts/active": [{"status": 200, "file": "$PWD/demo/nws-alerts-none.json",
                                "headers": {"Content-Type": "application/geo+json"}}]}}
JSON
/usr/bin/python3 Tests/Support/fixture_server.py "$work/server.json" &
pids+=($!)
disown $!
for _ in $(seq 100); do [ -s "$work/http.port" ] && break; sleep 0.05; done
http_port=$(cat "$work/http.port")

# 2. A real gpsd fed by gpsfake with the drive (-1: once; -W: give up 5 s after the end).
speed=${DEMO_SPEED:-0.004}
/usr/bin/gpsfake -1 -q -c "$speed" -W 5 -P "$gps_port" -S demo/reno_tahoe_demo.nmea >"$work/gpsfake.log" 2>&1 &
pids+=($!)
disown $!
sleep 1

export FIXCAST_WEATHER_BASE_URL="http://127.0.0.1:$http_port"
# Official alerts (the drive is in the US: NWS) from the same loopback server: the recorded "none active"
# answer, so the demo reaches nothing beyond 127.0.0.1.
export FIXCAST_ALERTS_NWS_BASE_URL="http://127.0.0.1:$http_port"
export FIXCAST_PLACES_PROVIDER=offline
# Weather ahead along the drive's own route (demo/reno_tahoe_route.gpx, made from the NMEA by
# scripts/make-demo-route.py): the same server answers Open-Meteo's multi-location form from a recorded
# answer, its hours relabelled to now (see that fixture's source note).
export FIXCAST_AHEAD_ENABLED=true
export FIXCAST_AHEAD_BASE_URL="http://127.0.0.1:$http_port/ahead"
export FIXCAST_AHEAD_ROUTE="$PWD/demo/reno_tahoe_route.gpx"
# The drive replays about 30 times as fast as it was driven (DEMO_SPEED), so ahead's 15 min between
# refreshes would outlast the whole demo and the block would show the first forecast throughout: here it
# is asked again at a reading at most once a minute (one loopback request for all its samples).
export FIXCAST_AHEAD_REFRESH_MIN=1
export FIXCAST_DEMO_LABEL="DEMO DATA: replayed drive, recorded weather"
db="$work/demo.sqlite"
echo "fixcast demo: gpsd on 127.0.0.1:$gps_port, recorded weather on 127.0.0.1:$http_port, store $db" >&2

set +e
if [ -t 1 ] && [ -t 0 ]; then
  "$bin" run --gpsd "127.0.0.1:$gps_port" --db "$db" "$@"
else
  # Not a terminal: JSON lines until the replay ends.
  "$bin" run --json --gpsd "127.0.0.1:$gps_port" --db "$db" "$@" &
  fx=$!
  pids+=($fx)
  gpsfake_pid=${pids[1]}
  while kill -0 "$gpsfake_pid" 2>/dev/null; do sleep 1; done
  kill -TERM "$fx" 2>/dev/null; wait "$fx"
fi
status=$?
set -e
readings=$(sqlite3 "$db" "select count(*) from readings" 2>/dev/null || echo "?")
points=$(sqlite3 "$db" "select count(*) from track_points" 2>/dev/null || echo "?")
echo "fixcast demo: stored $readings readings and $points track points in $db" >&2
# The drive as a picture (issue 14): the report of the last trip, as SVG and as an HTML page.
if "$bin" report --db "$db" -o "$work/demo-report.svg" 2>/dev/null \
  && "$bin" report --db "$db" -o "$work/demo-report.html" 2>/dev/null; then
  echo "fixcast demo: the drive's report was written to $work/demo-report.svg (and .html)" >&2
  if command -v rsvg-convert >/dev/null && rsvg-convert -o "$work/demo-report.png" "$work/demo-report.svg" 2>/dev/null; then
    echo "fixcast demo: rendered to $work/demo-report.png" >&2
  fi
else
  echo "fixcast demo: no report: the store has no trip yet (quit before the first fix?)" >&2
fi
echo "fixcast demo: try '$bin export --format gpx --db $db -o drive.gpx' or '$bin trips --db $db'" >&2
exit $status
