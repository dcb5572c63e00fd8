#!/bin/sh
# JSON benchmark: median time of `JSONValue.parse` (JSONDecoder behind a strict pre-scan) and of
# `serialized()` for the recorded API responses, release build. Usage: bench/json.sh [FILE...]
set -eu
cd "$(dirname "$0")/.."
api=Tests/FixcastTests/Fixtures/api
[ "$#" -gt 0 ] || set -- "$api/nominatim-reverse-jsonv2-zoom12.json" "$api/owm-forecast.json" \
    "$api/open-meteo-forecast.json" "$api/metno-compact.json"
swift build -c release --static-swift-stdlib --product fixcast-bench >&2
exec "$(swift build -c release --static-swift-stdlib --show-bin-path)/fixcast-bench" --json "$@"
