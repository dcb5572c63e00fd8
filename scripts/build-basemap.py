#!/usr/bin/env python3
"""Build fixcast's bundled base map (share/fixcast/basemap.bin): the coast, lakes and land borders the
trip report draws under the track, from Natural Earth's public-domain 1:10m vectors.

Usage: scripts/build-basemap.py [DATA_DIR] [OUT_FILE]
  DATA_DIR defaults to ../shared/data/natural-earth next to the repository (or $FIXCAST_NATURAL_EARTH_DIR),
  OUT_FILE to share/fixcast/basemap.bin in the repository. python3 stdlib only.

Inputs (GeoJSON, lon/lat, gzipped): ne_10m_coastline, ne_10m_lakes, ne_10m_admin_0_boundary_lines_land.

Layout (read by FixcastCore's BasemapImage.swift; all integers little-endian; degrees in 1e-5, about 1 m,
far below the 1:10m data's own accuracy):
  header, 32 bytes:  "FXBASEM1", u32 feature_count, u32 chunk_count, u32 point_bytes, 12 bytes zero
  features, 28 bytes each: u32 first_chunk, u32 chunk_count, u32 kind (0 coast, 1 lake shore, 2 border),
                           i32 min_lon, min_lat, max_lon, max_lat
  chunks, 24 bytes each:   u32 offset (into the point area), u32 point_count (>= 2),
                           i32 min_lon, min_lat, max_lon, max_lat
  point area: per chunk, i32 lon, i32 lat of its first point, then point_count - 1 pairs of
              i16 dlon, dlat (a step longer than 0.32 degrees is cut into shorter ones here).
A feature is one line or one lake ring, cut into chunks of at most CHUNK points that share their end
points, so a drawing reads only the chunks whose box meets the map (the bounding-box index) and a lake's
ring can be filled whole. Coordinates are not changed beyond the rounding.
"""
import gzip
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SCALE = 100000
CHUNK = 128
MAX_STEP = 32000  # i16 range with room to spare
KINDS = [("ne_10m_coastline", 0), ("ne_10m_lakes", 1), ("ne_10m_admin_0_boundary_lines_land", 2)]


def lines_of(geometry):
    if geometry is None:
        return []
    t, c = geometry["type"], geometry["coordinates"]
    if t == "LineString":
        return [c]
    if t in ("MultiLineString", "Polygon"):
        return list(c)
    if t == "MultiPolygon":
        return [ring for polygon in c for ring in polygon]
    return []


def quantize(line):
    out = []
    for lon, lat, *_ in line:
        q = (round(lon * SCALE), round(lat * SCALE))
        if out and q == out[-1]:
            continue
        if out:
            # Cut a step too long for i16 deltas into equal shorter ones.
            plon, plat = out[-1]
            steps = max(abs(q[0] - plon), abs(q[1] - plat)) // MAX_STEP + 1
            for k in range(1, steps):
                out.append((plon + (q[0] - plon) * k // steps, plat + (q[1] - plat) * k // steps))
        out.append(q)
    return out


def bbox(points):
    lons = [p[0] for p in points]
    lats = [p[1] for p in points]
    return (min(lons), min(lats), max(lons), max(lats))


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "FIXCAST_NATURAL_EARTH_DIR", os.path.join(REPO, "..", "shared", "data", "natural-earth"))
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "share", "fixcast", "basemap.bin")
    features, chunks, area = [], [], bytearray()
    for name, kind in KINDS:
        with gzip.open(os.path.join(data, name + ".geojson.gz"), "rt", encoding="utf-8") as f:
            collection = json.load(f)
        for feature in collection["features"]:
            for line in lines_of(feature.get("geometry")):
                points = quantize(line)
                if len(points) < 2:
                    continue
                first = len(chunks)
                start = 0
                while start < len(points) - 1:
                    part = points[start:start + CHUNK]
                    chunks.append((len(area), len(part)) + bbox(part))
                    area += struct.pack("<ii", *part[0])
                    for (a, b) in zip(part, part[1:]):
                        area += struct.pack("<hh", b[0] - a[0], b[1] - a[1])
                    start += CHUNK - 1
                features.append((first, len(chunks) - first, kind) + bbox(points))
    with open(out_path + ".tmp", "wb") as f:
        f.write(b"FXBASEM1" + struct.pack("<III", len(features), len(chunks), len(area)) + bytes(12))
        for rec in features:
            f.write(struct.pack("<IIIiiii", *rec))
        for rec in chunks:
            f.write(struct.pack("<IIiiii", *rec))
        f.write(area)
    os.replace(out_path + ".tmp", out_path)
    print(f"{out_path}: {len(features)} features, {len(chunks)} chunks, {len(area)} point bytes, "
          f"{os.path.getsize(out_path)} bytes")


if __name__ == "__main__":
    main()
