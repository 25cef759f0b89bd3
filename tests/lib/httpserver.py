#!/usr/bin/env python3
"""A small HTTP/1.1 file server for wheelarch's tests, on 127.0.0.1 only.

Serves files under ROOT with single-range requests (206, suffix ranges),
ETag and Last-Modified with conditional GET (304), keep-alive, and PEP 691
JSON for directories that hold an index.json when the client's Accept asks
for it.  Faults are injected from a JSON file re-read on every request:

    {"/whl/cu128/torch/x.whl": {"status": 500, "times": 2},
     "/whl/cu126/torch/y.whl": {"ignore_range": true, "cut": 1000, "times": 1},
     "/slow/": {"delay": 5},                 # a key ending in / matches a prefix
     "/whl/bad/": {"stall": 10, "after": 100}}

status: answer with that status; ignore_range: send 200 with the whole body;
cut: close the connection after that many body bytes; delay: sleep before
answering; stall/after: sleep `stall` seconds after `after` body bytes;
drip: send the body one byte at a time, sleeping `drip` seconds between;
redirect: answer 302 with this Location (absolute or relative);
endless: with status or redirect, a body without length that never ends;
range_total: claim this file size in Content-Range; range_shift: claim a
start this many bytes later than the one sent; length_extra: claim a
Content-Length this much larger (then close);
protocol: break HTTP itself, the same way on every request ("big_header":
a 1 MiB header line; "bad_chunk": a chunk size that is not hexadecimal;
"continue_forever": "100 Continue" without end); gzip: send the file
gzip-compressed (Content-Encoding: gzip) when the client accepts it;
auth: "user:password" the request must carry as HTTP Basic credentials, or
it gets 401 (the log records "auth": whether it carried them, and which);
skip: let that many requests pass first; times: apply to that many
requests, then stop.

Every request is logged as one JSON line to LOG: method, path, status,
range, bytes (body bytes sent), so tests measure transfers from the server
side.

usage: httpserver.py ROOT --faults FILE --log FILE --port-file FILE
"""
import argparse
import email.utils
import hashlib
import json
import os
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ap = argparse.ArgumentParser()
ap.add_argument("root")
ap.add_argument("--faults", required=True)
ap.add_argument("--log", required=True)
ap.add_argument("--port-file", required=True)
ap.add_argument("--port", type=int, default=0)
args = ap.parse_args()
ROOT = os.path.abspath(args.root)
lock = threading.Lock()
used = {}  # fault key -> times applied


last_text = [None]


def load_faults():
    """The faults file; a new file resets the `times` counters."""
    try:
        with open(args.faults) as f:
            text = f.read()
        faults = json.loads(text)
    except (OSError, ValueError):
        return {}
    with lock:
        if text != last_text[0]:
            last_text[0] = text
            used.clear()
    return faults


def fault_for(path):
    faults = load_faults()
    best = None
    for key, spec in faults.items():
        if key == path or (key.endswith("/") and path.startswith(key)):
            if best is None or len(key) > len(best[0]):
                best = (key, spec)
    if not best:
        return None
    key, spec = best
    with lock:
        n = used.get(key, 0)
        used[key] = n + 1
        n -= spec.get("skip", 0)
        if n < 0 or ("times" in spec and n >= spec["times"]):
            return None
    return spec


def log(entry):
    with lock:
        with open(args.log, "a") as f:
            f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_body(self, data, fault, entry):
        limit = len(data)
        if fault and "cut" in fault:
            limit = min(limit, fault["cut"])
        stall_at = fault.get("after", 0) if fault and "stall" in fault else None
        sent = 0
        if fault and "drip" in fault:
            try:
                while sent < limit:
                    self.wfile.write(data[sent:sent + 1])
                    self.wfile.flush()
                    sent += 1
                    time.sleep(fault["drip"])
            except (BrokenPipeError, ConnectionResetError):
                pass
            entry["bytes"] = sent
            self.close_connection = True
            return
        try:
            while sent < limit:
                end = min(limit, sent + 65536)
                if stall_at is not None and sent < stall_at < end:
                    end = stall_at
                self.wfile.write(data[sent:end])
                sent = end
                if stall_at is not None and sent >= stall_at:
                    self.wfile.flush()
                    time.sleep(fault["stall"])
                    stall_at = None
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        entry["bytes"] = sent
        if sent < len(data):
            self.close_connection = True

    def do_HEAD(self):
        self.do_GET(head=True)

    def do_GET(self, head=False):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        from urllib.parse import unquote
        fs = os.path.normpath(os.path.join(ROOT, unquote(path).lstrip("/")))
        entry = {"method": self.command, "path": path, "range": self.headers.get("Range"),
                 "status": 0, "bytes": 0, "time": time.time()}
        fault = fault_for(path)
        if fault and "auth" in fault:
            import base64
            got = self.headers.get("Authorization") or ""
            sent = base64.b64decode(got[6:]).decode("utf-8", "replace") if got.startswith("Basic ") else None
            entry["auth"] = sent
            if sent != fault["auth"]:
                entry["status"] = 401
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="test"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                log(entry)
                return
        if fault and "delay" in fault:
            time.sleep(fault["delay"])
        if fault and "protocol" in fault:
            return self.broken(entry, fault["protocol"])
        if fault and "redirect" in fault:
            entry["status"] = 302
            entry["location"] = fault["redirect"]
            self.send_response(302)
            self.send_header("Location", fault["redirect"])
            if fault.get("endless"):
                log(entry)
                return self.endless()
            self.send_header("Content-Length", "0")
            self.end_headers()
            log(entry)
            return
        if fault and "status" in fault:
            body = b"injected fault\n"
            entry["status"] = fault["status"]
            self.send_response(fault["status"])
            if "retry_after" in fault:
                self.send_header("Retry-After", str(fault["retry_after"]))
            if fault.get("endless"):
                log(entry)
                return self.endless()
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not head:
                self.wfile.write(body)
            log(entry)
            return
        if not fs.startswith(ROOT) or not os.path.exists(fs):
            return self.not_found(entry, head)
        ctype = "application/octet-stream"
        accept = self.headers.get("Accept", "")
        if os.path.isdir(fs):
            if not path.endswith("/"):
                entry["status"] = 301
                self.send_response(301)
                self.send_header("Location", path + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                log(entry)
                return
            js = os.path.join(fs, "index.json")
            if "application/vnd.pypi.simple.v1+json" in accept and os.path.exists(js):
                fs, ctype = js, "application/vnd.pypi.simple.v1+json"
            else:
                fs, ctype = os.path.join(fs, "index.html"), "text/html; charset=utf-8"
            if not os.path.exists(fs):
                return self.not_found(entry, head)
        elif fs.endswith(".html"):
            ctype = "text/html; charset=utf-8"
        entry["file"] = os.path.basename(fs)
        st = os.stat(fs)
        with open(fs, "rb") as f:
            data = f.read()
        etag = '"%s"' % hashlib.sha1(data).hexdigest()[:16]
        lastmod = email.utils.formatdate(st.st_mtime, usegmt=True)
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if (inm and inm == etag) or (not inm and ims and ims == lastmod):
            entry["status"] = 304
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", lastmod)
            self.end_headers()
            log(entry)
            return
        rng = self.headers.get("Range")
        status, start, end = 200, 0, len(data) - 1
        if rng and not (fault and fault.get("ignore_range")) and rng.startswith("bytes="):
            spec = rng[6:]
            a, _, b = spec.partition("-")
            if a == "":
                n = int(b)
                start, end = max(0, len(data) - n), len(data) - 1
            else:
                start = int(a)
                end = int(b) if b else len(data) - 1
                end = min(end, len(data) - 1)
            if start >= len(data) or start > end:
                entry["status"] = 416
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % len(data))
                self.send_header("Content-Length", "0")
                self.end_headers()
                log(entry)
                return
            status = 206
        body = data[start:end + 1]
        entry["status"] = status
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if fault and fault.get("gzip") and status == 200 and \
                "gzip" in self.headers.get("Accept-Encoding", ""):
            import gzip
            body = gzip.compress(body, 9)
            self.send_header("Content-Encoding", "gzip")
        extra = fault.get("length_extra", 0) if fault else 0
        if extra:
            self.close_connection = True
        self.send_header("Content-Length", str(len(body) + extra))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", lastmod)
        self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            total = fault.get("range_total", len(data)) if fault else len(data)
            shift = fault.get("range_shift", 0) if fault else 0
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start + shift, end + shift, total))
        self.end_headers()
        if not head:
            self.send_body(body, fault, entry)
        log(entry)

    def broken(self, entry, kind):
        """An answer that breaks the protocol (see "protocol" above)."""
        entry["status"] = kind
        log(entry)
        w = self.wfile
        try:
            if kind == "big_header":
                w.write(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (1 << 20) +
                        b"\r\nContent-Length: 1\r\n\r\nx")
            elif kind == "bad_chunk":
                w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        b"zz\r\nabc\r\n0\r\n\r\n")
            elif kind == "continue_forever":
                for _ in range(200000):
                    w.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            w.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def endless(self):
        """A body without a length that never ends (until the client leaves)."""
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        chunk = b"x" * 65536
        try:
            for _ in range(1 << 20):
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def not_found(self, entry, head):
        body = b"not found\n"
        entry["status"] = 404
        self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)
        log(entry)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # Clients that give up on a slow answer reset the connection: that is
        # what the tests provoke, not an error of the server.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


srv = Server(("127.0.0.1", args.port), Handler)
with open(args.port_file + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(args.port_file + ".tmp", args.port_file)
try:
    srv.serve_forever()
except KeyboardInterrupt:
    pass
