#!/usr/bin/env bash
# Benchmark of `fixcast line` (issue 22): median wall time (target <= 20 ms) and peak RSS (target
# <= 12 MB) on a store with a year of readings (one every 30 minutes: 17,520), and `line --watch`'s
# wake-ups over 60 s with nothing stored (target: 0). Release build with a static Swift stdlib, linked
# as shipped. Only 127.0.0.1 is used (the recorded-response server, for the one `now` that seeds the store).
# Usage: bench/line.sh [RUNS] [IDLE_S]   (default 50 runs, 60 s idle)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
idle=${2:-60}
# The binary the package ships (its build and link: scripts/build-release.sh).
bin=$(scripts/build-release.sh)
work=$(mktemp -d /tmp/fixcast-bench-line.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT INT TERM
cat > "$work/server.json" <<JSON
{"port": 0, "port_file": "$work/port", "log": "$work/requests.jsonl",
 "routes": {"/v1/forecast": [{"status": 200, "file": "$PWD/demo/open-meteo-forecast.json"}]}}
JSON
/usr/bin/python3 Tests/Support/fixture_server.py "$work/server.json" & pids+=($!)
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "bench/line.sh: the fixture server did not start" >&2; exit 1; }
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data FIXCAST_DATA_DIR=$PWD/share/fixcast
export FIXCAST_WEATHER_BASE_URL=http://127.0.0.1:$(cat "$work/port") FIXCAST_PLACES_PROVIDER=offline FIXCAST_ALERTS_ENABLED=false
unset FIXCAST_CONFIG
db=$work/year.sqlite
"$bin" now --at 55.68,12.57 --db "$db" --json >/dev/null
# A year of readings every 30 minutes, the seeded one copied back in time (the newest stays the last).
sqlite3 "$db" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 17519)
INSERT INTO readings (time, trigger, json) SELECT time - i * 1800, trigger, json FROM readings, n WHERE readings.id = 1;
SQL
echo "fixcast line ($(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)): $(sqlite3 "$db" 'SELECT count(*) FROM readings') readings, $(du -k "$db" | cut -f1) kB store"
printf '%-40s %s\n' "fixcast --version (process floor):" "$(/usr/bin/python3 bench/measure.py 5 -- "$bin" --version)"
printf '%-40s %s\n' "line (default format):" "$(/usr/bin/python3 bench/measure.py "$runs" -- "$bin" line --db "$db")"
printf '%-40s %s\n' "line --waybar:" "$(/usr/bin/python3 bench/measure.py "$runs" -- "$bin" line --waybar --db "$db")"

# --watch with nothing stored: every thread's context switches (voluntary + involuntary) over IDLE_S.
"$bin" line --watch --db "$db" > "$work/watch.out" & watch=$!; pids+=($watch)
sleep 1
switches() { cat /proc/"$watch"/task/*/status 2>/dev/null | awk '/ctxt_switches/ {s += $2} END {print s + 0}'; }
threads=$(ls /proc/"$watch"/task | wc -l)
before=$(switches)
sleep "$idle"
after=$(switches)
echo "line --watch, ${idle} s without a reading: $((after - before)) context switches over $threads threads, $(wc -l < "$work/watch.out") line(s) printed (1 expected)"
