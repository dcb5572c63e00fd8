#!/usr/bin/env bash
# bench/mqtt.sh [COUNT]: how long COUNT (default 10,000) readings waiting in the outbox take to drain
# to a mosquitto on 127.0.0.1 once `fixcast run` starts (issue 13 target: 10,000 in <= 10 s).
#
# Fills a fresh store with one `fixcast now --offline` (MQTT on, no broker: the reading waits), copies
# that reading COUNT-1 times with sqlite3 (each copy queued), starts mosquitto (persistence off) and a
# mosquitto_sub counting .../reading, then starts `fixcast run --at … --offline --json` and times from
# its start until the outbox is empty. Everything started here is stopped here, also on Ctrl-C.
set -euo pipefail
COUNT=${1:-10000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/fixcast-bench-mqtt.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT INT TERM

cd "$ROOT"
swift build -c release --static-swift-stdlib --product fixcast >/dev/null
BIN="$ROOT/.build/release/fixcast"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DB="$WORK/f.sqlite"
export HOME="$WORK" XDG_CONFIG_HOME="$WORK/config" XDG_DATA_HOME="$WORK/data" FIXCAST_DATA_DIR="$ROOT/share/fixcast"
export FIXCAST_MQTT_ENABLED=true FIXCAST_MQTT_PORT=$PORT FIXCAST_MQTT_DEVICE_ID=bench FIXCAST_MQTT_DISCOVERY_PREFIX=""

"$BIN" now --at 52.52,13.405 --offline --json --db "$DB" >/dev/null 2>&1 || true
sqlite3 "$DB" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $COUNT - 1)
INSERT INTO readings (time, trigger, json) SELECT time + i, trigger, json FROM readings, n WHERE readings.id = 1;
INSERT INTO outbox (reading_id) SELECT id FROM readings WHERE id > 1 ORDER BY id;
SQL
echo "waiting in the outbox: $(sqlite3 "$DB" 'SELECT count(*) FROM outbox')"

printf 'persistence false\nlistener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n' "$PORT" > "$WORK/m.conf"
/usr/sbin/mosquitto -c "$WORK/m.conf" >/dev/null 2>&1 & PIDS+=($!)
sleep 0.5
mosquitto_sub -p "$PORT" -q 1 -t 'fixcast/bench/reading' > "$WORK/sub.txt" & PIDS+=($!)
sleep 0.3

START=$(date +%s.%N)
"$BIN" run --at 52.52,13.405 --offline --json --db "$DB" > /dev/null 2>"$WORK/run.err" & RUN=$!; PIDS+=($RUN)
while :; do
  LEFT=$(sqlite3 "$DB" 'SELECT count(*) FROM outbox' 2>/dev/null || echo "?")
  [ "$LEFT" = "0" ] && break
  NOW=$(date +%s.%N)
  if python3 -c "import sys; sys.exit(0 if $NOW - $START > 120 else 1)"; then echo "not drained after 120 s ($LEFT left)"; break; fi
  sleep 0.05
done
END=$(date +%s.%N)
RSS=$(awk '/VmHWM/ {print $2}' /proc/$RUN/status)
kill -INT $RUN; wait $RUN || true
sleep 0.3
GOT=$(wc -l < "$WORK/sub.txt")
python3 -c "print(f'drained {$COUNT} readings in {$END - $START:.2f} s (from the start of fixcast run); subscriber got {$GOT} messages; fixcast peak RSS {$RSS} kB')"
