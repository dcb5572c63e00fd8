#!/usr/bin/python3
"""Runs a command N times and prints its median wall time, CPU time and peak RSS (from wait4).

usage: measure.py N -- CMD ARGS...    (stdout of the command is discarded)
prints one line: "median_ms=… cpu_ms=… peak_rss_kb=…"
"""
import os
import statistics
import subprocess
import sys
import time

n = int(sys.argv[1])
cmd = sys.argv[sys.argv.index("--") + 1:]
walls, cpus, rss = [], [], []
for _ in range(n):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    walls.append((time.perf_counter() - t0) * 1000)
    cpus.append((ru.ru_utime + ru.ru_stime) * 1000)
    rss.append(ru.ru_maxrss)
    if os.waitstatus_to_exitcode(status) != 0:
        print(f"command exited {os.waitstatus_to_exitcode(status)}: {' '.join(cmd)}", file=sys.stderr)
print(f"median_ms={statistics.median(walls):.1f} cpu_ms={statistics.median(cpus):.1f} peak_rss_kb={max(rss)}")
