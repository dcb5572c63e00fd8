#!/bin/sh
# Offline place index benchmark: builds fixcast-bench in release mode and prints the bundled table's load
# time (target <= 150 ms) and median nearest-place lookup time (target <= 50 us), side by side with a
# brute-force scan over every place.
# Usage: bench/places.sh [PATH/TO/places.bin]   (or: bench/places.sh --compile places.tsv places.bin)
set -eu
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --product fixcast-bench >&2
exec "$(swift build -c release --static-swift-stdlib --show-bin-path)/fixcast-bench" "$@"
