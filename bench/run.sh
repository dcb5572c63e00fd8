#!/usr/bin/env bash
# Benchmark of `fixcast run` (issue 5): replays a long real track through a real gpsd, with `fixcast run
# --json` and gpsd's own gpxlogger attached at the same time, and prints CPU seconds per 1,000 fixes for
# both (target: fixcast no more than gpxlogger) and fixcast run's peak RSS with samples over the run
# (target <= 26 MB, flat; issue 19 asks <= 24 MB). The binary the package ships (scripts/build-release.sh),
# as on a Raspberry Pi.
# Usage: bench/run.sh [--rate EPOCHS_PER_S] [--places offline|nominatim] [--track FILE] [--repeat N]
# (defaults: the Reno–Tahoe Garmin log in demo/, 50 epochs/s, offline places: about 95 s.)
# bench/run.py starts and stops everything (gpsd on its own pty and port, the loopback API server,
# fixcast, gpxlogger, gpspipe), also on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(scripts/build-release.sh)
exec /usr/bin/python3 bench/run.py --bin "$bin" "$@"
