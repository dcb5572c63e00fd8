#!/usr/bin/python3
"""Benchmark of `fixcast run` (issue 5), driven by bench/run.sh.

Replays a long real NMEA track through a real gpsd (`gpsd -N -n -b` on a pseudo-terminal this script
feeds), with `fixcast run --json` and gpsd's own `gpxlogger` attached to that gpsd at the same time, and
`gpspipe -w` as an independent counter of the fixes gpsd emitted. Weather comes from the loopback fixture
server (Tests/Support/fixture_server.py) replaying a recorded Open-Meteo response; places are offline
unless --places nominatim (then a recorded Nominatim answer from the same server).

Prints, side by side: CPU seconds per 1,000 fixes for fixcast and gpxlogger (utime+stime from
/proc/PID/stat read just before stopping each; also the replay-only share, without start-up), the peak RSS
(VmHWM from /proc just before stopping; not wait4's ru_maxrss, which on Linux keeps the forking Python's
pre-exec peak), fixcast's RSS sampled every few seconds, and fixcast's idle CPU and wake-ups with no data: before
the first fix (the startup fix wait's own deadlines fall there) and parked after the drive.

usage: run.py --bin PATH [--track FILE] [--rate EPOCHS_PER_S] [--places offline|nominatim]
              [--sample-s S] [--repeat N (each pass 7 days later)] [--idle-s S]
              [--live: on the live screen in a tmux pane, not --json]
              [--bin-b PATH (with --live): a second fixcast in a pane of its own on the same gpsd, measured
               over the same window: an A/B of two builds under the same load, run it again swapped]
              [--warmup-s S --window-s S: CPU (every thread's /proc/PID/task/*/schedstat, in ns) and
               context switches of both programs over the same window of feed, after a warm-up]
              [--gpxlogger-first: gpxlogger and gpspipe connect to gpsd before fixcast, so gpsd delivers
               each report to gpxlogger first (bench/README.md, "Reading an epoch a moment after it came")]
Everything started here is stopped on exit, also on SIGINT/SIGTERM.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


class Stop(Exception):
    pass


def on_signal(signum, _frame):
    raise Stop(f"signal {signum}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    """utime + stime of a live process, in seconds (fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def thread_stats(pid):
    """{tid: (name, ns on CPU, context switches)} for every live thread of `pid`."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                ns = int(f.read().split()[0])
            sw = 0
            name = "?"
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                for line in f:
                    if line.startswith("Name:"):
                        name = line.split(None, 1)[1].strip()
                    elif line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                        sw += int(line.split()[1])
            out[tid] = (name, ns, sw)
        except (OSError, ValueError, IndexError):
            pass
    return out


def thread_delta(before, after):
    """CPU ns and switches between two `thread_stats` snapshots, per thread name: a thread that ended
    in between is left out (its counts went with it), one that started counts from zero."""
    by_name = {}
    for tid, (name, ns, sw) in after.items():
        ns0, sw0 = (before[tid][1], before[tid][2]) if tid in before else (0, 0)
        a, b = by_name.get(name, (0, 0))
        by_name[name] = (a + ns - ns0, b + sw - sw0)
    return by_name


def cpu_ns_threads(pid):
    """Nanoseconds on CPU summed over every live thread of `pid` (first field of
    /proc/PID/task/TID/schedstat): exact, where utime/stime count 10 ms ticks."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def switches_threads(pid):
    """Context switches (voluntary + involuntary) summed over every live thread of `pid`: each is a
    wake-up or a preemption."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                        total += int(line.split()[1])
        except (OSError, ValueError):
            pass
    return total


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return None


def established(port):
    """gpsd-side connections to `port` (local port == port, state ESTABLISHED)."""
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    parts = line.split()
                    if int(parts[1].rsplit(":", 1)[1], 16) == port and parts[3] == "01":
                        n += 1
        except FileNotFoundError:
            pass
    return n


def has_open(pid, path):
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == path:
                    return True
            except OSError:
                pass
    except OSError:
        pass
    return False


def wait_until(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise Stop(f"timed out waiting for {what}")


def epochs(path):
    """The track's NMEA lines grouped into epochs: a new epoch starts at each sentence of the type that
    opens the log (RMC for a Garmin log). Non-NMEA lines (logger banners, blanks) are dropped."""
    groups, current, opener = [], [], None
    with open(path, "rb") as f:
        for raw in f:
            line = raw.strip()
            if not line.startswith(b"$"):
                continue
            kind = line[3:6] if line.startswith(b"$G") else line.split(b",", 1)[0]
            if opener is None:
                opener = kind
            if kind == opener and current:
                groups.append(b"".join(current))
                current = []
            current.append(line + b"\r\n")
    if current:
        groups.append(b"".join(current))
    return groups


def nmea_checksum(body):
    x = 0
    for b in body:
        x ^= b
    return b"%02X" % x


def shifted(group, days):
    """An epoch with its RMC date moved `days` later (checksums redone), so a repeated track goes on in
    time instead of jumping back (fixcast would drop fixes older than the last as stale)."""
    if days == 0:
        return group
    import datetime
    out = []
    for line in group.split(b"\r\n"):
        if line[3:6] == b"RMC" and b"*" in line:
            fields = line[1:line.index(b"*")].split(b",")
            if len(fields) > 9 and len(fields[9]) == 6:
                d = datetime.datetime.strptime(fields[9].decode(), "%d%m%y") + datetime.timedelta(days=days)
                fields[9] = d.strftime("%d%m%y").encode()
                body = b",".join(fields)
                line = b"$" + body + b"*" + nmea_checksum(body)
        out.append(line)
    return b"\r\n".join(out)


class Attached:
    """A process we did not start ourselves (fixcast in a tmux pane), with Popen's poll/wait/kill."""

    def __init__(self, pid):
        self.pid = pid
        self.returncode = None

    def poll(self):
        if os.path.exists(f"/proc/{self.pid}") and not open(f"/proc/{self.pid}/stat").read().split(") ")[1].startswith("Z"):
            return None
        self.returncode = "(in tmux)"
        return self.returncode

    def send_signal(self, signum):
        try:
            os.kill(self.pid, signum)
        except ProcessLookupError:
            pass

    def wait(self, timeout=None):
        deadline = time.monotonic() + (timeout or 3600)
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout)
            time.sleep(0.05)
        return self.returncode

    def kill(self):
        self.send_signal(signal.SIGKILL)


class TmuxServer(Attached):
    """The tmux server of the live-screen run, stopped with kill-server on its own socket."""

    def __init__(self, sock):
        self.sock = sock
        pid = subprocess.run(["tmux", "-S", sock, "display-message", "-p", "#{pid}"],
                             capture_output=True, text=True).stdout.strip()
        super().__init__(int(pid) if pid.isdigit() else 0)

    def send_signal(self, signum):
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--track", default=os.path.join(ROOT, "demo/reno_tahoe_garmin.nmea"))
    ap.add_argument("--rate", type=float, default=50.0, help="epochs fed per second")
    ap.add_argument("--places", choices=["offline", "nominatim"], default="offline")
    ap.add_argument("--sample-s", type=float, default=5.0)
    ap.add_argument("--repeat", type=int, default=1, help="feed the track this many times")
    ap.add_argument("--idle-s", type=float, default=10.0, help="measure CPU with no data for this long first")
    ap.add_argument("--warmup-s", type=float, default=0.0,
                    help="feed this long before the measured window opens (the startup reading falls here)")
    ap.add_argument("--mqtt", action="store_true",
                    help="publish to a mosquitto started on a free loopback port (issue 13's cost of MQTT)")
    ap.add_argument("--live", action="store_true",
                    help="fixcast on its live screen in a real terminal: a tmux pane of 100 x 24, not --json")
    ap.add_argument("--bin-b", metavar="PATH",
                    help="with --live and a window: a second fixcast (another build) beside the first, on the "
                         "same gpsd and the same fixes, so machine noise hits both; swap the two and run again")
    ap.add_argument("--ahead", metavar="ROUTE.gpx", nargs="?", const=os.path.join(ROOT, "demo/reno_tahoe_route.gpx"),
                    help="weather ahead on, along this route (default: the demo drive's own; 'none': no route); "
                         "the loopback server answers the multi-location form and the ahead requests are counted")
    ap.add_argument("--window-s", type=float, default=0.0,
                    help="measure over this long a window of feed, then stop feeding (0: the whole track)")
    ap.add_argument("--gpxlogger-first", action="store_true",
                    help="gpxlogger (and gpspipe) connect to gpsd before fixcast, so gpsd delivers each report to "
                         "it first; the idle measurement is then at most 1 s (gpxlogger leaves after 5 s without data)")
    args = ap.parse_args()
    if args.bin_b and not (args.live and args.window_s > 0):
        ap.error("--bin-b needs --live and --window-s")
    if args.gpxlogger_first:
        args.idle_s = min(args.idle_s, 1.0)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    work = tempfile.mkdtemp(prefix="fixcast-bench-run-")
    procs = {}  # name -> Popen, stopped in reverse order of start
    master = slave = None
    try:
        # Loopback API server.
        api = os.path.join(ROOT, "Tests/FixcastTests/Fixtures/api")
        routes = {"/v1/forecast": [{"status": 200, "file": os.path.join(ROOT, "demo/open-meteo-forecast.json")}],
                  "/reverse": [{"status": 200, "file": os.path.join(api, "nominatim-reverse-jsonv2-zoom12.json")}],
                  # The drive is in the US: NWS alerts, the recorded "none active" answer (else the default
                  # base URL sends fixcast to resolve api.weather.gov, which is not loopback).
                  "/alerts/active": [{"status": 200, "file": os.path.join(ROOT, "demo/nws-alerts-none.json"),
                                      "headers": {"Content-Type": "application/geo+json"}}],
                  "/ahead/v1/forecast": [{"status": 200, "multi_location": True, "rebase_hours": True,
                                          "file": os.path.join(api, "open-meteo-ahead-multi-location.json")}]}
        server_cfg = os.path.join(work, "server.json")
        with open(server_cfg, "w") as f:
            json.dump({"port": 0, "port_file": os.path.join(work, "port"),
                       "log": os.path.join(work, "requests.jsonl"), "routes": routes}, f)
        procs["server"] = subprocess.Popen(["/usr/bin/python3", os.path.join(ROOT, "Tests/Support/fixture_server.py"),
                                            server_cfg])
        port_file = os.path.join(work, "port")
        wait_until(lambda: os.path.exists(port_file) and os.path.getsize(port_file) > 0, 10, "the fixture server")
        api_port = int(open(port_file).read().strip())

        # gpsd on a pty of ours; we hold the slave open (raw) so the device stays.
        master, slave = os.openpty()
        tty.setraw(slave)
        slave_path = os.ttyname(slave)
        gpsd_port = free_port()
        gpsd_log = open(os.path.join(work, "gpsd.log"), "w")
        procs["gpsd"] = subprocess.Popen(["/usr/sbin/gpsd", "-N", "-n", "-b", "-S", str(gpsd_port), slave_path],
                                         stdout=gpsd_log, stderr=gpsd_log)

        def listening():
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", gpsd_port)) == 0
        wait_until(listening, 10, "gpsd to listen")
        time.sleep(0.3)  # let gpsd drop the probe connection
        wait_until(lambda: established(gpsd_port) == 0, 5, "gpsd to drop the probe")

        env = dict(os.environ, XDG_CONFIG_HOME=work, HOME=work, FIXCAST_PLACES_PROVIDER=args.places,
                   FIXCAST_WEATHER_BASE_URL=f"http://127.0.0.1:{api_port}",
                   FIXCAST_PLACES_BASE_URL=f"http://127.0.0.1:{api_port}",
                   FIXCAST_ALERTS_NWS_BASE_URL=f"http://127.0.0.1:{api_port}")
        env.pop("FIXCAST_CONFIG", None)
        if args.ahead:
            env.update({"FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": f"http://127.0.0.1:{api_port}/ahead",
                        "FIXCAST_AHEAD_ROUTE": "" if args.ahead == "none" else os.path.abspath(args.ahead)})
        else:
            # ahead.enabled is on by default and would ask the public API: a bench talks to 127.0.0.1 only.
            env["FIXCAST_AHEAD_ENABLED"] = "false"
        if args.mqtt:
            mqtt_port = free_port()
            with open(os.path.join(work, "mosquitto.conf"), "w") as f:
                f.write(f"listener {mqtt_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
            procs["mosquitto"] = subprocess.Popen(["/usr/sbin/mosquitto", "-c", os.path.join(work, "mosquitto.conf")],
                                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_until(lambda: socket.socket().connect_ex(("127.0.0.1", mqtt_port)) == 0, 10, "mosquitto to listen")
            env.update({"FIXCAST_MQTT_ENABLED": "true", "FIXCAST_MQTT_PORT": str(mqtt_port),
                        "FIXCAST_MQTT_DEVICE_ID": "bench"})
        addr = f"127.0.0.1:{gpsd_port}"
        readings_path = os.path.join(work, "readings.jsonl")
        db_path = os.path.join(work, "run.sqlite")
        gpx_path = os.path.join(work, "track.gpx")

        def start_observers():
            """gpspipe (the independent count of fixes) and gpxlogger (the reference), as gpsd clients."""
            procs["gpspipe"] = subprocess.Popen(["/usr/bin/gpspipe", "-w", "-o", os.path.join(work, "gpspipe.json"),
                                                 addr], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            procs["gpxlogger"] = subprocess.Popen(["/usr/bin/gpxlogger", "-e", "sockets", "-f", gpx_path, addr],
                                                  stdout=subprocess.DEVNULL,
                                                  stderr=open(os.path.join(work, "gpxlogger.err"), "w"))

        # Clients of gpsd before fixcast's: gpsd delivers to its clients in the order they connected.
        ahead_of_fixcast = 0
        if args.gpxlogger_first:
            start_observers()
            wait_until(lambda: established(gpsd_port) >= 2, 20, "gpxlogger and gpspipe to connect to gpsd")
            ahead_of_fixcast = 2
        if args.live:
            # The live screen in a real terminal: tmux on a socket of its own, one pane of 100 x 24 running
            # fixcast itself (exec, so the pane's process is fixcast), stderr to a file as headless.
            tmux_env = {k: v for k, v in env.items()}
            tmux_env["TERM"] = "xterm-256color"

            def live_pane(name, binary, db, err):
                sock = os.path.join(work, name + ".tmux.sock")
                command = " ".join(["exec", binary, "run", "--gpsd", addr, "--db", db, "2>" + err])
                subprocess.run(["tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "24",
                                command], env=tmux_env, check=True)
                procs["tmux " + name] = TmuxServer(sock)
                pane = subprocess.run(["tmux", "-S", sock, "list-panes", "-F", "#{pane_pid}"],
                                      capture_output=True, text=True, check=True).stdout.split()[0]
                procs[name] = Attached(int(pane))

            live_pane("fixcast", args.bin, db_path, os.path.join(work, "fixcast.err"))
            open(readings_path, "w").close()
            if args.bin_b:
                # After A has connected, so that each is one client of gpsd's, in a known order.
                wait_until(lambda: established(gpsd_port) >= ahead_of_fixcast + 1, 20, "fixcast to connect to gpsd")
                live_pane("fixcast_b", args.bin_b, os.path.join(work, "run-b.sqlite"),
                          os.path.join(work, "fixcast-b.err"))
        else:
            procs["fixcast"] = subprocess.Popen([args.bin, "run", "--json", "--gpsd", addr, "--db", db_path],
                                                stdout=open(readings_path, "w"),
                                                stderr=open(os.path.join(work, "fixcast.err"), "w"), env=env)
        fixcast_pid = procs["fixcast"].pid
        clients = 2 if args.bin_b else 1
        wait_until(lambda: established(gpsd_port) >= ahead_of_fixcast + clients, 20, "fixcast to connect to gpsd")
        time.sleep(1.0)
        # fixcast's background cost: connected, no data (timers and polls only). Measured before gpxlogger
        # starts, because gpxlogger gives up after 5 s without data (with --gpxlogger-first it is already
        # connected, so this lasts at most 1 s).
        idle_before = cpu_seconds(fixcast_pid)
        idle_threads_before = thread_stats(fixcast_pid)
        time.sleep(args.idle_s)
        idle_fixcast = cpu_seconds(fixcast_pid) - idle_before
        idle_by_thread = thread_delta(idle_threads_before, thread_stats(fixcast_pid))
        idle_ns = sum(v[0] for v in idle_by_thread.values())
        idle_sw = sum(v[1] for v in idle_by_thread.values())
        if not args.gpxlogger_first:
            start_observers()
        wait_until(lambda: established(gpsd_port) >= clients + 2 and has_open(procs["gpsd"].pid, slave_path), 20,
                   "fixcast, gpxlogger and gpspipe to connect to gpsd")
        time.sleep(0.5)

        one = epochs(args.track)
        groups = [shifted(g, 7 * k) for k in range(args.repeat) for g in one]
        gpx_pid = procs["gpxlogger"].pid
        cpu_before = {"fixcast": cpu_seconds(fixcast_pid), "gpxlogger": cpu_seconds(gpx_pid)}
        samples = []  # (seconds since feed start, fixcast VmRSS kB, gpxlogger VmRSS kB)
        start = time.monotonic()
        next_sample = start
        window = None  # (start time, {name: (ns, switches)}) once the window opens
        window_result = None
        window_reading_lines = None
        measured = ("fixcast", "gpxlogger") + (("fixcast_b",) if args.bin_b else ())
        for i, group in enumerate(groups):
            now = time.monotonic()
            if window is None and now - start >= args.warmup_s and (args.warmup_s > 0 or args.window_s > 0):
                window = (now, {n: thread_stats(procs[n].pid) for n in measured}, i)
                window_reading_lines = sum(1 for l in open(readings_path, errors="replace") if l.strip())
            if window is not None and args.window_s > 0 and now - window[0] >= args.window_s:
                break
            if now >= next_sample:
                samples.append((now - start, status_kb(fixcast_pid, "VmRSS"), status_kb(gpx_pid, "VmRSS")))
                next_sample += args.sample_s
            for name in measured:
                if procs[name].poll() is not None:
                    raise Stop(f"{name} exited {procs[name].returncode} during the replay")
            os.write(master, group)
            delay = start + (i + 1) / args.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        feed_s = time.monotonic() - start
        if window is not None:
            # Closed at the last epoch fed, before the drain pause, so both programs are measured over
            # exactly the same fixes.
            time.sleep(0.5)
            w_end = time.monotonic()
            window_result = {"s": w_end - window[0], "epochs": i - window[2]}
            for n in measured:
                by_thread = thread_delta(window[1][n], thread_stats(procs[n].pid))
                window_result[n] = (sum(v[0] for v in by_thread.values()), sum(v[1] for v in by_thread.values()))
                window_result[n + "_threads"] = by_thread
            window_result["readings"] = sum(1 for l in open(readings_path, errors="replace") if l.strip()) \
                - window_reading_lines
        time.sleep(2.0)  # gpsd and the clients drain the last epochs
        samples.append((time.monotonic() - start, status_kb(fixcast_pid, "VmRSS"), status_kb(gpx_pid, "VmRSS")))

        # CPU and peak RSS just before stopping each, then stop and take wait4's view as well.
        result = {}
        parked = None
        for name in ("gpxlogger", "fixcast"):
            p = procs[name]
            if name == "fixcast":
                # Which threads it has at the end (a libdispatch pool would show as com.apple.root.*).
                names = []
                for tid in os.listdir(f"/proc/{p.pid}/task"):
                    try:
                        names.append(open(f"/proc/{p.pid}/task/{tid}/comm").read().strip())
                    except OSError:
                        pass
                threads_at_end = sorted(names)
            if name == "fixcast" and args.idle_s > 0:
                # fixcast parked: the drive is over, gpsd still connected, the receiver silent (after the
                # startup fix wait, whose own deadlines fall into the first idle measure). Taken after
                # gpxlogger is stopped, because gpxlogger gives up after 5 s without data; and after the
                # last read and writes, which are data, not wake-ups "just in case": headless, fixcast
                # reads a 1 Hz receiver's reports every 10 s (ReportGathering), so the last of the drive
                # is read up to 10 s after it came (its points written with it), and the window that read
                # opened ends 10 s later, finds the socket empty, and leaves it to wake the loop again.
                # 15 s after that last read with fixes the receiver's silence counts (ReceiverSilence:
                # its fix is lost, said once on stderr, one wake-up): up to 25 s after the last fix.
                time.sleep(30.5)
                parked_before = thread_stats(p.pid)
                time.sleep(args.idle_s)
                parked = thread_delta(parked_before, thread_stats(p.pid))
            cpu = cpu_seconds(p.pid)
            hwm = status_kb(p.pid, "VmHWM")
            if name == "fixcast":
                rss_parts = {k: status_kb(p.pid, k) for k in ("RssAnon", "RssFile", "RssShmem")}
                if os.environ.get("BENCH_SMAPS"):  # where the resident pages are, mapping by mapping
                    shutil.copyfile(f"/proc/{p.pid}/smaps", os.environ["BENCH_SMAPS"])
            os.kill(p.pid, signal.SIGTERM)
            if isinstance(p, Attached):  # tmux's child, not ours: no wait4, so the CPU read before stopping
                p.wait(10)
                result[name] = {"cpu": cpu, "cpu_replay": cpu - cpu_before[name], "hwm": hwm,
                                "cpu_wait4": cpu, "exit": "(in tmux)"}
                continue
            _, status, ru = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            result[name] = {"cpu": cpu, "cpu_replay": cpu - cpu_before[name], "hwm": hwm,
                            "cpu_wait4": ru.ru_utime + ru.ru_stime, "exit": p.returncode}
        procs["gpspipe"].send_signal(signal.SIGTERM)
        procs["gpspipe"].wait(5)

        # Counts.
        tpv = tpv_fix = 0
        with open(os.path.join(work, "gpspipe.json"), errors="replace") as f:
            for line in f:
                if '"class":"TPV"' in line:
                    tpv += 1
                    try:
                        if json.loads(line).get("mode", 0) >= 2:
                            tpv_fix += 1
                    except ValueError:
                        pass
        gpx_text = open(gpx_path, errors="replace").read() if os.path.exists(gpx_path) else ""
        trkpts = gpx_text.count("<trkpt")
        triggers = {}
        with open(readings_path, errors="replace") as f:
            lines = [l for l in f if l.strip()]
        for line in lines:
            try:
                t = json.loads(line).get("trigger", "?")
            except ValueError:
                t = "unparsable"
            triggers[t] = triggers.get(t, 0) + 1
        requests = 0
        ahead_asked = []  # (seconds since the feed started, locations) of each ahead request
        req_log = os.path.join(work, "requests.jsonl")
        if os.path.exists(req_log):
            for line in open(req_log, errors="replace"):
                requests += 1
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if r.get("path", "").startswith("/ahead/"):
                    lats = [q for q in r.get("query", "").split("&") if q.startswith("latitude=")]
                    ahead_asked.append((r.get("time", 0) - (time.time() - time.monotonic()) - start,
                                        len(lats[0].split(",")) if lats else 0))
        rows = ""
        try:
            rows = subprocess.run(["sqlite3", os.path.join(work, "run.sqlite"),
                                   "select (select count(*) from readings)||' readings, '||"
                                   "(select count(*) from track_points)||' track points'"],
                                  capture_output=True, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass

        fixes = tpv_fix
        f, g = result["fixcast"], result["gpxlogger"]

        def per_k(cpu):
            return cpu / fixes * 1000 if fixes else float("nan")

        print(f"track: {os.path.relpath(args.track, ROOT)} x{args.repeat}: {len(groups)} epochs fed at "
              f"{args.rate:g}/s in {feed_s:.1f} s; places: {args.places}")
        print(f"gpsd emitted {tpv} TPV, {tpv_fix} with a fix (gpspipe -w); gpxlogger wrote {trkpts} trkpt")
        if args.mqtt:
            print("MQTT: on (mosquitto on loopback)")
        if args.live:
            print("fixcast run: on the live screen in a tmux pane of 100 x 24 (readings counted in the store)")
        print(f"fixcast run: {len(lines)} readings {dict(sorted(triggers.items()))}; "
              f"{requests} API requests; store: {rows or '?'}; exit {f['exit']}")
        if args.ahead:
            gaps = [b[0] - a[0] for a, b in zip(ahead_asked, ahead_asked[1:])]
            print(f"ahead: route {os.path.relpath(args.ahead, ROOT) if args.ahead != 'none' else 'none'}; "
                  f"{len(ahead_asked)} requests, {sum(n for _, n in ahead_asked)} call units (locations "
                  + ", ".join(str(n) for _, n in ahead_asked) + "); at "
                  + ", ".join(f"{t:.0f}" for t, _ in ahead_asked) + " s into the feed"
                  + (f"; least between two: {min(gaps):.0f} s" if gaps else ""))
        print()
        print(f"{'':34}{'fixcast run':>14}{'gpxlogger':>14}")
        print(f"{'CPU s (utime+stime, before stop)':34}{f['cpu']:>14.2f}{g['cpu']:>14.2f}")
        print(f"{'CPU s per 1,000 fixes':34}{per_k(f['cpu']):>14.3f}{per_k(g['cpu']):>14.3f}")
        print(f"{'  replay only (no start-up)':34}{per_k(f['cpu_replay']):>14.3f}{per_k(g['cpu_replay']):>14.3f}")
        print(f"{'CPU s incl. shutdown (wait4)':34}{f['cpu_wait4']:>14.2f}{g['cpu_wait4']:>14.2f}")
        if args.idle_s > 0:
            print(f"{'idle CPU ms per s (no data)':34}{idle_fixcast / args.idle_s * 1000:>14.1f}{'-':>14}")
            print(f"{'idle: CPU us, switches (threads)':34}{f'{idle_ns / 1000:.0f} us, {idle_sw}':>14}{'-':>14}"
                  f"   over {args.idle_s:g} s: "
                  + ", ".join(f"{name} {sw}" for name, (ns, sw) in idle_by_thread.items() if sw))
        print(f"{'fixcast threads at the end':34}{len(threads_at_end):>14}{'':>14}   {', '.join(threads_at_end)}")
        if parked is not None:
            p_ns = sum(v[0] for v in parked.values())
            p_sw = sum(v[1] for v in parked.values())
            print(f"{'parked: CPU us, switches (threads)':34}{f'{p_ns / 1000:.0f} us, {p_sw}':>14}{'-':>14}"
                  f"   over {args.idle_s:g} s after the drive: "
                  + (", ".join(f"{name} {sw}" for name, (ns, sw) in parked.items() if sw) or "no wake-ups"))
        if window_result:
            wf, wg = window_result["fixcast"], window_result["gpxlogger"]
            print(f"window: {window_result['s']:.1f} s, {window_result['epochs']} epochs, "
                  f"{window_result['readings']} readings taken in it (all threads' schedstat)")
            print(f"{'  CPU ms in the window':34}{wf[0] / 1e6:>14.1f}{wg[0] / 1e6:>14.1f}")
            print(f"{'  context switches in the window':34}{wf[1]:>14}{wg[1]:>14}")
            print(f"{'  ratio fixcast / gpxlogger':34}{wf[0] / max(1, wg[0]):>14.2f}{wf[1] / max(1, wg[1]):>14.2f}"
                  "   (CPU, switches)")
            busy = sorted(window_result["fixcast_threads"].items(), key=lambda kv: -kv[1][1])
            print("  fixcast by thread (CPU ms, switches): "
                  + ", ".join(f"{name} {ns / 1e6:.1f}/{sw}" for name, (ns, sw) in busy if ns or sw))
            if args.bin_b:
                wb = window_result["fixcast_b"]
                print(f"  B ({args.bin_b}), same window: CPU ms {wb[0] / 1e6:.1f}, switches {wb[1]}; "
                      f"ratio B / gpxlogger {wb[0] / max(1, wg[0]):.2f} / {wb[1] / max(1, wg[1]):.2f}; "
                      f"B / A {wb[0] / max(1, wf[0]):.2f} (CPU)")
                busy_b = sorted(window_result["fixcast_b_threads"].items(), key=lambda kv: -kv[1][1])
                print("  B by thread (CPU ms, switches): "
                      + ", ".join(f"{name} {ns / 1e6:.1f}/{sw}" for name, (ns, sw) in busy_b if ns or sw))
        print(f"{'peak RSS kB (VmHWM before stop)':34}{f['hwm']:>14}{g['hwm']:>14}")
        print(f"{'  fixcast RSS before stop, kB':34}" + ", ".join(f"{k[3:].lower()} {v}" for k, v in rss_parts.items()))
        print()
        print("RSS samples (s since feed start: fixcast kB / gpxlogger kB):")
        print("  " + ", ".join(f"{t:.0f}s {a}/{b}" for t, a, b in samples))
        if len(samples) > 2:
            rss = [a for _, a, _ in samples[1:] if a]
            print(f"  fixcast after the first sample: min {min(rss)} kB, max {max(rss)} kB, "
                  f"spread {max(rss) - min(rss)} kB")
        print()
        print("targets: fixcast CPU per 1,000 fixes <= gpxlogger's; fixcast run peak RSS <= 26624 kB (26 MB), flat")
        err = open(os.path.join(work, "fixcast.err"), errors="replace").read().strip()
        if err:
            print("fixcast stderr (last lines): " + " | ".join(err.splitlines()[-3:]))
        return 0
    except Stop as e:
        print(f"bench/run.py: stopped: {e}", file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for name in reversed(list(procs)):
            p = procs[name]
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)
        if os.environ.get("BENCH_KEEP"):
            print(f"kept {work}", file=sys.stderr)
        else:
            subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
