#!/usr/bin/env bash
# Writes /etc/fixcast/config.toml for the Debian package on stdout: config/fixcast.toml (every key
# at its default, which ConfigLoaderTests checks against ConfigSchema) with every key commented out,
# so the file documents every key and its default and an upgrade's new defaults still apply.
set -euo pipefail
cd "$(dirname "$0")/.."
awk '
    NR == 1 {
        print
        print "#"
        print "# Every key below is commented out and shows its default: uncomment a line to change it."
        next
    }
    /^[a-z_]+[ ]*=/ { print "# " $0; next }
    { print }
' config/fixcast.toml
