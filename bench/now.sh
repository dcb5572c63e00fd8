#!/usr/bin/env bash
# Benchmark of `fixcast now` (issue 3): peak RSS (target <= 24 MB) and the median time from start to
# printed reading with a warm cache (target <= 50 ms), against a loopback server of recorded Open-Meteo
# and Nominatim responses. Builds release with a static Swift stdlib, as shipped to a Raspberry Pi.
#
# Rows: the process floor (`--version`); a cold run (one weather request); warm runs with the default
# places provider (Nominatim: the name comes from the store's place cache, no request); warm runs with
# FIXCAST_PLACES_PROVIDER=offline and with --offline (the name from the store's place cache too); and one
# --offline run at a spot whose name is not stored, which reads and indexes the bundled GeoNames table. Wall time is start to exit, an upper bound of start to printed reading (bench/measure.py).
# Usage: bench/now.sh [RUNS]   (default 20 warm runs per row)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
swift build -c release --static-swift-stdlib --product fixcast >/dev/null
bin=$PWD/.build/release/fixcast
api=$PWD/Tests/FixcastTests/Fixtures/api
work=$(mktemp -d)
trap 'if [ -s "$work/pid" ]; then kill "$(cat "$work/pid")" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
cat > "$work/server.json" <<JSON
{"port": 0, "port_file": "$work/port", "log": "$work/requests.jsonl",
 "routes": {"/v1/forecast": [{"status": 200, "file": "$PWD/demo/open-meteo-forecast.json"}],
            "/reverse": [{"status": 200, "file": "$api/nominatim-reverse-jsonv2-zoom12.json"}]}}
JSON
/usr/bin/python3 Tests/Support/fixture_server.py "$work/server.json" & echo $! > "$work/pid"
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "bench/now.sh: the fixture server did not start" >&2; exit 1; }
base=http://127.0.0.1:$(cat "$work/port")
export FIXCAST_WEATHER_BASE_URL=$base FIXCAST_PLACES_BASE_URL=$base XDG_CONFIG_HOME=$work HOME=$work
unset FIXCAST_CONFIG FIXCAST_PLACES_PROVIDER
db=$work/bench.sqlite
at=(--at 55.68,12.57 --db "$db" --json)
requests() { if [ -f "$work/requests.jsonl" ]; then wc -l < "$work/requests.jsonl"; else echo 0; fi; }

echo "fixcast now ($(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)), $runs runs per warm row"
printf '%-52s %s\n' "fixcast --version (process floor):" "$(/usr/bin/python3 bench/measure.py 5 -- "$bin" --version)"
printf '%-52s %s\n' "now, cold (1 weather + 1 place request):" "$(/usr/bin/python3 bench/measure.py 1 -- "$bin" now "${at[@]}")"
cold=$(requests)
printf '%-52s %s\n' "now, warm cache, places nominatim (default):" "$(/usr/bin/python3 bench/measure.py "$runs" -- "$bin" now "${at[@]}")"
# The offline rows: one unmeasured run first, so the name is in the store as it is for the rows above.
FIXCAST_PLACES_PROVIDER=offline "$bin" now "${at[@]}" >/dev/null
printf '%-52s %s\n' "now, warm cache, FIXCAST_PLACES_PROVIDER=offline:" \
    "$(FIXCAST_PLACES_PROVIDER=offline /usr/bin/python3 bench/measure.py "$runs" -- "$bin" now "${at[@]}")"
printf '%-52s %s\n' "now --offline (stored weather, offline place):" "$(/usr/bin/python3 bench/measure.py "$runs" -- "$bin" now --offline "${at[@]}")"
# 2.2 km away: the weather is still cached (within 5 km), the place name is not (beyond 1 km): the table loads.
printf '%-52s %s\n' "now --offline, new spot (loads the place table):" \
    "$(/usr/bin/python3 bench/measure.py 1 -- "$bin" now --offline --at 55.70,12.57 --db "$db" --json)"
echo "targets: peak RSS <= 24576 kB (24 MB); warm median <= 50 ms"
echo "requests that reached the server: cold run $cold (expected 2), warm runs $(( $(requests) - cold )) (expected 0)"
