#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
# One test at a time: the integration tests start real gpsd, gpsfake, HTTP servers and fixcast
# processes, and on a 2-core machine running them all at once starves the timing they rely on.
swift test --skip-build --no-parallel "$@"
