#!/usr/bin/env python3
"""Build fixcast's bundled table of MeteoAlarm warning areas (share/fixcast/alert-areas.bin): what a
warning's geocode (EMMA_ID, or a NUTS3/NUTS2/FIPS/WARNCELLID alias) means on the ground, so that fixcast
can tell offline which areas contain a position. Read by FixcastCore's AlertAreaTable (python3 stdlib only).

Usage: scripts/build-alert-areas.py [DATA_DIR] [OUT_FILE]
  DATA_DIR defaults to ../shared/data/meteoalarm-areas next to the repository (or $FIXCAST_ALERT_AREAS_DIR),
  OUT_FILE to share/fixcast/alert-areas.bin in the repository.

Inputs (DATA_DIR): areas.geojson.gz (one FeatureCollection, Polygon/MultiPolygon features with
properties scheme, code, country, name; WARNCELLID features carry NAME and no country: they are German),
aliases.tsv (scheme, code, links_to = ../SCHEME/CODE.geojson).
Licences: EMMA_ID, NUTS3, NUTS2, FIPS, WARNCELLID 5xxx: CC0-1.0 "Meteoalarm / EUMETNET";
WARNCELLID 2xxx: CC-BY-4.0 "Source: Deutscher Wetterdienst".

Simplification: Douglas-Peucker per ring with a tolerance of SIMPLIFY_M (100 m) in a local equirectangular
projection (metres east/north around the ring's mean latitude); a closed ring keeps at least 3 distinct
vertices (4 with the closing one), holes are kept. Rings whose longitudes jump by more than 180 degrees
between two vertices (crossing the antimeridian) are unwrapped so that they are continuous (longitudes may
then leave [-180, 180]; the reader also tries lon +/- 360).

Layout (little-endian; offsets from the start of the file; all coordinates int32 in 1e-6 degrees):
  header (112 bytes)  "FXAREAS1", u32 version (1), u32 areas, u32 rings, u32 points, u32 codes,
                      i32 grid west, i32 grid south (whole degrees), u32 grid columns, u32 grid rows,
                      u32 0, u64 areas offset, u64 rings offset, u64 points offset, u64 codes offset,
                      u64 grid offset, u64 cells offset, u64 strings offset, u64 strings length
  areas   (32 bytes each)  i32 west, south, east, north; u32 first ring, u32 ring count,
                      u32 text offset (into strings), u16 text strings, u16 0
                      text: u16 length + UTF-8, repeated: scheme, code, country, name, then pairs
                      (alias scheme, alias code)
  rings   (8 bytes each)   u32 first point, u32 point count | 1 << 31 when the ring is a hole; a polygon
                      is its outer ring followed by its holes; an area's rings are contiguous
  points  (8 bytes each)   i32 lon, i32 lat; a ring's closing vertex is not repeated
  codes   (8 bytes each)   sorted by key bytes: u32 string offset (u16 length + key), u32 area; the key is
                      scheme TAB code ("EMMA_ID\tFR035", "NUTS3\tFR718"): a NUTS3 code such as DE112
                      is also another area's EMMA_ID, so a code alone is ambiguous
  grid    (columns * rows + 1) u32: cell c's area ids are cells[grid[c] ..< grid[c + 1]]; cell =
                      row * columns + column, 1 x 1 degree, from (west, south)
  cells   u32 area ids whose bounding box touches the cell
  strings
"""
import gzip
import json
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SIMPLIFY_M = 100.0
MAGIC = b"FXAREAS1"
VERSION = 1
HEADER = 112
E6 = 1_000_000


def douglas_peucker(xy, tolerance):
    """Indices of the vertices of the open polyline `xy` that Douglas-Peucker keeps (first and last always)."""
    keep = [False] * len(xy)
    keep[0] = keep[-1] = True
    stack = [(0, len(xy) - 1)]
    while stack:
        a, b = stack.pop()
        if b <= a + 1:
            continue
        ax, ay = xy[a]
        bx, by = xy[b]
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        best, best_d = -1, -1.0
        for i in range(a + 1, b):
            px, py = xy[i]
            if length == 0:
                d = math.hypot(px - ax, py - ay)
            else:
                d = abs(dx * (py - ay) - dy * (px - ax)) / length
            if d > best_d:
                best, best_d = i, d
        if best_d > tolerance:
            keep[best] = True
            stack.append((a, best))
            stack.append((best, b))
    return [i for i, k in enumerate(keep) if k]


def unwrap(ring):
    """The ring with longitudes made continuous across the antimeridian."""
    out = [list(ring[0])]
    for lon, lat in ring[1:]:
        prev = out[-1][0]
        while lon - prev > 180:
            lon -= 360
        while lon - prev < -180:
            lon += 360
        out.append([lon, lat])
    return out


def simplify_ring(ring):
    """The ring simplified to about SIMPLIFY_M, without its closing vertex, at least 3 distinct vertices."""
    ring = unwrap(ring)
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring = ring[:-1]
    # Drop consecutive duplicates (after rounding to the stored precision).
    fixed = []
    for lon, lat in ring:
        p = (round(lon * E6), round(lat * E6))
        if not fixed or fixed[-1] != p:
            fixed.append(p)
    while len(fixed) > 1 and fixed[0] == fixed[-1]:
        fixed.pop()
    if len(fixed) <= 3:
        return fixed
    lat0 = sum(p[1] for p in fixed) / len(fixed) / E6
    kx = 111_320.0 * math.cos(math.radians(lat0)) / E6
    ky = 110_574.0 / E6
    xy = [(p[0] * kx, p[1] * ky) for p in fixed]
    # Split the closed ring at the vertex farthest from the first one: two open polylines.
    far = max(range(len(xy)), key=lambda i: (xy[i][0] - xy[0][0]) ** 2 + (xy[i][1] - xy[0][1]) ** 2)
    tolerance = SIMPLIFY_M
    while True:
        first = douglas_peucker(xy[: far + 1], tolerance)
        second = douglas_peucker(xy[far:] + [xy[0]], tolerance)
        kept = first + [far + i for i in second[1:-1]]
        if len(kept) >= 3 or tolerance < 0.01:
            break
        tolerance /= 4  # a small island: keep it a ring, never a line
    if len(kept) < 3:
        kept = list(range(len(fixed)))
    return [fixed[i] for i in kept]


def polygons_of(geometry):
    if geometry["type"] == "Polygon":
        return [geometry["coordinates"]]
    if geometry["type"] == "MultiPolygon":
        return geometry["coordinates"]
    raise ValueError("unexpected geometry " + geometry["type"])


def text(s):
    b = s.encode("utf-8")[:65535]
    return struct.pack("<H", len(b)) + b


def main(argv):
    data_dir = argv[1] if len(argv) > 1 else os.environ.get(
        "FIXCAST_ALERT_AREAS_DIR", os.path.join(REPO, "..", "shared", "data", "meteoalarm-areas"))
    out_path = argv[2] if len(argv) > 2 else os.path.join(REPO, "share", "fixcast", "alert-areas.bin")
    with gzip.open(os.path.join(data_dir, "areas.geojson.gz"), "rt", encoding="utf-8") as f:
        features = json.load(f)["features"]
    aliases = {}
    with open(os.path.join(data_dir, "aliases.tsv"), encoding="utf-8") as f:
        next(f)
        for line in f:
            scheme, code, links_to = line.rstrip("\n").split("\t")
            parts = links_to.split("/")
            target = (parts[-2], parts[-1].removesuffix(".geojson"))
            aliases.setdefault(target, []).append((scheme, code))

    features.sort(key=lambda f: (f["properties"]["scheme"], f["properties"]["code"]))
    areas, rings, points, codes = [], [], [], []
    strings = bytearray()
    known = set()
    for area_id, feature in enumerate(features):
        p = feature["properties"]
        scheme, code = p["scheme"], p["code"]
        country = p.get("country") or ("DE" if scheme == "WARNCELLID" else "")
        name = p.get("name") or p.get("NAME") or ""
        known.add((scheme, code))
        area_aliases = sorted(aliases.get((scheme, code), []))
        first_ring = len(rings)
        west = south = math.inf
        east = north = -math.inf
        for polygon in polygons_of(feature["geometry"]):
            for index, ring in enumerate(polygon):
                kept = simplify_ring(ring)
                if len(kept) < 3:
                    if index == 0:
                        break  # a degenerate outer ring (fewer than 3 distinct vertices): no polygon, no holes
                    continue
                rings.append((len(points), len(kept) | ((1 << 31) if index > 0 else 0)))
                points.extend(kept)
                for lon, lat in kept:
                    west, east = min(west, lon), max(east, lon)
                    south, north = min(south, lat), max(north, lat)
        if len(rings) == first_ring:
            raise ValueError(f"{scheme} {code}: no ring left")
        offset = len(strings)
        fields = [scheme, code, country, name] + [x for pair in area_aliases for x in pair]
        for s in fields:
            strings += text(s)
        areas.append((west, south, east, north, first_ring, len(rings) - first_ring, offset, len(fields)))
        for key_scheme, key_code in [(scheme, code)] + area_aliases:
            codes.append((key_scheme + "\t" + key_code, area_id))
    missing = [t for t in aliases if t not in known]
    if missing:
        raise ValueError(f"aliases link to areas that are not in areas.geojson: {missing[:5]}")
    codes.sort(key=lambda c: c[0].encode("utf-8"))
    for (c, a), (d, b) in zip(codes, codes[1:]):
        if c == d:
            raise ValueError(f"geocode {c!r} names two areas ({a}, {b})")
    code_entries = []
    for c, a in codes:
        code_entries.append((len(strings), a))
        strings += text(c)

    grid_west = min(a[0] for a in areas) // E6
    grid_south = min(a[1] for a in areas) // E6
    grid_east = max(a[2] for a in areas) // E6 + 1
    grid_north = max(a[3] for a in areas) // E6 + 1
    columns, rows = grid_east - grid_west, grid_north - grid_south
    cells = [[] for _ in range(columns * rows)]
    for area_id, a in enumerate(areas):
        for row in range(a[1] // E6 - grid_south, a[3] // E6 - grid_south + 1):
            for column in range(a[0] // E6 - grid_west, a[2] // E6 - grid_west + 1):
                cells[row * columns + column].append(area_id)

    body = bytearray()
    def section(data):
        offset = HEADER + len(body)
        body.extend(data)
        return offset
    areas_off = section(b"".join(struct.pack("<iiiiIIIHH", *a, 0) for a in areas))
    rings_off = section(b"".join(struct.pack("<II", *r) for r in rings))
    points_off = section(b"".join(struct.pack("<ii", *pt) for pt in points))
    codes_off = section(b"".join(struct.pack("<II", *c) for c in code_entries))
    starts, flat = [], []
    for c in cells:
        starts.append(len(flat))
        flat.extend(c)
    starts.append(len(flat))
    grid_off = section(struct.pack(f"<{len(starts)}I", *starts))
    cells_off = section(struct.pack(f"<{len(flat)}I", *flat))
    strings_off = section(bytes(strings))
    header = MAGIC + struct.pack(
        "<IIIIIiiIIIQQQQQQQQ", VERSION, len(areas), len(rings), len(points), len(code_entries),
        grid_west, grid_south, columns, rows, 0,
        areas_off, rings_off, points_off, codes_off, grid_off, cells_off, strings_off, len(strings))
    assert len(header) == HEADER, len(header)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "wb") as f:
        f.write(header + body)
    print(f"{out_path}: {len(areas)} areas, {len(rings)} rings, {len(points)} points, "
          f"{len(code_entries)} codes, grid {columns}x{rows}, {HEADER + len(body)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
