#!/usr/bin/env bash
# Benchmark of `fixcast report` and `fixcast trips` (issue 14): a report of a 100,000-point trip
# (target <= 1 s, <= 40 MB peak RSS; with the base map of issue 22 drawn under it, its layers listed) and `trips` over a year of daily driving, ~1 M stored track
# points (target <= 1 s). The stores are made with sqlite3 in a schema fixcast itself created:
# a synthetic trip (1 point a second, a winding road around 45.5 N 7 E, 34 readings with
# temperatures) and 365 days x 2 trips x 1,400 points (one every 5 s).
# Usage: bench/report.sh [RUNS]   (default 5 runs per row)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
swift build -c release --static-swift-stdlib --product fixcast >/dev/null
bin=$PWD/.build/release/fixcast
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_CONFIG_HOME=$work XDG_DATA_HOME=$work
unset FIXCAST_CONFIG

# fixcast creates the schema (with its trip-time index): a writing command does (reading commands never
# create or change a store); its one offline reading is removed again.
new_store() { "$bin" now --at 0.5,0.5 --offline --db "$1" >/dev/null 2>&1 || true; sqlite3 "$1" "DELETE FROM readings;"; }

trip=$work/trip.sqlite
new_store "$trip"
sqlite3 "$trip" <<'SQL'
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
INSERT INTO track_points (time, lat, lon, mode, fix_time)
SELECT 1800000000 + i, 45.5 + i * 0.000008 + 0.002 * sin(i / 700.0), 7.0 + 0.08 * sin(i / 9000.0) + 0.0005 * cos(i / 60.0),
       '3d', 1800000000 + i FROM n;
WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < 33)
INSERT INTO readings (time, trigger, lat, lon, fix_time, place_name, temperature_c, precipitation_mm, json)
SELECT 1800000000 + k * 3000, 'moved', p.lat, p.lon, p.fix_time, 'Place ' || k, 10 + 8 * sin(k / 5.0), (k % 4) * 0.3,
  json_object('time', strftime('%Y-%m-%dT%H:%M:%SZ', 1800000000 + k * 3000, 'unixepoch'), 'trigger', 'moved',
    'position', json_object('lat', p.lat, 'lon', p.lon, 'fix_time', strftime('%Y-%m-%dT%H:%M:%SZ', p.fix_time, 'unixepoch'), 'source', 'gps'),
    'place', json_object('name', 'Place ' || k, 'source', 'offline'),
    'weather', json_object('provider', 'open-meteo', 'fetched_at', strftime('%Y-%m-%dT%H:%M:%SZ', p.fix_time, 'unixepoch'),
      'lat', p.lat, 'lon', p.lon, 'current', json_object('temperature_c', 10 + 8 * sin(k / 5.0), 'precipitation_mm', (k % 4) * 0.3)),
    'errors', json_array())
FROM n JOIN track_points p ON p.fix_time = 1800000000 + k * 3000;
COMMIT;
SQL

year=$work/year.sqlite
new_store "$year"
sqlite3 "$year" <<'SQL'
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 365 * 2800 - 1)
INSERT INTO track_points (time, lat, lon, mode, fix_time)
SELECT t, 48.1 + (i % 1400) * 0.0002, 11.5 + (i % 1400) * 0.0003, '3d', t
FROM (SELECT i, 1770000000 + (i / 2800) * 86400 + ((i % 2800) / 1400) * 32400 + 28800 + (i % 1400) * 5 AS t FROM n);
COMMIT;
SQL

echo "trip store: $(sqlite3 "$trip" 'select count(*) from track_points') points, $(sqlite3 "$trip" 'select count(*) from readings') readings"
echo "year store: $(sqlite3 "$year" 'select count(*) from track_points') points"
cd "$work"
echo "report, 100,000-point trip (SVG):  $(python3 "$OLDPWD/bench/measure.py" "$runs" -- "$bin" report --db "$trip" -o "$work/trip.svg")  svg_bytes=$(stat -c %s "$work/trip.svg") basemap_layers=$(grep -Eo '<path class="(lake|coast|border)"' "$work/trip.svg" | sort -u | tr -d '<"' | sed 's/path class=//' | paste -sd, -)"
echo "report, 100,000-point trip (HTML): $(python3 "$OLDPWD/bench/measure.py" "$runs" -- "$bin" report --db "$trip" -o "$work/trip.html")"
echo "trips, ~1 M points (text):          $(python3 "$OLDPWD/bench/measure.py" "$runs" -- "$bin" trips --db "$year")  trips=$("$bin" trips --json --db "$year" | grep -o '"trip"' | wc -l)"
echo "trips --json, ~1 M points:          $(python3 "$OLDPWD/bench/measure.py" "$runs" -- "$bin" trips --json --db "$year")"
echo "report --trip last, ~1 M-point store: $(python3 "$OLDPWD/bench/measure.py" "$runs" -- "$bin" report --db "$year" -o "$work/last.svg")"
