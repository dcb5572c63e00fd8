#!/usr/bin/env python3
"""Make points.tsv: random positions with the MeteoAlarm areas that contain them, by a brute-force
even-odd test on the raw (unsimplified) GeoJSON, to check share/fixcast/alert-areas.bin against.

Made with (from the repository root):
  python3 Tests/FixcastTests/Fixtures/alert-areas/make-points.py \
      ../shared/data/meteoalarm-areas/areas.geojson.gz > Tests/FixcastTests/Fixtures/alert-areas/points.tsv

Points within MARGIN_M (150 m) of any area's border are left out: the table is simplified to about
100 m, so there the two may legitimately differ. 3,000 points are drawn in a random area's bounding box,
1,000 in the bounding box of all areas (mostly sea and non-member countries: often no area). Seeded, so
the file is reproducible. Output: lat<TAB>lon<TAB>scheme:code,scheme:code (sorted; empty: no area), with
6 decimals (the table's precision, so both sides test the same point).
"""
import gzip
import json
import math
import random
import sys

MARGIN_M = 150.0
CELL = 0.01  # degrees: the segment index's cell, larger than MARGIN_M in both directions up to 70°N


def main(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        features = json.load(f)["features"]
    areas = []  # (key, bbox, [[segments by polygon: (outer, holes)]])
    near = {}   # segment index for the distance check: (i, j) -> [(x1, y1, x2, y2)]
    for feature in features:
        p = feature["properties"]
        key = p["scheme"] + ":" + p["code"]
        g = feature["geometry"]
        polygons = [g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"]
        lons = [x for poly in polygons for ring in poly for x, _ in ring]
        lats = [y for poly in polygons for ring in poly for _, y in ring]
        bands = {}  # latitude band -> segments of every ring, with the polygon and ring they belong to
        for pi, poly in enumerate(polygons):
            for ri, ring in enumerate(poly):
                for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1]):
                    seg = (x1, y1, x2, y2)
                    for b in range(math.floor(min(y1, y2) / CELL), math.floor(max(y1, y2) / CELL) + 1):
                        bands.setdefault(b, []).append((pi, ri, seg))
                    for i in range(math.floor(min(x1, x2) / CELL), math.floor(max(x1, x2) / CELL) + 1):
                        for j in range(math.floor(min(y1, y2) / CELL), math.floor(max(y1, y2) / CELL) + 1):
                            near.setdefault((i, j), []).append(seg)
        areas.append((key, (min(lons), min(lats), max(lons), max(lats)), len(polygons), bands))

    def contains(area, x, y):
        _, _, n, bands = area
        crossings = {}
        for pi, ri, (x1, y1, x2, y2) in bands.get(math.floor(y / CELL), []):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                crossings[(pi, ri)] = crossings.get((pi, ri), 0) ^ 1
        for pi in range(n):
            if crossings.get((pi, 0)) and not any(v for (q, r), v in crossings.items() if q == pi and r > 0):
                return True
        return False

    def near_border(x, y):
        kx = 111_320.0 * math.cos(math.radians(y))
        ky = 110_574.0
        i0, j0 = math.floor(x / CELL), math.floor(y / CELL)
        for i in range(i0 - 1, i0 + 2):
            for j in range(j0 - 1, j0 + 2):
                for x1, y1, x2, y2 in near.get((i, j), []):
                    ax, ay = (x1 - x) * kx, (y1 - y) * ky
                    bx, by = (x2 - x) * kx, (y2 - y) * ky
                    dx, dy = bx - ax, by - ay
                    l2 = dx * dx + dy * dy
                    t = 0.0 if l2 == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / l2))
                    if math.hypot(ax + t * dx, ay + t * dy) < MARGIN_M:
                        return True
        return False

    rng = random.Random(21)
    west = min(a[1][0] for a in areas)
    south = min(a[1][1] for a in areas)
    east = max(a[1][2] for a in areas)
    north = max(a[1][3] for a in areas)
    out = []
    while len(out) < 4000:
        if len(out) < 3000:
            b = rng.choice(areas)[1]
        else:
            b = (west, south, east, north)
        x = round(rng.uniform(b[0], b[2]), 6)
        y = round(rng.uniform(b[1], b[3]), 6)
        if near_border(x, y):
            continue
        keys = sorted(a[0] for a in areas
                      if a[1][0] <= x <= a[1][2] and a[1][1] <= y <= a[1][3] and contains(a, x, y))
        out.append(f"{y:.6f}\t{x:.6f}\t{','.join(keys)}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
