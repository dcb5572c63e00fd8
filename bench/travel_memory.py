#!/usr/bin/python3
"""Memory of `fixcast run` while it travels: every reading at a new place (bench/README.md, "What grows
with travel").

A synthetic drive through a real gpsd (`gpsd -N -n -b` on a pseudo-terminal this script feeds with
NMEA RMC+GGA): due north along 10.75°E from 59°N, `--km-per-fix` km a fix (default 2.9), one fix a
second, so that every second fix is past `trigger.move_km` (5 km) and the weather cache (5 km) and every
reading asks for the weather at a new position. Weather comes from MET Norway's recorded answer (about 100 KB, served by the
loopback fixture server, Tests/Support/fixture_server.py), because that provider holds each answer it
got; places are offline, alerts and weather ahead off. `gps.max_speed_mps` is raised to its
largest allowed value (3,000 m/s) so that the receiver's jumps are believed.

Prints fixcast's RSS (VmRSS) every `--sample-s` seconds with the readings printed and the requests
served so far, and at the end VmHWM and the growth of RSS per 100 readings after the first sample.

usage: travel_memory.py --bin PATH [--seconds S] [--km-per-fix KM] [--sample-s S]
Everything started here is stopped on exit.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    sys.exit(f"travel_memory.py: gave up waiting for {what}")


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def checksum(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return f"{c:02X}"


def sentences(lat, lon, t):
    """RMC and GGA for a fix at (lat, lon) at UNIX time t."""
    hms = time.strftime("%H%M%S", time.gmtime(t)) + ".00"
    dmy = time.strftime("%d%m%y", time.gmtime(t))
    def dm(value, width):
        d = int(abs(value))
        return f"{d:0{width}d}{(abs(value) - d) * 60:07.4f}"
    ns = "N" if lat >= 0 else "S"
    ew = "E" if lon >= 0 else "W"
    rmc = f"GPRMC,{hms},A,{dm(lat, 2)},{ns},{dm(lon, 3)},{ew},9999.0,0.0,{dmy},,,A"
    gga = f"GPGGA,{hms},{dm(lat, 2)},{ns},{dm(lon, 3)},{ew},1,09,0.9,100.0,M,40.0,M,,"
    return "".join(f"${b}*{checksum(b)}\r\n" for b in (rmc, gga)).encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--km-per-fix", type=float, default=2.9)
    ap.add_argument("--sample-s", type=float, default=10)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="fixcast-travel-")
    procs = []
    try:
        api = os.path.join(ROOT, "Tests/FixcastTests/Fixtures/api")
        routes = {"/weatherapi/locationforecast/2.0/compact": [
            {"status": 200, "file": os.path.join(api, "metno-compact.json"),
             "headers": {"Content-Type": "application/json"}}]}
        cfg = os.path.join(work, "server.json")
        port_file = os.path.join(work, "port")
        log = os.path.join(work, "requests.jsonl")
        with open(cfg, "w") as f:
            json.dump({"port": 0, "port_file": port_file, "log": log, "routes": routes}, f)
        procs.append(subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "Tests/Support/fixture_server.py"), cfg]))
        wait_until(lambda: os.path.exists(port_file) and os.path.getsize(port_file) > 0, 10, "the fixture server")
        api_port = int(open(port_file).read().strip())

        master, slave = os.openpty()
        tty.setraw(slave)
        gpsd_port = free_port()
        procs.append(subprocess.Popen(["/usr/sbin/gpsd", "-N", "-n", "-b", "-S", str(gpsd_port), os.ttyname(slave)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

        def listening():
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", gpsd_port)) == 0
        wait_until(listening, 10, "gpsd to listen")
        time.sleep(0.5)

        env = dict(os.environ, HOME=work, XDG_CONFIG_HOME=work, XDG_DATA_HOME=work,
                   FIXCAST_WEATHER_PROVIDER="metno", FIXCAST_WEATHER_BASE_URL=f"http://127.0.0.1:{api_port}",
                   FIXCAST_PLACES_PROVIDER="offline", FIXCAST_ALERTS_ENABLED="false",
                   FIXCAST_AHEAD_ENABLED="false", FIXCAST_GPS_MAX_SPEED_MPS="3000")
        env.pop("FIXCAST_CONFIG", None)
        readings = os.path.join(work, "readings.jsonl")
        fixcast = subprocess.Popen([args.bin, "run", "--json", "--gpsd", f"127.0.0.1:{gpsd_port}",
                                    "--db", os.path.join(work, "run.sqlite")],
                                   stdout=open(readings, "w"), stderr=open(os.path.join(work, "fixcast.err"), "w"),
                                   env=env)
        procs.append(fixcast)

        def count(path):
            try:
                with open(path) as f:
                    return sum(1 for _ in f)
            except FileNotFoundError:
                return 0

        lat, lon = 59.0, 10.75
        step = args.km_per_fix / 111.2
        start = time.time()
        next_sample = start + args.sample_s
        samples = []
        print("s\treadings\trequests\trss_kb")
        while time.time() - start < args.seconds and fixcast.poll() is None:
            os.write(master, sentences(lat, lon, time.time()))
            lat += step
            time.sleep(1.0)
            if time.time() >= next_sample:
                row = (round(time.time() - start), count(readings), count(log), status_kb(fixcast.pid, "VmRSS"))
                samples.append(row)
                print("\t".join(str(v) for v in row), flush=True)
                next_sample += args.sample_s
        if fixcast.poll() is not None:
            sys.exit(f"fixcast ended early: {open(os.path.join(work, 'fixcast.err')).read()[:500]}")
        hwm = status_kb(fixcast.pid, "VmHWM")
        if len(samples) >= 2 and samples[-1][1] > samples[0][1]:
            growth = (samples[-1][3] - samples[0][3]) * 100 / (samples[-1][1] - samples[0][1])
            print(f"peak_rss_kb={hwm} growth_kb_per_100_readings={growth:.0f} readings={samples[-1][1]}")
        else:
            print(f"peak_rss_kb={hwm} (too few readings to tell a growth)")
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
