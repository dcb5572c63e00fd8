#!/usr/bin/env python3
"""Writes the crafted receiver logs of issue 11 item 4 (GGA + RMC per epoch, valid checksums), the same
sentences as Tests/FixcastTests/Support/NMEAWriter.swift. Dated 2026-11-30 12:00 UTC: replayed later,
they are an old log, whose first fixes fixcast holds until 3 agree; the hostile epochs stay hostile.
Run from this folder: python3 make_hostile_logs.py"""
import datetime

START = datetime.datetime(2026, 11, 30, 12, 0, 0, tzinfo=datetime.timezone.utc)
BERLIN = (52.52, 13.405)
MUNICH = (48.137, 11.575)


def sentence(body):
    s = 0
    for b in body.encode():
        s ^= b
    return "$%s*%02X" % (body, s)


def angle(deg, digits):
    a = abs(deg)
    whole = int(a)
    tenk = round((a - whole) * 60 * 10000)
    if tenk >= 600000:
        whole += 1
        tenk -= 600000
    return "%0*d%02d.%04d" % (digits, whole, tenk // 10000, tenk % 10000)


def epoch(lat, lon, t):
    hms = t.strftime("%H%M%S") + ".00"
    dmy = t.strftime("%d%m%y")
    la = angle(lat, 2) + "," + ("S" if lat < 0 else "N")
    lo = angle(lon, 3) + "," + ("W" if lon < 0 else "E")
    return [sentence("GPGGA,%s,%s,%s,1,08,0.9,34.0,M,45.0,M,," % (hms, la, lo)),
            sentence("GPRMC,%s,A,%s,%s,0.0,0.0,%s,,,A" % (hms, la, lo, dmy))]


def at(i):
    return START + datetime.timedelta(seconds=i)


def write(name, header, epochs):
    with open(name, "w", newline="") as f:
        for line in header:
            f.write("# " + line + "\n")
        for lat, lon, t in epochs:
            for s in epoch(lat, lon, t):
                f.write(s + "\r\n")


north = lambda i: BERLIN[0] + i * 0.0001
write("hostile-null-island.log",
      ["Crafted: 5 Berlin fixes (epochs 0-4, 3 to start an old log), one at 0,0 (epoch 5), 4 Berlin again."],
      [(north(i), BERLIN[1], at(i)) for i in range(5)] + [(0.0, 0.0, at(5))]
      + [(north(i), BERLIN[1], at(i)) for i in range(6, 10)])
write("hostile-jump.log",
      ["Crafted: 5 Berlin fixes, then 5 in Munich (504 km in 1 s): held, the third Munich one is used."],
      [(north(i), BERLIN[1], at(i)) for i in range(5)]
      + [(MUNICH[0] + i * 0.0001, MUNICH[1], at(5 + i)) for i in range(5)])
ten_years = datetime.timedelta(days=3652)
write("hostile-dates.log",
      ["Crafted: 5 Berlin fixes, one RMC dated 1994 (epoch 5), one 10 years ahead (epoch 6), 3 Berlin."],
      [(north(i), BERLIN[1], at(i)) for i in range(5)]
      + [(north(5), BERLIN[1], at(5).replace(year=1994)), (north(6), BERLIN[1], at(6) + ten_years)]
      + [(north(i), BERLIN[1], at(i)) for i in range(7, 10)])
