#!/bin/sh
# Weather ahead benchmark (issue 20's targets): builds fixcast-bench in release mode with a static stdlib and
#  1. replays the demo drive through AheadService in virtual time (fixcast-bench --ahead-eta), with its
#     route (demo/reno_tahoe_route.gpx) and without one (dead reckoning), and checks every forecast's
#     samples 30 and 60 min ahead against when the drive then got there (target: median within 10 %);
#     counts the ahead requests (target: <= 1 per refresh_min) and call units (target: <= 100 an hour);
#  2. times one ahead forecast on a 10,000-point route (fixcast-bench --ahead-compute; target <= 5 ms).
# Usage: bench/ahead.sh [--track F.nmea --route F.gpx] [-v]   (extra options go to --ahead-eta)
# `run` with ahead on beside gpxlogger: bench/run.sh --ahead [ROUTE.gpx] (CPU, RSS, requests counted).
set -eu
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product fixcast-bench >&2
bench="$(swift build -c release --static-swift-stdlib --show-bin-path)/fixcast-bench"
if [ $# -gt 0 ]; then
    exec "$bench" --ahead-eta "$@"
fi
echo "== with the route"
"$bench" --ahead-eta
echo
echo "== without a route"
"$bench" --ahead-eta --route none
echo
echo "== one forecast on a 10,000-point route"
"$bench" --ahead-compute --points 10000
