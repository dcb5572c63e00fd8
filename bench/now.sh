#!/usr/bin/env bash
# Benchmark of `fixcast now` (issue 3): peak RSS (target <= 24 MB) and the median time from start to
# printed reading with a warm cache (target <= 50 ms), against a loopback server of a recorded
# Open-Meteo response. Builds release with a static Swift stdlib, as shipped to a Raspberry Pi.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product fixcast >/dev/null
bin=.build/release/fixcast
work=$(mktemp -d)
trap 'kill $(cat $work/pid 2>/dev/null) 2>/dev/null; rm -rf $work' EXIT
cat > $work/server.json <<JSON
{"port": 0, "port_file": "$work/port", "log": "$work/requests.jsonl",
 "routes": {"/v1/forecast": [{"status": 200, "file": "$PWD/demo/open-meteo-forecast.json"}]}}
JSON
/usr/bin/python3 Tests/Support/fixture_server.py $work/server.json & echo $! > $work/pid
for _ in $(seq 100); do [ -s $work/port ] && break; sleep 0.05; done
export FIXCAST_WEATHER_BASE_URL=http://127.0.0.1:$(cat $work/port) FIXCAST_PLACES_PROVIDER=offline XDG_CONFIG_HOME=$work
args=(now --at 55.68,12.57 --db $work/bench.sqlite --json)
$bin "${args[@]}" >/dev/null   # fills the cache
echo "fixcast now, cold (one request):  $(/usr/bin/python3 bench/measure.py 1 -- $bin now --at 48.85,2.35 --db $work/bench.sqlite --json)"
echo "fixcast now, warm cache (x20):    $(/usr/bin/python3 bench/measure.py 20 -- $bin "${args[@]}")"
echo "targets: peak RSS <= 24576 kB; warm median <= 50 ms"
echo "requests that reached the server: $(wc -l < $work/requests.jsonl) (expected 2)"
