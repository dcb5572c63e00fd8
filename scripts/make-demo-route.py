#!/usr/bin/python3
"""Makes demo/reno_tahoe_route.gpx, the demo drive's own route, from the bundled NMEA.

Usage: scripts/make-demo-route.py demo/reno_tahoe_demo.nmea > demo/reno_tahoe_route.gpx

Every $GPGGA sentence with a fix (quality > 0, satellites > 0) and a good checksum is a point; a point
is kept when it is at least 200 m from the last kept one (the last fix is always kept), so the route
follows the road at the detail a route planner gives without the receiver's jitter. Written as a GPX 1.1
rte named "Reno - Lake Tahoe (demo drive)".
"""
import math
import sys
from functools import reduce

KEEP_M = 200.0


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
kept = []
for p in fixes:
    if not kept or metres(kept[-1], p) >= KEEP_M:
        kept.append(p)
if fixes and kept[-1] != fixes[-1]:
    kept.append(fixes[-1])
print('<?xml version="1.0" encoding="UTF-8"?>')
print('<gpx version="1.1" creator="fixcast scripts/make-demo-route.py" xmlns="http://www.topografix.com/GPX/1/1">')
print("  <rte>")
print("    <name>Reno - Lake Tahoe (demo drive)</name>")
for lat, lon in kept:
    print(f'    <rtept lat="{lat:.6f}" lon="{lon:.6f}"/>')
print("  </rte>")
print("</gpx>")
