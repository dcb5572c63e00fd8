#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test. Then it checks that
# the run left nothing behind (issue 25): no folder in the temporary directory and no process still
# alive that the run started. It lists what it finds, removes or kills it, and fails.
#
# How it tells the run's leftovers from other programs': the tests run with TMPDIR set to a folder this
# script makes (empty before the run: its snapshot), so every folder they make is inside it, and every
# process they start names it in its environment (TMPDIR, or a HOME inside it) or its command line.
# (The outer temporary directory is not compared: other programs write there while the tests run.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The style of .swift-format, held (issue 19): the tree was formatted once with `swift format format -i -r
# Sources Tests bench/Sources`; a line that breaks it fails here, before anything is built.
swift format lint --strict --parallel --recursive Sources Tests bench/Sources
swift build --build-tests

outer_tmp="${TMPDIR:-/tmp}"
run_tmp=$(mktemp -d "$outer_tmp/fixcast-run.XXXXXX")
# As open as /tmp's own folders: mosquitto and gpsd drop to users of their own and must reach the tests'.
chmod 755 "$run_tmp"
before=$(ls -A "$run_tmp" | sort)

# PIDs of processes (not this script) whose environment or command line names the run's folder.
processes_of_the_run() {
  local dir pid
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
    if grep -qsF -e "$run_tmp" "$dir/environ" "$dir/cmdline"; then
      # A zombie is already dead; its parent just has not reaped it yet.
      [[ $(awk '{print $3}' "$dir/stat" 2>/dev/null) == Z ]] || echo "$pid"
    fi
  done
}

# One test at a time: the integration tests start real gpsd, gpsfake, HTTP servers and fixcast
# processes, and on a 2-core machine running them all at once starves the timing they rely on.
status=0
TMPDIR="$run_tmp" swift test --skip-build --no-parallel "$@" || status=$?

leaks=0
# Processes: give a process that is exiting a moment, then list and kill what is still there.
left=$(processes_of_the_run)
if [[ -n $left ]]; then
  sleep 2
  left=$(processes_of_the_run)
fi
if [[ -n $left ]]; then
  leaks=1
  echo "test.sh: processes the test run started are still running (killed now):" >&2
  for pid in $left; do
    echo "  $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&2
  done
  # shellcheck disable=SC2086
  kill -KILL $left 2>/dev/null || true
fi
# Folders and files: whatever is in the run's TMPDIR now and was not before, except SwiftPM's own
# (`swift test` runs with the same TMPDIR and leaves its TemporaryDirectory.XXXXXX folders and locks).
new=$(comm -13 <(echo "$before") <(ls -A "$run_tmp" | sort) | grep -vE '^(TemporaryDirectory\.[A-Za-z0-9]{6}|_.*\.lock)$' || true)
if [[ -n $new ]]; then
  leaks=1
  echo "test.sh: the test run left these in its temporary directory (removed now):" >&2
  while IFS= read -r entry; do
    echo "  $entry ($(du -sh "$run_tmp/$entry" 2>/dev/null | cut -f1))" >&2
  done <<<"$new"
fi
rm -rf "$run_tmp"

if [[ $leaks -ne 0 ]]; then
  echo "test.sh: every test must remove what it made and stop what it started (Tests/FixcastTestSupport/TestScratch.swift)" >&2
  [[ $status -ne 0 ]] || status=1
elif [[ $status -eq 0 ]]; then
  echo "test.sh: the run left no process and no folder behind"
fi
exit "$status"
