#!/usr/bin/python3
"""Every real receiver capture through a real gpsd into `fixcast run --json`: what is stored and said.

Each log (default: ../shared/gpsd-logs/*.log beside the checkout, gpsd's own regression captures) is
written into a pseudo-terminal that a gpsd of its own reads (`gpsd -N -n -b`), after fixcast has
connected, so nothing is lost to a late client (gpsfake's pitfall, ../shared/gpsd-logs/NOTES.md).
Weather goes to a closed loopback port, places are offline, alerts and ahead are off: only the
receiver's side is under test. Prints one row a log: exit status, readings, track points (count,
fix-time range, bounding box, modes), the rejected fixes by reason, and the first lines of stderr.

  bench/receivers.py [--bin PATH] [--delay S] [LOG ...]

Needs gpsd and python3; PATH defaults to .build/release/fixcast (scripts/build-release.sh).
"""
import argparse, glob, json, os, pty, signal, socket, sqlite3, subprocess, sys, tempfile, time, tty

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
ap = argparse.ArgumentParser()
ap.add_argument("--bin", default=os.path.join(root, ".build/release/fixcast"))
ap.add_argument("--delay", type=float, default=0.005, help="seconds between the log's lines")
ap.add_argument("logs", nargs="*")
args = ap.parse_args()
logs = args.logs or sorted(glob.glob(os.path.join(root, "..", "shared", "gpsd-logs", "*.log")))
if not logs:
    sys.exit("receivers.py: no logs given and none in ../shared/gpsd-logs")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


work = tempfile.mkdtemp(prefix="fixcast-receivers.")
for log in logs:
    name = os.path.basename(log).removesuffix(".log")
    master, slave = pty.openpty()
    tty.setraw(slave)
    port = free_port()
    gpsd = subprocess.Popen(["/usr/sbin/gpsd", "-N", "-n", "-b", "-S", str(port), os.ttyname(slave)],
                            stderr=subprocess.DEVNULL)
    time.sleep(0.7)
    env = dict(os.environ, HOME=os.path.join(work, "home-" + name), FIXCAST_WEATHER_BASE_URL="http://127.0.0.1:9",
               FIXCAST_PLACES_PROVIDER="offline", FIXCAST_ALERTS_ENABLED="false", FIXCAST_AHEAD_ENABLED="false")
    db = os.path.join(work, name + ".db")
    err_path = os.path.join(work, name + ".err")
    with open(os.path.join(work, name + ".jsonl"), "w") as out, open(err_path, "w") as err:
        fx = subprocess.Popen([args.bin, "run", "--json", "--gpsd", f"127.0.0.1:{port}", "--db", db],
                              stdout=out, stderr=err, env=env)
        try:
            time.sleep(1.5)
            started = time.time()
            # gpsfake's header and delay cookies are '#' lines; the rest is the receiver's bytes.
            for line in open(log, "rb").read().split(b"\n"):
                if not line.startswith(b"#"):
                    os.write(master, line + b"\n")
                    time.sleep(args.delay)
            time.sleep(3)
            fx.send_signal(signal.SIGTERM)
            try:
                rc = fx.wait(10)
            except subprocess.TimeoutExpired:
                fx.kill()
                rc = "did not stop in 10 s"
        finally:
            if fx.poll() is None:
                fx.kill()
            gpsd.kill()
            gpsd.wait()
            os.close(master)
            os.close(slave)
    con = sqlite3.connect(db)
    track = con.execute(
        "SELECT count(*), datetime(min(fix_time),'unixepoch'), datetime(max(fix_time),'unixepoch'),"
        " round(min(lat),4), round(max(lat),4), round(min(lon),4), round(max(lon),4), group_concat(DISTINCT mode)"
        " FROM track_points").fetchone()
    readings = con.execute("SELECT count(*) FROM readings").fetchone()[0]
    rejected = con.execute("SELECT value FROM state WHERE key = 'gps.rejected_fixes'").fetchone()
    con.close()
    print(f"{name}: exit {rc}, fed in {time.time() - started:.0f} s, {readings} readings, track {track},"
          f" rejected {json.loads(rejected[0]) if rejected else {}}")
    for line in open(err_path).read().splitlines()[:4]:
        print("  stderr:", line[:160])
print(f"(stores and output in {work})")
