#!/usr/bin/env python3
"""Instructions a fix costs on the live screen, counted by valgrind's callgrind: a figure that does not
move with the machine's load, for an A/B of a per-fix change in fixcast's own code.

    bench/instructions.py --bin PATH [--warmup-s 45] [--window-s 50] [--gpxlogger] [--write-order FILE]

Runs `bench/run.py --live --rate 1` with the binary under `valgrind --tool=callgrind` (debug info
stripped from a copy: valgrind 3.19 cannot read the toolchain's DWARF 5), turns instrumentation on after
the warm-up (the startup reading falls before it), counts over the window and prints instructions per
second of 1 Hz feed (one fix a second) by library and by part of a fix. Instructions are not time: at one
fix a second caches are cold and the kernel's share is not counted; compare builds with this, and the
CPU beside gpxlogger with `bench/run.py --bin-b`. With `--gpxlogger`, gpsd's own gpxlogger is counted the same
way over the same window (a second client of the same gpsd). With `--write-order FILE` it writes the
functions of fixcast's own binary that ran in the window, those that ran at every fix first, as the
linker's symbol ordering file (scripts/function-order.txt; scripts/build-release.sh says why). Needs
valgrind (Debian package `valgrind`).
"""
import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Each instruction's address is kept (for the lines of code); counting starts when turned on.
# Names stay mangled (the linker's ordering file needs them so; the parts below match mangled names).
CALLGRIND = ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--instr-atstart=no", "--demangle=no"]

# Parts of a fix, by the inclusive cost of these functions (first match of a mangled or C name).
PARTS = [
    ("libgps parse (gps_unpack)", r"^gps_unpack$"),
    ("screen: whole frames (LiveScreen.frame)", r"LiveScreenO5frame_3now5width6height7options"),
    ("screen: every frame (LiveDisplay.redraw)", r"LiveDisplayC6redraw_3now"),
    ("store: track commits (appendTrackPoints)", r"SQLiteStoreC17appendTrackPoints_9lastKnown.*StorageErrorOYKF$"),
    ("reducer (AgentReducer.handle)", r"^\$s11FixcastCore12AgentReducerV6handleySayAA0C6EffectOGAA0C5EventOF$"),
    ("gpsd read (GPSDConnection.readAvailable)", r"GPSDConnectionC13readAvailable4into2at"),
]


def parse(path):
    """From a callgrind file: self cost by object, inclusive cost and calls by function, the 64-byte
    lines of code executed (with --dump-instr=yes), by object, and self cost by (object, function)."""
    names, objects = {}, {}
    self_by_obj = collections.Counter()
    self_by_fn = collections.Counter()
    incl, calls = collections.Counter(), collections.Counter()
    lines_by_obj = collections.defaultdict(set)
    lines_by_fn = collections.defaultdict(set)
    ob = fn = cfn = None
    pending = None
    total = 0
    columns = 1  # position columns before the cost ("positions: instr line" gives 2)
    last = [0, 0]

    def position(token, i):
        if token == "*":
            return last[i]
        if token[0] in "+-":
            last[i] += int(token)
        else:
            last[i] = int(token, 16) if token.startswith("0x") else int(token)
        return last[i]

    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("positions:"):
            columns = len(line.split()) - 1
            continue
        m = re.match(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, ident, name = m.groups()
            table = objects if kind.endswith("ob") else names
            if name:
                table[ident] = name
            if kind == "ob":
                ob = ident
            elif kind == "fn":
                fn = ident
            elif kind == "cfn":
                cfn = ident
            continue
        m = re.match(r"calls=(\d+)", line)
        if m:
            pending = int(m.group(1))
            continue
        parts = line.split()
        if len(parts) > columns and re.match(r"^([+\-]?\d+|0x[0-9a-f]+|\*)$", parts[0]):
            where = [position(parts[i], i) for i in range(columns)]
            cost = int(parts[columns]) if parts[columns].isdigit() else 0
            if pending is not None:
                incl[cfn] += cost
                calls[cfn] += pending
                pending = None
            else:
                self_by_obj[objects.get(ob, ob)] += cost
                self_by_fn[(objects.get(ob, ob), fn)] += cost
                total += cost
                if columns == 2 and cost > 0:
                    lines_by_obj[objects.get(ob, ob)].add(where[0] // 64)
                    lines_by_fn[(objects.get(ob, ob), fn)].add(where[0] // 64)
    return (total, self_by_obj, {names.get(k, k): v for k, v in incl.items()},
            {names.get(k, k): v for k, v in calls.items()}, lines_by_obj,
            {(o, names.get(f, f)): v for (o, f), v in self_by_fn.items()},
            {(o, names.get(f, f)): v for (o, f), v in lines_by_fn.items()})


def unsplit_symbols():
    """Names defined in a section that holds more than one function: the toolchain's static libraries
    were built without function sections, so libswiftCore's Swift code is one `.text` of 1.6 MB (and
    _Concurrency's, FoundationEssentials' likewise). The linker moves a section whole, so naming one of
    its functions in the ordering file would pull that whole section to the front and push fixcast's
    own every-fix code megabytes apart (bench/README.md, "The hot code, together at last")."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))), "lib", "swift_static", "linux")
    names = set()
    for archive in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not archive.endswith(".a"):
            continue
        out = subprocess.run(["objdump", "-t", os.path.join(folder, archive)], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            # "ADDRESS FLAGS SECTION<tab>SIZE [.hidden] NAME": the section ends where the tab is.
            head, tab, tail = line.partition("\t")
            if tab and head.split()[-1:] == [".text"] and tail.split():
                names.add(tail.split()[-1])
    return names


def ordered_functions(self_by_fn, calls, window_s, leave_out=frozenset()):
    """fixcast's functions that ran: those called at every fix (at least 0.9 times a second of 1 Hz feed),
    most called first, then the rest (whole frames, track commits) by cost. Recursion marks (`'2`),
    unnamed code and `leave_out` (`unsplit_symbols`) are left out."""
    ran = {}
    for (obj, name), cost in self_by_fn.items():
        if os.path.basename(obj) != "fixcast" or cost <= 0 or name.startswith("0x"):
            continue
        symbol = name.split("'")[0]
        if symbol in leave_out:
            continue
        ran[symbol] = ran.get(symbol, 0) + cost
    per_fix = 0.9 * window_s
    every_fix = sorted((s for s in ran if calls.get(s, 0) >= per_fix), key=lambda s: -calls.get(s, 0))
    rest = sorted((s for s in ran if calls.get(s, 0) < per_fix), key=lambda s: -ran[s])
    return every_fix, rest


def write_order(path, self_by_fn, calls, window_s):
    """The linker's symbol ordering file (`ordered_functions`, one name a line after a comment)."""
    every_fix, rest = ordered_functions(self_by_fn, calls, window_s, unsplit_symbols())
    with open(path, "w") as f:
        f.write("# fixcast's functions that ran on the live screen at 1 fix a second, those of every fix first:\n"
                "# the linker lays them out together (scripts/build-release.sh). Written by\n"
                "# bench/instructions.py --write-order; a name the code no longer has is skipped.\n")
        f.write("".join(s + "\n" for s in every_fix + rest))
    return len(every_fix), len(rest)


def print_by_function(lines_fn, self_fn, calls, window_s, count):
    """The functions run at every fix (called at least 0.9 times a second of 1 Hz feed, in any object),
    by the 64-byte lines of code they executed in the window, demangled, after the lines they span in
    all and by object: where a fix's cold code is."""
    per_fix = 0.9 * window_s
    rows = []
    for (obj, name), lines in lines_fn.items():
        if calls.get(name, 0) < per_fix:
            continue
        rows.append((len(lines), self_fn.get((obj, name), 0) / window_s, calls[name] / window_s,
                     os.path.basename(obj), name))
    rows.sort(reverse=True)
    demangled = {}
    tool = shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle"
    if os.path.exists(tool):
        out = subprocess.run([tool, "--simplified", "--compact"], input="\n".join(r[4] for r in rows),
                             capture_output=True, text=True).stdout.split("\n")
        demangled = dict(zip((r[4] for r in rows), out))
    total = sum(r[0] for r in rows)
    by_obj = collections.Counter()
    for lines, _, _, obj, _ in rows:
        by_obj[obj] += lines
    parts = ", ".join(f"{obj} {n:,}" for obj, n in by_obj.most_common())
    print(f"functions of every fix: {len(rows)}, spanning {total:,} lines of code ({parts}); the {count} widest:")
    print("   lines  instr/s  calls/s  object  function")
    for lines, instr, per_s, obj, name in rows[:count]:
        print(f"  {lines:>6}  {instr:>7,.0f}  {per_s:>7.1f}  {obj[:8]:<8} {demangled.get(name, name)[:150]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--warmup-s", type=float, default=45)
    ap.add_argument("--window-s", type=float, default=50)
    ap.add_argument("--gpxlogger", action="store_true", help="count gpxlogger's instructions too")
    ap.add_argument("--write-order", metavar="FILE", help="write the linker's symbol ordering file here")
    ap.add_argument("--by-function", type=int, metavar="N", default=0,
                    help="list the N functions of every fix that span the most lines of code")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("bench/instructions.py: valgrind is not installed (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="fixcast-instructions-")
    binary = os.path.join(work, "fixcast")
    subprocess.run(["objcopy", "--strip-debug", os.path.abspath(args.bin), binary], check=True)
    out = os.path.join(work, "callgrind.out")
    wrapper = os.path.join(work, "fixcast-callgrind")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\nexec {' '.join(CALLGRIND)} --callgrind-out-file={out} {binary} \"$@\"\n")
    os.chmod(wrapper, 0o755)
    run = subprocess.Popen([sys.executable, os.path.join(ROOT, "bench/run.py"), "--bin", wrapper, "--live",
                            "--rate", "1", "--idle-s", "2", "--warmup-s", str(args.warmup_s + args.window_s + 30),
                            "--window-s", "5"], stdout=open(os.path.join(work, "run.log"), "w"),
                           stderr=subprocess.STDOUT, start_new_session=True)
    def control(*arguments):
        subprocess.run(["callgrind_control", *arguments], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    try:
        pid = None
        gpx = None
        deadline = time.monotonic() + 60
        while pid is None and time.monotonic() < deadline:
            found = subprocess.run(["pgrep", "-f", f"valgrind.*{out}"], capture_output=True, text=True).stdout.split()
            pid = found[0] if found else None
            time.sleep(0.5)
        if pid is None:
            sys.exit("bench/instructions.py: fixcast did not start under valgrind; see " + work + "/run.log")
        pids = [pid]
        time.sleep(max(0.0, args.warmup_s - 10))
        if args.gpxlogger:  # once the feed runs: gpxlogger leaves after 5 s without data
            # bench/run.py's own gpsd (its child), not another one on the machine.
            gpsd = subprocess.run(["pgrep", "-a", "-P", str(run.pid), "-x", "gpsd"], capture_output=True,
                                  text=True).stdout
            port = re.search(r"-S (\d+)", gpsd)
            if port is None:
                sys.exit("bench/instructions.py: found no gpsd of bench/run.py's to attach gpxlogger to")
            gpx = subprocess.Popen(CALLGRIND + [f"--callgrind-out-file={work}/gpxlogger.out", "/usr/bin/gpxlogger",
                                                "-e", "sockets", "-f", os.path.join(work, "track.gpx"),
                                                f"127.0.0.1:{port.group(1)}"],
                                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "gpxlogger.err"), "w"))
            pids.append(str(gpx.pid))
        time.sleep(min(10.0, args.warmup_s))
        for p in pids:
            control("-i", "on", p)  # count from here,
            control("-z", p)  # with nothing counted before
        time.sleep(args.window_s)
        for p in pids:
            control("-d", p)
    finally:
        if gpx is not None:
            gpx.terminate()
            gpx.wait(timeout=30)
        os.killpg(run.pid, signal.SIGINT)
        run.wait(timeout=60)
    dumps = sorted(p for p in os.listdir(work) if p.startswith("callgrind.out."))
    if not dumps:
        sys.exit("bench/instructions.py: callgrind wrote no dump; see " + work)
    total, by_obj, incl, calls, code, by_fn, lines_fn = parse(os.path.join(work, dumps[0]))
    per = args.window_s
    print(f"instructions per second of 1 Hz feed (one fix a second), over {per:.0f} s: {total / per:,.0f}")
    lines = sum(len(v) for v in code.values())
    print(f"code executed in the window: {lines:,} lines of 64 bytes")
    print("by library (self cost; lines of code executed in the window):")
    for obj, n in by_obj.most_common(6):
        print(f"  {n / per:>10,.0f}  {len(code[obj]):>6,}  {os.path.basename(obj)}")
    print("by part (inclusive; parts nest: every frame holds the whole ones):")
    for label, pattern in PARTS:
        hits = [(n, c) for name, n in incl.items() for c in [calls.get(name, 0)] if re.search(pattern, name)]
        n = sum(h[0] for h in hits)
        c = sum(h[1] for h in hits)
        print(f"  {n / per:>10,.0f}  {label}: {c} calls, {n / max(c, 1):,.0f} each")
    print(f"(callgrind file: {os.path.join(work, dumps[0])})")
    if args.by_function:
        print_by_function(lines_fn, by_fn, calls, per, args.by_function)
    if args.write_order:
        every_fix, rest = write_order(args.write_order, by_fn, calls, args.window_s)
        print(f"ordering file {args.write_order}: {every_fix} functions of every fix, then {rest} more")
    else:  # how stale the committed layout is for this build
        with open(os.path.join(ROOT, "scripts/function-order.txt")) as f:
            laid_out = {line.strip() for line in f if line.strip() and not line.startswith("#")}
        every_fix, _ = ordered_functions(by_fn, calls, args.window_s)
        missing = [s for s in every_fix if s not in laid_out]
        print(f"functions of every fix not in scripts/function-order.txt: {len(missing)} of {len(every_fix)}"
              + (" (rewrite it with --write-order)" if missing else ""))
    gpx_dumps = sorted(p for p in os.listdir(work) if p.startswith("gpxlogger.out."))
    if gpx_dumps:
        gtotal, gby_obj, _, _, gcode, _, _ = parse(os.path.join(work, gpx_dumps[0]))
        glines = sum(len(v) for v in gcode.values())
        print(f"gpxlogger, same window: {gtotal / per:,.0f} instructions per second of feed, {glines:,} lines of "
              f"code executed; fixcast / gpxlogger: instructions {total / max(gtotal, 1):.2f}, "
              f"lines {lines / max(1, glines):.2f}")
        for obj, n in gby_obj.most_common(4):
            print(f"  {n / per:>10,.0f}  {len(gcode[obj]):>6,}  {os.path.basename(obj)}")


if __name__ == "__main__":
    main()
