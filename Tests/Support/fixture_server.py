#!/usr/bin/python3
"""A loopback HTTP server of recorded API responses with injectable faults, for fixcast's tests and demo.

Usage: fixture_server.py CONFIG.json

CONFIG:
{
  "host": "127.0.0.1",            # a loopback address to bind (127.0.0.2 plays "another host"); default 127.0.0.1
  "port": 0,                      # 0: any free port; the chosen one is written to "port_file"
  "port_file": "/tmp/x.port",
  "log": "/tmp/x.jsonl",          # one JSON line per request: {"path", "query", "headers", "time"}
  "routes": {
    "/v1/forecast": [             # served in order; the last one repeats
      {"status": 200, "file": "fixtures/open-meteo.json", "headers": {"Content-Type": "application/json"},
       "delay": 0.0,              # seconds before answering (a response slower than the client's timeout)
       "truncate": false,         # announce the full length, send half, close
       "close": false,            # close the connection without any response
       "size": 0,                 # a body of this many bytes of 'x' instead of file/body
       "gzip": false,             # send the body gzip-compressed with Content-Encoding: gzip
       "multi_location": false,   # Open-Meteo's multi-location form: "file" is a recorded answer (an object,
                                  # or an array whose first element is used); the reply is an array with one
                                  # copy per comma-separated latitude/longitude of the query, each carrying
                                  # the requested coordinates, or one object when one location was asked
       "rebase_hours": false,     # with multi_location: the recorded hours shifted so the first is the
                                  # current UTC hour (the recorded values unchanged), for a live demo
       "body": "literal text"}
    ]
  }
}
Only binds a loopback address (127.0.0.0/8). Stops on SIGTERM/SIGINT.
"""
import gzip
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

# A child inherits its parent thread's signal mask, and the test runner's worker threads block SIGTERM:
# unblock it, or Process.terminate() is never delivered and the test waits for the server forever.
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])

config = json.load(open(sys.argv[1]))
routes = config.get("routes", {})
counters = {}
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        parts = urlsplit(self.path)
        entry = {"path": parts.path, "query": parts.query, "time": time.time(),
                 "headers": {k.lower(): v for k, v in self.headers.items()}}
        with lock:
            if config.get("log"):
                with open(config["log"], "a") as f:
                    f.write(json.dumps(entry) + "\n")
            plan = routes.get(parts.path)
            if not plan:
                spec = {"status": 404, "body": '{"error":"no such fixture route"}'}
            else:
                n = counters.get(parts.path, 0)
                counters[parts.path] = n + 1
                spec = plan[min(n, len(plan) - 1)]
        if spec.get("delay"):
            time.sleep(spec["delay"])
        if spec.get("close"):
            self.close_connection = True
            return
        if spec.get("size"):
            body = b"x" * int(spec["size"])
        elif spec.get("multi_location") and "file" in spec:
            body = multi_location_answer(spec, parts.query)
        elif "file" in spec:
            body = open(spec["file"], "rb").read()
        else:
            body = spec.get("body", "").encode()
        headers = {"Content-Type": "application/json"}
        if spec.get("gzip"):
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        headers.update(spec.get("headers", {}))
        if any(k.lower() == "date" for k in headers):
            # A recorded answer's own Date (its Expires is on the same clock): not the server's now.
            self.send_response_only(spec.get("status", 200))
            self.send_header("Server", self.version_string())
        else:
            self.send_response(spec.get("status", 200))
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if spec.get("truncate"):
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)


def multi_location_answer(spec, query):
    """Open-Meteo's multi-location answer built from a recorded one: one copy per requested location."""
    from urllib.parse import parse_qs
    import calendar
    import copy
    recorded = json.load(open(spec["file"]))
    template = recorded[0] if isinstance(recorded, list) else recorded
    q = parse_qs(query)
    lats = q.get("latitude", [""])[0].split(",")
    lons = q.get("longitude", [""])[0].split(",")
    if len(lats) != len(lons) or not lats[0]:
        return json.dumps({"error": True, "reason": "latitude and longitude must have the same number of elements"}).encode()
    hours = None
    if spec.get("rebase_hours"):
        now = int(time.time()) // 3600 * 3600
        hours = [time.strftime("%Y-%m-%dT%H:%M", time.gmtime(now + 3600 * i))
                 for i in range(len(template["hourly"]["time"]))]
    answer = []
    for lat, lon in zip(lats, lons):
        item = copy.deepcopy(template)
        item["latitude"], item["longitude"] = float(lat), float(lon)
        if hours is not None:
            item["utc_offset_seconds"] = 0
            item["hourly"]["time"] = hours
        answer.append(item)
    return json.dumps(answer[0] if len(answer) == 1 else answer).encode()


host = config.get("host", "127.0.0.1")
if not host.startswith("127."):
    sys.exit("fixture_server.py binds loopback (127.0.0.0/8) only, not " + host)
server = ThreadingHTTPServer((host, int(config.get("port", 0))), Handler)
server.daemon_threads = True
signal.signal(signal.SIGTERM, lambda *a: threading.Thread(target=server.shutdown).start())
if config.get("port_file"):
    with open(config["port_file"] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(config["port_file"] + ".tmp", config["port_file"])
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
