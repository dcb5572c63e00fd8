#!/usr/bin/python3
"""Runs a command N times and prints its median wall time, median CPU time and peak RSS.

usage: measure.py N -- CMD ARGS...    (stdout and stderr of the command are discarded)
prints one line: "median_ms=… cpu_ms=… peak_rss_kb=…"

Peak RSS comes from GNU time (/usr/bin/time -f %M, Debian package `time`), not from this script's own
wait4: on Linux a process's ru_maxrss keeps the high-water mark of the memory it had before exec, and a
child forked from Python starts with Python's ~14 MB, which would hide any smaller figure. /usr/bin/time
is a small C program, so the command's figure is its own. CPU is utime+stime from wait4 on /usr/bin/time
(its own share is well under 1 ms). Wall time is measured here around the whole thing, so it includes
the extra exec of /usr/bin/time (~1 ms): an upper bound of the command's time to its printed output.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

n = int(sys.argv[1])
cmd = sys.argv[sys.argv.index("--") + 1:]
gnu_time = "/usr/bin/time"
if not os.access(gnu_time, os.X_OK):
    sys.exit("measure.py: /usr/bin/time (Debian package `time`) is needed for an honest peak RSS")
walls, cpus, rss = [], [], []
with tempfile.NamedTemporaryFile("r") as out:
    for _ in range(n):
        t0 = time.perf_counter()
        p = subprocess.Popen([gnu_time, "-q", "-f", "%M %x", "-o", out.name, *cmd],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        walls.append((time.perf_counter() - t0) * 1000)
        cpus.append((ru.ru_utime + ru.ru_stime) * 1000)
        out.seek(0)
        fields = out.read().split()
        rss.append(int(fields[0]))
        if len(fields) > 1 and fields[1] != "0":
            print(f"command exited {fields[1]}: {' '.join(cmd)}", file=sys.stderr)
print(f"median_ms={statistics.median(walls):.1f} cpu_ms={statistics.median(cpus):.1f} peak_rss_kb={max(rss)}")
