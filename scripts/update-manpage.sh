#!/usr/bin/env bash
# Regenerates docs/fixcast.1 from the binary (`fixcast --man-page`, made from the --help texts).
# ManPageTests fails while the committed page differs from what the binary makes.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product fixcast >/dev/null
.build/debug/fixcast --man-page > docs/fixcast.1.new
mv docs/fixcast.1.new docs/fixcast.1
echo "docs/fixcast.1 updated"
