#!/usr/bin/python3
"""Makes demo/reno_tahoe_route.gpx, the demo drive's own route, from the bundled NMEA.

Usage: scripts/make-demo-route.py demo/reno_tahoe_demo.nmea > demo/reno_tahoe_route.gpx

Every $GPGGA sentence with a fix (quality > 0, satellites > 0) and a good checksum is a point; points
closer than 20 m to the last one are dropped (a parked receiver's jitter), and the rest are simplified
with Douglas-Peucker at 5 m (a point is kept when the line between its kept neighbours would pass more
than 5 m from it; the first and last fix are always kept). So the route follows the road as closely as a
route planner's GPX does: its length is the drive's to within a few hundred metres. (Keeping one point
every 200 m, as this script did first, cut every bend: that route was 3.4 % shorter than the road, and
every ETA along it that much early; bench/README.md, 2026-12-02.) Written as a GPX 1.1 rte named
"Reno - Lake Tahoe (demo drive)".
"""
import math
import sys
from functools import reduce

JITTER_M = 20.0
TOLERANCE_M = 5.0


def checksum_ok(line):
    if not line.startswith("$") or "*" not in line:
        return False
    body, given = line[1:].split("*", 1)
    return format(reduce(lambda a, c: a ^ ord(c), body, 0), "02X") == given[:2].upper()


def degrees(value, hemisphere):
    if not value:
        return None
    head, minutes = divmod(float(value), 100)
    d = head + minutes / 60
    return -d if hemisphere in ("S", "W") else d


def metres(a, b):
    r = 6371008.8
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


fixes = []
for raw in open(sys.argv[1], encoding="ascii", errors="replace"):
    line = raw.strip()
    if not line.startswith("$GPGGA") or not checksum_ok(line):
        continue
    f = line.split("*")[0].split(",")
    if len(f) < 8 or not f[6].isdigit() or int(f[6]) == 0 or not f[7].isdigit() or int(f[7]) == 0:
        continue
    lat, lon = degrees(f[2], f[3]), degrees(f[4], f[5])
    if lat is not None and lon is not None:
        fixes.append((lat, lon))
def off_line_m(p, a, b):
    """Metres from p to the segment a-b, in a flat frame around a (fine over a few km)."""
    k = math.cos(math.radians(a[0]))
    def xy(q):
        return (math.radians(q[1] - a[1]) * k * 6371008.8, math.radians(q[0] - a[0]) * 6371008.8)
    (bx, by), (px, py) = xy(b), xy(p)
    length2 = bx * bx + by * by
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, (px * bx + py * by) / length2))
    return math.hypot(px - t * bx, py - t * by)


moved = []
for p in fixes:
    if not moved or metres(moved[-1], p) >= JITTER_M:
        moved.append(p)
if fixes and moved[-1] != fixes[-1]:
    moved.append(fixes[-1])
keep = [False] * len(moved)
if moved:
    keep[0] = keep[-1] = True
stack = [(0, len(moved) - 1)] if len(moved) > 2 else []
while stack:
    first, last = stack.pop()
    worst, at = 0.0, None
    for i in range(first + 1, last):
        d = off_line_m(moved[i], moved[first], moved[last])
        if d > worst:
            worst, at = d, i
    if at is not None and worst > TOLERANCE_M:
        keep[at] = True
        stack += [(first, at), (at, last)]
kept = [p for p, k in zip(moved, keep) if k]
print('<?xml version="1.0" encoding="UTF-8"?>')
print('<gpx version="1.1" creator="fixcast scripts/make-demo-route.py" xmlns="http://www.topografix.com/GPX/1/1">')
print("  <rte>")
print("    <name>Reno - Lake Tahoe (demo drive)</name>")
for lat, lon in kept:
    print(f'    <rtept lat="{lat:.6f}" lon="{lon:.6f}"/>')
print("  </rte>")
print("</gpx>")
