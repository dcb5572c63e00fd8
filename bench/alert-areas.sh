#!/bin/sh
# MeteoAlarm area table benchmark: builds fixcast-bench in release mode and prints the bundled
# share/fixcast/alert-areas.bin's size (target <= 8 MB), load time (target <= 20 ms) and median
# "which areas contain this point" lookup (target <= 50 us), and a geocode lookup's.
# Usage: bench/alert-areas.sh [PATH/TO/alert-areas.bin]
set -eu
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product fixcast-bench >&2
exec "$(swift build -c release --static-swift-stdlib --show-bin-path)/fixcast-bench" --areas "$@"
