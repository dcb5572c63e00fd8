#!/usr/bin/env python3
"""Build fixcast's bundled offline place table (share/fixcast/places.tsv, and from it the binary
share/fixcast/places.bin that fixcast maps at run time) from the GeoNames extracts.

Usage: scripts/build-places.py [DATA_DIR] [OUT_FILE]
  DATA_DIR defaults to ../shared/data next to the repository (or $FIXCAST_GEONAMES_DIR),
  OUT_FILE to share/fixcast/places.tsv in the repository; the binary goes beside it (.bin).

The binary (layout: FixcastCore's PlaceTableImage.swift) is written by the Swift code that reads it,
`fixcast-bench --compile places.tsv places.bin` (built here with `swift build -c release`;
`scripts/build-places.py --binary-only` redoes just this step from the committed places.tsv), so that the
k-d tree order, the unit vectors and the record layout come from one implementation.

Inputs (GeoNames, CC BY 4.0, https://www.geonames.org/):
  geonames-cities1000-admin.tsv  latitude, longitude, name, admin1, admin2, country_code (ASCII names)
  geonames-cities5000.tsv        geonameid, name, latitude, longitude, country_code, admin1_code, population, timezone
  geonames-countries.tsv         iso, name, capital, continent

Output format (UTF-8 text, read by FixcastCore's OfflinePlaceTable; python3 stdlib only):
  fixcast-places<TAB>1
  #countries<TAB>N      then N lines: CC<TAB>country name
  #regions<TAB>M        then M lines: region name (a place refers to it by its 0-based index)
  #places<TAB>K         then K place lines in groups, each group opened by a line
      @CC<TAB>region_index<TAB>area   (region_index empty: no region known; area: a number shared by the
                                      places of one second-level division, from admin2; empty: not known)
    and each place line being
      lat_e4<TAB>lon_e4<TAB>name[<TAB>population[<TAB>alternate_name]]
  lat/lon are integers in 1e-4 degrees (11 m, far below the spacing of populated places).
  population may be empty (below 5,000: not in cities5000); trailing empty fields are left out. alternate_name is the ASCII spelling when
  the display name (from cities5000, with diacritics) folds differently (e.g. "Köln" / "Koeln"),
  so that offline search finds both.
"""
import math
import os
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def fold(text):
    """Case- and diacritics-insensitive key (the same idea as FixcastCore's SearchText)."""
    special = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ł": "l", "ı": "i", "þ": "th", "ð": "d"}
    out = []
    for ch in unicodedata.normalize("NFKD", text.lower()):
        if unicodedata.combining(ch):
            continue
        out.append(special.get(ch, ch))
    return "".join(out)


def german_fold(text):
    """ASCII spellings of GeoNames often expand umlauts ("Koeln")."""
    t = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    return fold(t)


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < len(header):
                parts += [""] * (len(header) - len(parts))
            yield dict(zip(header, parts))


def km(lat1, lon1, lat2, lon2):
    r = math.pi / 180
    s = math.sin((lat2 - lat1) * r / 2) ** 2 + math.cos(lat1 * r) * math.cos(lat2 * r) * math.sin((lon2 - lon1) * r / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(s)))


def clean(text):
    return text.replace("\t", " ").replace("\n", " ").strip()


def main():
    if sys.argv[1:2] == ["--binary-only"]:
        tsv = os.path.join(REPO, "share", "fixcast", "places.tsv")
        compile_binary(tsv, os.path.splitext(tsv)[0] + ".bin")
        return
    data = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "FIXCAST_GEONAMES_DIR", os.path.join(os.path.dirname(REPO), "shared", "data"))
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "share", "fixcast", "places.tsv")

    countries = {}
    for row in read_tsv(os.path.join(data, "geonames-countries.tsv")):
        countries[row["iso"].upper()] = clean(row["name"])

    places = []  # dicts: lat, lon, name, alt, region, cc, pop
    cells = {}  # (cc, cell_lat, cell_lon) -> [place index], cells of 0.1 degree
    for row in read_tsv(os.path.join(data, "geonames-cities1000-admin.tsv")):
        try:
            lat, lon = float(row["latitude"]), float(row["longitude"])
        except ValueError:
            continue
        cc = row["country_code"].upper()
        if not clean(row["name"]) or len(cc) != 2:
            continue
        p = {"lat": lat, "lon": lon, "name": clean(row["name"]), "alt": "", "region": clean(row["admin1"]),
             "area": clean(row["admin2"]), "cc": cc, "pop": None}
        cells.setdefault((cc, math.floor(lat * 10), math.floor(lon * 10)), []).append(len(places))
        places.append(p)

    # Populations (and proper UTF-8 names) from cities5000: the same place has the same country and
    # (nearly always exactly) the same coordinates; otherwise the same folded name within 10 km.
    region_votes = {}  # (cc, admin1_code) -> {region name: count}
    unmatched = []
    matched = 0
    for row in read_tsv(os.path.join(data, "geonames-cities5000.tsv")):
        try:
            lat, lon, pop = float(row["latitude"]), float(row["longitude"]), int(row["population"] or 0)
        except ValueError:
            continue
        cc = row["country_code"].upper()
        name = clean(row["name"])
        if not name or len(cc) != 2:
            continue
        keys = {fold(name), german_fold(name)}
        best, best_score = None, None
        cl, co = math.floor(lat * 10), math.floor(lon * 10)
        for dl in (-1, 0, 1):
            for do in (-1, 0, 1):
                for i in cells.get((cc, cl + dl, co + do), []):
                    q = places[i]
                    if q["pop"] is not None:
                        continue
                    d = km(lat, lon, q["lat"], q["lon"])
                    same_name = fold(q["name"]) in keys
                    if d < 0.05 or (same_name and d < 10):
                        score = (0 if same_name else 1, d)
                        if best_score is None or score < best_score:
                            best, best_score = i, score
        if best is None:
            unmatched.append((lat, lon, name, cc, row["admin1_code"], pop))
            continue
        matched += 1
        q = places[best]
        q["pop"] = pop
        if name != q["name"]:
            ascii_name = q["name"]
            q["name"] = name
            if fold(ascii_name) != fold(name):
                q["alt"] = ascii_name
        if q["region"]:
            votes = region_votes.setdefault((cc, row["admin1_code"]), {})
            votes[q["region"]] = votes.get(q["region"], 0) + 1

    # Places of cities5000 missing from the 2015 admin snapshot: keep them, with the region name that the
    # matched places of the same admin1 code carry.
    for lat, lon, name, cc, admin1, pop in unmatched:
        votes = region_votes.get((cc, admin1), {})
        region = max(votes.items(), key=lambda kv: kv[1])[0] if votes else ""
        places.append({"lat": lat, "lon": lon, "name": name, "alt": "", "region": region, "area": "", "cc": cc,
                       "pop": pop})

    places.sort(key=lambda p: (p["cc"], p["region"], p["area"], p["name"], p["lat"], p["lon"]))
    regions = sorted({p["region"] for p in places if p["region"]})
    region_index = {r: i for i, r in enumerate(regions)}
    # Only equality of areas matters (CityDistrictRule): a number per admin2 name, not the names.
    areas = sorted({p["area"] for p in places if p["area"]})
    assert len(areas) < 0xFFFF, "more second-level divisions than the binary's u16 holds"
    area_index = {a: i for i, a in enumerate(areas)}
    used_cc = sorted({p["cc"] for p in places})

    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write("fixcast-places\t1\n")
        f.write("#countries\t%d\n" % len(used_cc))
        for cc in used_cc:
            f.write("%s\t%s\n" % (cc, countries.get(cc, "")))
        f.write("#regions\t%d\n" % len(regions))
        for r in regions:
            f.write(r + "\n")
        f.write("#places\t%d\n" % len(places))
        group = None
        for p in places:
            key = (p["cc"], p["region"], p["area"])
            if key != group:
                group = key
                line = "@%s\t%s\t%s" % (p["cc"], region_index[p["region"]] if p["region"] else "",
                                        area_index[p["area"]] if p["area"] else "")
                f.write(line.rstrip("\t") + "\n")
            fields = [str(round(p["lat"] * 10000)), str(round(p["lon"] * 10000)), p["name"],
                      str(p["pop"]) if p["pop"] is not None else "", p["alt"]]
            while len(fields) > 3 and fields[-1] == "":
                fields.pop()
            f.write("\t".join(fields) + "\n")
    os.replace(tmp, out_path)
    print("%s: %d places (%d with population, %d added from cities5000), %d regions, %d countries, %d bytes"
          % (out_path, len(places), matched + len(unmatched), len(unmatched), len(regions), len(used_cc),
             os.path.getsize(out_path)), file=sys.stderr)
    compile_binary(out_path, os.path.splitext(out_path)[0] + ".bin")


def compile_binary(tsv_path, bin_path):
    """places.tsv -> places.bin through fixcast-bench (release build, so the tree build takes < 1 s)."""
    import subprocess
    build = ["swift", "build", "-c", "release", "--static-swift-stdlib"]  # the flags of bench/places.sh
    subprocess.run(build + ["--product", "fixcast-bench"], cwd=REPO, check=True, stdout=sys.stderr)
    bin_dir = subprocess.run(build + ["--show-bin-path"], cwd=REPO, check=True, capture_output=True,
                             text=True).stdout.strip()
    subprocess.run([os.path.join(bin_dir, "fixcast-bench"), "--compile", tsv_path, bin_path], check=True)


if __name__ == "__main__":
    main()
