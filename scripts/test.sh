#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# gpxpy (PyPI) reads the GPX export back in a test; it lives in a venv of the build folder. Without
# it (no network to PyPI) that one test is skipped and says so.
venv=.build/gpxpy-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import gpxpy" 2>/dev/null; then
  (/usr/bin/python3 -m venv "$venv" && "$venv/bin/pip" install -q gpxpy) >/dev/null 2>&1 \
    || echo "fixcast: could not install gpxpy from PyPI; the gpxpy read-back test will be skipped." >&2
fi
[ -x "$venv/bin/python" ] && export FIXCAST_GPXPY_PYTHON="$PWD/$venv/bin/python"
swift build --build-tests
# One test at a time: the integration tests start real gpsd, gpsfake, HTTP servers and fixcast
# processes, and on a 2-core machine running them all at once starves the timing they rely on.
swift test --skip-build --no-parallel "$@"
