"""wheelarch against a hostile package index, served by tests/lib/httpserver.py
on 127.0.0.1: a wheel whose ZIP64 locator holds an offset near 2^64, PEP 691
and PEP 503 hashes that are paths, a server that drips one byte every half
second, one that stalls, redirects and links from a public name to
127.0.0.1 and localhost, a redirected index page with relative links, and
servers that lie in their Range answers.  For each: the exit status, one
clear line naming the wheel, nothing written outside the cache, and the
honest wheels beside it recorded."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402
import pyindex  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
LINUX = "manylinux_2_28_x86_64"
ROOT = os.path.join(W, "srv")
GPU = [("torch/lib/libtorch_cuda.so", "libk_default.so")]


def wheel_name(version):
    return "torch-%s+cu126-cp312-cp312-%s.whl" % (version, LINUX)


def good_wheel(ix, version, pad_py=20, data_mb=1):
    """An honest wheel under /whl/<ix>/; returns (filename, sha256)."""
    fname = wheel_name(version)
    os.makedirs(os.path.join(ROOT, "whl", ix), exist_ok=True)
    sha = pyindex.build_wheel(os.path.join(ROOT, "whl", ix, fname), "torch", GPU, pad_py=pad_py,
                              data_mb=data_mb)
    return fname, sha


def zip64_wheel(ix, version, offset=0xFFFFFFFFFFFFFFF0):
    """A wheel larger than the crawler's 64 KiB tail whose end record says
    ZIP64 and whose ZIP64 locator points at `offset`: the sum offset + 56
    wraps past 2^64 and looks in range."""
    fname = wheel_name(version)
    path = os.path.join(ROOT, "whl", ix, fname)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr("torch/data.bin", os.urandom(200000))
        z.writestr("torch/lib/libx.so", b"\x7fELF" + b"\0" * 60)
    data = buf.getvalue()
    at = data.rfind(b"PK\x05\x06")
    eocd = bytearray(data[at:])
    struct.pack_into("<HH", eocd, 8, 0xFFFF, 0xFFFF)
    loc = struct.pack("<IIQI", 0x07064B50, 0, offset, 1)
    out = data[:at] + loc + bytes(eocd)
    with open(path, "wb") as f:
        f.write(out)
    import hashlib
    return fname, hashlib.sha256(out).hexdigest()


def page(ix, links, json_files=None):
    d = os.path.join(ROOT, "whl", ix, "torch")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "index.html"), "w") as f:
        f.write(pyindex.page_html("torch", links))
    if json_files is not None:
        with open(os.path.join(d, "index.json"), "w") as f:
            f.write(pyindex.page_json("torch", json_files))


def rel(ix, fname, sha=None):
    h = "../" + fname.replace("+", "%2B")
    return (h + ("#sha256=" + sha if sha else ""), fname, {})


# ---- the hostile index --------------------------------------------------------
z_bad, z_bad_sha = zip64_wheel("zip64", "9.0.0")
z_good, z_good_sha = good_wheel("zip64", "9.0.1")
page("zip64", [rel("zip64", z_bad, z_bad_sha), rel("zip64", z_good, z_good_sha)])

# Keys that are paths: 64 characters, so only a length check lets them by;
# records/<key>.json would be W/pwn/x.json.
TRAVERSAL = "./" * 26 + "/" + "../../pwn/x"
assert len(TRAVERSAL) == 64
j_bad, _ = good_wheel("t691", "9.2.0")
j_good, j_good_sha = good_wheel("t691", "9.2.1")
page("t691", [], json_files=[
    {"filename": j_bad, "url": "../" + j_bad.replace("+", "%2B"), "hashes": {"sha256": TRAVERSAL}},
    {"filename": j_good, "url": "../" + j_good.replace("+", "%2B"), "hashes": {"sha256": j_good_sha}},
    {"filename": "../../../pwn/" + wheel_name("9.2.2"), "url": "../x.whl", "hashes": {}},
])
h_bad, _ = good_wheel("t503", "9.3.0")
h_good, h_good_sha = good_wheel("t503", "9.3.1")
page("t503", [rel("t503", h_bad, TRAVERSAL), rel("t503", h_good, h_good_sha)])
# What the traversal would read as an "already known" record.
os.makedirs(os.path.join(W, "pwn"))
with open(os.path.join(W, "pwn", "x.json"), "w") as f:
    json.dump({"status": "scanned", "key": "x", "sass": ["sm_90"]}, f)

d_bad, d_bad_sha = good_wheel("drip", "9.4.0")
d_good, d_good_sha = good_wheel("drip", "9.4.1")
page("drip", [rel("drip", d_bad, d_bad_sha), rel("drip", d_good, d_good_sha)])
s_bad, s_bad_sha = good_wheel("stall", "9.5.0")
s_good, s_good_sha = good_wheel("stall", "9.5.1")
page("stall", [rel("stall", s_bad, s_bad_sha), rel("stall", s_good, s_good_sha)])

# Redirects: /whl/redir/torch/ moves to /whl/moved/torch/, whose links are
# relative (they exist only under /whl/moved/) or point at 127.0.0.1.
r_rel, r_rel_sha = good_wheel("moved", "9.6.0")
r_ip, r_ip_sha = good_wheel("moved", "9.6.1")
r_lh, r_lh_sha = good_wheel("moved", "9.6.2")
os.makedirs(os.path.join(ROOT, "whl", "redir", "torch"), exist_ok=True)

l_total, l_total_sha = good_wheel("lies", "9.7.0")
l_shift, l_shift_sha = good_wheel("lies", "9.7.1")
l_len, l_len_sha = good_wheel("lies", "9.7.2")
l_good, l_good_sha = good_wheel("lies", "9.7.3")
page("lies", [rel("lies", f, s) for f, s in ((l_total, l_total_sha), (l_shift, l_shift_sha),
                                             (l_len, l_len_sha), (l_good, l_good_sha))])

srv = watest.Server("hostile", ROOT, W)
PORT = srv.port
NAME = "index.wheelarch-hostile.test"  # a public-looking name, pinned to 127.0.0.1
page("moved", [
    rel("moved", r_rel, r_rel_sha),
    ("http://127.0.0.1:%d/whl/moved/%s#sha256=%s" % (PORT, r_ip.replace("+", "%2B"), r_ip_sha), r_ip, {}),
    rel("moved", r_lh, r_lh_sha),
])
q = lambda f: "/whl/moved/" + f.replace("+", "%2B")  # noqa: E731
srv.set_faults({
    "/whl/redir/torch/": {"redirect": "/whl/moved/torch/"},
    q(r_lh): {"redirect": "http://localhost:%d%s" % (PORT, q(r_lh) + "x")},
    "/whl/drip/" + d_bad.replace("+", "%2B"): {"drip": 0.5},
    "/whl/stall/" + s_bad.replace("+", "%2B"): {"stall": 30, "after": 10},
    "/whl/lies/" + l_shift.replace("+", "%2B"): {"range_shift": -7},
    "/whl/lies/" + l_len.replace("+", "%2B"): {"length_extra": 10},
})

HOST_A, HOST_B = "a.wheelarch-hostile.test", "b.wheelarch-hostile.test"
HTTP = {"retries": 2, "retry_delay_ms": 50, "retry_max_ms": 200, "stall_timeout_ms": 2000,
        "connect_timeout_ms": 2000,
        "resolve": ["%s:%d:127.0.0.1" % (h, PORT) for h in (NAME, HOST_A, HOST_B)]}


def config(name, base, ix):
    path = os.path.join(W, name + ".json")
    with open(path, "w") as f:
        json.dump({"indexes": [{"root": base + "/whl/", "ids": [ix]}], "projects": ["torch"],
                   "http": HTTP}, f)
    return path


def outside_snapshot():
    """Every file under W but the caches, the sites and the server's tree."""
    out = {}
    for dirpath, dirnames, files in os.walk(W):
        reldir = os.path.relpath(dirpath, W)
        top = reldir.split(os.sep)[0]
        if top.startswith("cache") or top.startswith("site") or top == "srv":
            continue
        for fn in files:
            p = os.path.join(dirpath, fn)
            if fn.startswith("hostile.") or (reldir == "." and fn.endswith(".lock")):
                continue  # the server's own log and state; the lock files beside the folders
            with open(p, "rb") as f:
                out[os.path.relpath(p, W)] = f.read()
    return out


def crawl(cfg, cache, expect, extra=(), timeout=120):
    before = outside_snapshot()
    start = time.time()
    p = watest.run(args, "crawl", "--json", "-j", "2", "--config", cfg, "--cache",
                   os.path.join(W, cache), *extra, timeout=timeout)
    took = time.time() - start
    c.eq(p.returncode, expect, "%s: exit status (stderr: %s)" % (cache, p.stderr[-600:]))
    c.ok(p.returncode in (0, 1, 2, 3, 6, 7), "%s: no crash (exit %d)" % (cache, p.returncode))
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if p.returncode != 2:
        c.ok(lines and lines[-1].get("summary", {}).get("exit") == p.returncode,
             "%s: the last line is the summary, with the exit status" % cache)
    lines = [l for l in lines if "summary" not in l]
    after = outside_snapshot()
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    c.eq(changed, [], "%s: nothing written outside the cache" % cache)
    return p, {l["filename"]: l for l in lines}, took


def one_line(p, fname, words, what):
    """The wheel's failure is one stderr line naming it, saying what."""
    ev = [l for l in p.stderr.splitlines() if l.startswith("wheelarch: %s: " % fname)]
    c.eq(len(ev), 1, "%s: one line for %s" % (what, fname))
    c.ok(ev and all(w in ev[0] for w in words), "%s: the line says %s: %r" % (what, words, ev))


def recorded(cache):
    return {json.loads(t)["filename"] for t in watest.records(os.path.join(W, cache)).values()}


# ---- 1. ZIP64 locator near 2^64 -------------------------------------------------
cfg = config("zip64", srv.url, "zip64")
p, lines, _ = crawl(cfg, "cache-zip64", 3)
c.eq(lines.get(z_bad, {}).get("status"), "failed", "wrapped ZIP64 wheel failed")
one_line(p, z_bad, ["ZIP64", "out of range"], "zip64")
c.eq(lines.get(z_good, {}).get("status"), "scanned", "its honest sibling scanned")
c.eq(watest.db_query(os.path.join(W, "cache-zip64"), "SELECT key FROM failures"), [(z_bad_sha,)],
     "the failure is recorded under the wheel's key")
# Every later run stays whole (the wheel is retried and fails the same way).
p, lines, _ = crawl(cfg, "cache-zip64", 3)
c.eq(lines.get(z_good, {}).get("status"), "known", "second run: sibling known")
p = watest.run(args, "scan", srv.url + "/whl/zip64/" + z_bad.replace("+", "%2B"))
c.eq(p.returncode, 1, "scan URL of the wrapped ZIP64 wheel: exit 1, no crash")
c.eq(len(p.stderr.strip().splitlines()), 1, "scan URL: one line: %r" % p.stderr)
p = watest.run(args, "scan", os.path.join(ROOT, "whl", "zip64", z_bad))
c.eq(p.returncode, 1, "scan of the local file: exit 1")
c.ok("out of range" in p.stderr and "18446744073709551600" in p.stderr,
     "the local error names the offset as the file gives it: %r" % p.stderr)
# update builds the site all the same.
site = os.path.join(W, "site-zip64")
p = watest.run(args, "update", "--config", cfg, "--cache", os.path.join(W, "cache-zip64"), "--out", site)
c.eq(p.returncode, 3, "update with the wrapped wheel: exit 3 (stderr %s)" % p.stderr[-300:])
c.ok(os.path.exists(os.path.join(site, "index.html")), "update built the site")

# ---- 2. traversal keys, PEP 691 and PEP 503 -------------------------------------
for ix, bad, good in (("t691", j_bad, j_good), ("t503", h_bad, h_good)):
    cfg = config(ix, srv.url, ix)
    cache = "cache-" + ix
    p, lines, _ = crawl(cfg, cache, 3)
    c.eq(lines.get(bad, {}).get("status"), "failed", "%s: traversal hash is the wheel's error" % ix)
    one_line(p, bad, ["sha256", "not 64 hex digits"], ix)
    c.eq(lines.get(good, {}).get("status"), "scanned", "%s: the honest wheel scanned" % ix)
    c.eq(recorded(cache), {good}, "%s: only the honest wheel has a record" % ix)
    names = []
    for dirpath, _, files in os.walk(os.path.join(W, cache)):
        names += files
    c.ok(all(not n.startswith("x.") and "pwn" not in n for n in names), "%s: no file named after the path" % ix)
    c.ok(not os.path.exists(os.path.join(W, "pwn", "x.json.tmp")) and
         sorted(os.listdir(os.path.join(W, "pwn"))) == ["x.json"], "%s: pwn/ untouched" % ix)
    c.ok(not os.path.exists(os.path.join(W, "failed")) and not os.path.exists(os.path.join(W, "records")),
         "%s: no folder made outside the cache" % ix)
    # A second run does not read W/pwn/x.json as an "already known" record.
    p, lines, _ = crawl(cfg, cache, 3)
    c.eq(lines.get(bad, {}).get("status"), "failed", "%s: never 'known' through the traversal" % ix)
p, lines, _ = crawl(config("t691", srv.url, "t691"), "cache-t691", 3)
c.ok("a file name with a path" in p.stderr, "a PEP 691 file name with a path is skipped with a warning")

# ---- 3. drip feed and stall ---------------------------------------------------------
for ix, bad, good, words in (("drip", d_bad, d_good, ["too slow"]), ("stall", s_bad, s_good, ["too slow", "bytes in"])):
    cfg = config(ix, srv.url, ix)
    p, lines, took = crawl(cfg, "cache-" + ix, 3, extra=["--timeout", "2"])
    c.eq(lines.get(bad, {}).get("status"), "failed", "%s: the slow wheel failed" % ix)
    one_line(p, bad, words, ix)
    c.eq(lines.get(good, {}).get("status"), "scanned", "%s: its sibling scanned" % ix)
    c.ok(took < 12, "%s: over within about --timeout 2 (%.1f s)" % (ix, took))
    c.eq(len(watest.db_query(os.path.join(W, "cache-" + ix), "SELECT key FROM failures")), 1,
         "%s: recorded as failed" % ix)
p = watest.run(args, "scan", "--timeout", "2", srv.url + "/whl/drip/" + d_bad.replace("+", "%2B"))
c.eq(p.returncode, 1, "scan URL of a drip-fed wheel gives up")

# ---- 4. redirects and links to private addresses --------------------------------------
cfg = config("redir", "http://%s:%d" % (NAME, PORT), "redir")
srv.clear_log()
p, lines, _ = crawl(cfg, "cache-redir", 3)
c.eq(lines.get(r_rel, {}).get("status"), "scanned",
     "a relative link on a redirected page resolves against the final URL")
c.eq(lines.get(r_ip, {}).get("status"), "failed", "a link to 127.0.0.1 from a public name is refused")
one_line(p, r_ip, ["refused", "127.0.0.1", "loopback"], "redir")
c.eq(lines.get(r_lh, {}).get("status"), "failed", "a redirect to localhost from a public name is refused")
one_line(p, r_lh, ["refused", "localhost"], "redir")
hits = [e for e in srv.entries() if e["path"] in (q(r_ip), q(r_lh) + "x")]
c.eq(hits, [], "no request reached the refused addresses")
# From a loopback index everything may be followed.
p, lines, _ = crawl(config("redir-local", srv.url, "redir"), "cache-redir-local", 3)
c.eq([lines.get(f, {}).get("status") for f in (r_rel, r_ip)], ["scanned", "scanned"],
     "local index: links to 127.0.0.1 followed")
c.ok("HTTP 404" in (lines.get(r_lh, {}).get("error") or ""),
     "local index: the redirect to localhost followed (to a missing file): %s" % lines.get(r_lh))
# A redirect loop stops after 5.
srv.set_faults({"/whl/loop/torch/": {"redirect": "/whl/loop/torch/"}})
os.makedirs(os.path.join(ROOT, "whl", "loop", "torch"), exist_ok=True)
p, lines, _ = crawl(config("loop", srv.url, "loop"), "cache-loop", 6)  # its one page never answers
c.ok("more than 5 redirects" in p.stderr, "redirect loop stops: %s" % p.stderr[-300:])
srv.set_faults({})

# ---- 5. Range lies -----------------------------------------------------------------
# A size that changes between answers (the tail tells the truth, later
# ranges lie), a range that starts elsewhere than asked, a Content-Length
# that disagrees with Content-Range.
cfg = config("lies", srv.url, "lies")
srv.set_faults({
    "/whl/lies/" + l_total.replace("+", "%2B"): {"range_total": 123456789, "skip": 1},
    "/whl/lies/" + l_shift.replace("+", "%2B"): {"range_shift": -7},
    "/whl/lies/" + l_len.replace("+", "%2B"): {"length_extra": 10},
})
p, lines, _ = crawl(cfg, "cache-lies", 3)
for f, words in ((l_total, ["size"]), (l_shift, ["asked for"]), (l_len, ["Content-Length"])):
    c.eq(lines.get(f, {}).get("status"), "failed", "range lie refused: %s" % f)
    one_line(p, f, words, "lies")
c.eq(lines.get(l_good, {}).get("status"), "scanned", "the honest wheel scanned")
c.eq(recorded("cache-lies"), {l_good}, "no record with a wrong size")
srv.set_faults({})

# ---- 6. hosts that do not resolve, names that are not names ---------------------------
cfg = config("dns", "http://wheelarch-nowhere.invalid", "cu126")
start = time.time()
p = watest.run(args, "crawl", "--config", cfg, "--cache", os.path.join(W, "cache-dns"))
took = time.time() - start
c.eq(p.returncode, 6, "an unresolvable index: exit 6, no index answered")
c.ok(took < 10, "an unresolvable host is given up quickly (%.1f s)" % took)
c.ok(re.search(r"wheelarch-nowhere.invalid.*retrying in .* \(attempt 2 of 2\)", p.stderr),
     "the retry is visible: %s" % p.stderr)
p = watest.run(args, "crawl", "--index", srv.url + "/whl/zip64/", "--project", "torch vision",
               "--cache", os.path.join(W, "cache-space"))
c.eq(p.returncode, 2, "a project name with a space is a usage error")
c.ok("not a project name" in p.stderr, "and says so: %s" % p.stderr)

# ---- 7. endless error and redirect bodies ----------------------------------------------
srv.set_faults({"/whl/endless/torch/": {"status": 404, "endless": True},
                "/whl/endless2/torch/": {"redirect": "/whl/endless/torch/", "endless": True}})
for ix in ("endless", "endless2"):
    start = time.time()
    p = watest.run(args, "crawl", "--config", config(ix, srv.url, ix), "--cache",
                   os.path.join(W, "cache-" + ix), timeout=60)
    c.ok(time.time() - start < 10, "%s: an endless error body costs nothing (%.1f s)" % (ix, time.time() - start))
    c.ok("1 missing" in p.stderr, "%s: the page is reported missing: %s" % (ix, p.stderr.strip()))
srv.set_faults({})

# ---- 8. retries wait ------------------------------------------------------------------------
w8, w8_sha = good_wheel("retry", "9.8.0")
page("retry", [rel("retry", w8, w8_sha)])
slow = dict(HTTP, retry_delay_ms=400, retry_max_ms=2000)
cfg8 = os.path.join(W, "retry.json")
with open(cfg8, "w") as f:
    json.dump({"indexes": [srv.url + "/whl/retry/"], "projects": ["torch"], "http": slow}, f)
srv.set_faults({"/whl/retry/" + w8.replace("+", "%2B"): {"status": 503, "times": 2}})
srv.clear_log()
p = watest.run(args, "crawl", "--json", "--config", cfg8, "--cache", os.path.join(W, "cache-retry"))
c.eq(p.returncode, 0, "503 twice, then the wheel: exit 0 (%s)" % p.stderr[-300:])
c.ok("retrying in 0.4 s (attempt 2 of 3)" in p.stderr and "retrying in 0.8 s (attempt 3 of 3)" in p.stderr,
     "each retry printed with its doubling delay: %s" % p.stderr)
times = [e["time"] for e in srv.entries() if e["path"].endswith(w8.replace("+", "%2B"))]
gaps = [b - a for a, b in zip(times, times[1:])]
c.ok(len(gaps) >= 2 and gaps[0] >= 0.35 and gaps[1] >= 0.7, "the retries really wait: %s" % gaps)
srv.set_faults({})

# ---- 9. a member range cut once: the record is as if it had not been ------------------------
w9, w9_sha = good_wheel("cut", "9.9.0", data_mb=2)
page("cut", [rel("cut", w9, w9_sha)])
clean = os.path.join(W, "cache-cut-clean")
p = watest.run(args, "crawl", "--config", config("cut", srv.url, "cut"), "--cache", clean)
c.eq(p.returncode, 0, "the wheel crawled without faults")
# The first request is the tail; the second, the GPU member, is cut once.
srv.set_faults({"/whl/cut/" + w9.replace("+", "%2B"): {"cut": 20000, "skip": 1, "times": 1}})
cut = os.path.join(W, "cache-cut")
p = watest.run(args, "crawl", "--config", config("cut", srv.url, "cut"), "--cache", cut)
c.eq(p.returncode, 0, "a member range cut once is retried (%s)" % p.stderr[-300:])
ra = watest.record(clean, w9_sha)
rb = watest.record(cut, w9_sha)
c.eq((rb["members"], len(rb["binaries"]), rb["sass"]), (ra["members"], len(ra["binaries"]), ra["sass"]),
     "members, binaries and targets as without the cut")
c.eq(rb["fetch"]["mode"], "range", "read by range")
srv.set_faults({})

# ---- 10. one hash, two hosts -----------------------------------------------------------------
# pa (host A) lists a genuine wheel; pb (host B) claims the same hash for
# other bytes.  A record from B is not taken on A's word, nor the reverse.
g10, g10_sha = good_wheel("pa", "9.10.0")
os.makedirs(os.path.join(ROOT, "whl", "pb"), exist_ok=True)
pyindex.build_wheel(os.path.join(ROOT, "whl", "pb", g10), "torch", [("torch/lib/libtorch_cuda.so", "libk_two.so")],
                    pad_py=20, data_mb=1)
page("pa", [rel("pa", g10, g10_sha)])
page("pb", [rel("pb", g10, g10_sha)])
cache10 = os.path.join(W, "cache-hosts")
url_a, url_b = "http://%s:%d" % (HOST_A, PORT), "http://%s:%d" % (HOST_B, PORT)
p, lines, _ = crawl(config("pb", url_b, "pb"), "cache-hosts", 0)
rec = watest.record(cache10, g10_sha)
c.ok(rec["url"].startswith(url_b) and not rec["sha256_verified"], "B's bytes recorded unverified under the hash")
p, lines, _ = crawl(config("pa", url_a, "pa"), "cache-hosts", 0)
c.eq(lines.get(g10, {}).get("status"), "scanned", "A does not take B's unverified record as known")
rec = watest.record(cache10, g10_sha)
c.ok(rec["url"].startswith(url_a) and rec["sha256_verified"] and rec["fetch"]["mode"] == "full",
     "A read its file whole and proved the hash: %s %s" % (rec["url"], rec["fetch"]))
both = os.path.join(W, "both.json")
with open(both, "w") as f:
    json.dump({"indexes": [url_b + "/whl/pb/", url_a + "/whl/pa/"], "projects": ["torch"], "http": HTTP}, f)
p, lines, _ = crawl(both, "cache-both", 3)
c.eq(lines.get(g10, {}).get("status"), "failed", "listed by two hosts: the first must prove the hash")
c.ok("sha256 mismatch" in (lines.get(g10, {}).get("error") or ""), "and B's bytes do not")
c.eq(watest.record(os.path.join(W, "cache-both"), g10_sha), None, "no record from B")

# ---- 11. a tampered database --------------------------------------------------------------------
t = os.path.join(W, "cache-tamper")
p = watest.run(args, "crawl", "--config", config("zip64", srv.url, "zip64"), "--cache", t)
outside = os.path.join(W, "outside")
os.makedirs(outside)
with open(os.path.join(outside, "keep.db"), "w") as f:
    f.write("{}")
dbfile = os.path.join(t, "wheelarch.db")
os.rename(dbfile, dbfile + ".real")
os.symlink(os.path.join(outside, "keep.db"), dbfile)
for cmd in (["crawl", "--config", config("zip64", srv.url, "zip64"), "--cache", t],
            ["build", "--cache", t, "--out", os.path.join(W, "site-tamper")]):
    p = watest.run(args, *cmd)
    c.eq(p.returncode, 1, "a symbolic link for the database: %s refuses to start" % cmd[0])
    c.ok("is a symbolic link" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
         "%s says why, in one line: %s" % (cmd[0], p.stderr.strip()))
c.eq(open(os.path.join(outside, "keep.db")).read(), "{}", "nothing written through the link")
os.unlink(dbfile)
os.mkfifo(dbfile)
start = time.time()
p = watest.run(args, "build", "--cache", t, "--out", os.path.join(W, "site-tamper"), timeout=120)
c.eq(p.returncode, 1, "a FIFO for the database: build exits 1")
c.ok(time.time() - start < 60, "and does not hang on the FIFO")
c.ok("not a regular file" in p.stderr, "and says why: %s" % p.stderr.strip())
os.unlink(dbfile)
with open(dbfile, "wb") as f:
    f.write(b"SQLite format 3\0" + b"\xff" * 4000)
p = watest.run(args, "query", "--cc", "8.6", "--cache", t)
c.eq(p.returncode, 1, "a damaged database: query exits 1")
c.ok(len(p.stderr.strip().splitlines()) == 1 and "wheelarch.db" in p.stderr,
     "one line naming the file: %s" % p.stderr.strip())
os.unlink(dbfile)
os.rename(dbfile + ".real", dbfile)
p = watest.run(args, "db", "check", "--cache", t)
c.eq(p.returncode, 0, "the real database is whole again (%s)" % p.stderr.strip())

# ---- 12. many GPU libraries: a request per run of members, not per member ----------------
fname12 = wheel_name("9.12.0")
os.makedirs(os.path.join(ROOT, "whl", "many"), exist_ok=True)
sha12 = pyindex.build_wheel(os.path.join(ROOT, "whl", "many", fname12), "torch",
                            [("torch/lib/libk%04d.so" % i, "libk_two.so" if i == 7 else "nogpu.so")
                             for i in range(2000)], pad_py=20, data_mb=4)
page("many", [rel("many", fname12, sha12)])
srv.clear_log()
p, lines, _ = crawl(config("many", srv.url, "many"), "cache-many", 0)
c.eq(lines.get(fname12, {}).get("status"), "scanned", "a wheel with 2,000 libraries scanned")
reqs = [e for e in srv.entries() if e["path"].endswith(fname12.replace("+", "%2B"))]
# the tail, the rest of the central directory (2,000 entries do not fit in
# the tail), the libraries, and the METADATA, which lies past the 4 MB data
# file, just before the central directory
c.ok(len(reqs) <= 4, "in at most 4 requests (the tail, the directory, the libraries, the "
     "METADATA): %d" % len(reqs))
c.eq(lines.get(fname12, {}).get("requires_dist"), [], "its METADATA was read (no Requires-Dist)")
c.eq(lines.get(fname12, {}).get("fetch", {}).get("mode"), "range", "by range")
c.ok("sm_90a" in json.dumps(lines.get(fname12, {}).get("sass")), "the one GPU library among them found")

# ---- 13. bundled NVIDIA libraries are not read unless asked for ---------------
fname13 = wheel_name("9.13.0")
os.makedirs(os.path.join(ROOT, "whl", "bundled"), exist_ok=True)
sha13 = pyindex.build_wheel(os.path.join(ROOT, "whl", "bundled", fname13), "torch",
                            [("torch/lib/libtorch_cuda.so", "libk_two.so"),
                             ("torch/lib/libcudnn_ops.so.9", "libk_default.so")], pad_py=20, data_mb=4)
page("bundled", [rel("bundled", fname13, sha13)])


def bundled_paths(extra, cache):
    srv.clear_log()
    p, lines, _ = crawl(config("bundled", srv.url, "bundled"), cache, 0, extra)
    line = lines.get(fname13, {})
    sent = sum(e.get("bytes", 0) for e in srv.entries() if e["path"].endswith(fname13.replace("+", "%2B")))
    return [b["path"] for b in line.get("binaries", [])], line.get("fetch", {}).get("mode"), sent


paths, mode, sent = bundled_paths((), "cache-bundled")
c.eq((paths, mode), (["torch/lib/libtorch_cuda.so"], "range"),
     "a bundled cuDNN is not read: its code does not count")
paths_b, _, sent_b = bundled_paths(("--bundled",), "cache-bundled-on")
c.eq(sorted(paths_b), ["torch/lib/libcudnn_ops.so.9", "torch/lib/libtorch_cuda.so"],
     "--bundled reads it too")
c.ok(sent < sent_b, "fewer bytes without it: %d < %d" % (sent, sent_b))

# ---- 14. a server that breaks HTTP the same way each time: one request, not six --------------
p_bad, _ = good_wheel("proto", "9.14.0")
for kind in ("big_header", "bad_chunk", "continue_forever"):
    path = "/whl/proto/" + p_bad.replace("+", "%2B")
    srv.set_faults({path: {"protocol": kind}})
    srv.clear_log()
    t0 = time.time()
    p = watest.run(args, "scan", "--timeout", "5", srv.url + path, timeout=120)
    took = time.time() - t0
    asked = [e for e in srv.entries() if e["path"] == path]
    c.eq(p.returncode, 1, "%s: the wheel fails (%s)" % (kind, p.stderr.strip()))
    c.eq(len(asked), 1, "%s: not retried (%d requests)" % (kind, len(asked)))
    c.ok(took < 10, "%s: given up at once (%.1f s)" % (kind, took))
    c.ok("Out of memory" not in p.stderr and len(p.stderr.strip().splitlines()) == 1,
         "%s: one line that says what happened: %r" % (kind, p.stderr))
srv.set_faults({})

# ---- 15. a compressed page counts what came over the wire -----------------------------------
os.makedirs(os.path.join(ROOT, "whl", "bomb", "torch"), exist_ok=True)
with open(os.path.join(ROOT, "whl", "bomb", "torch", "index.html"), "w") as f:
    f.write("<!DOCTYPE html><html><body>" + " " * (40 << 20) + "</body></html>\n")
srv.set_faults({"/whl/bomb/torch/": {"gzip": True}})
p = watest.run(args, "crawl", "--config", config("bomb", srv.url, "bomb"), "--cache",
               os.path.join(W, "cache-bomb"))
m = re.search(r"; ([0-9.]+) (B|kB|MB|GB) downloaded", p.stderr)
c.ok(m and (m.group(2) in ("B", "kB")), "a 40 MB page gzip-compressed to tens of kB is counted "
     "as tens of kB downloaded: %r" % (m.group(0) if m else p.stderr[-300:]))
srv.set_faults({})

# ---- 16. credentials in a configured URL: sent to its origin, published nowhere -------------
SECRET = "s3cr%40t-Token"  # percent-escaped '@' in the password, as URLs write it
a16, a16_sha = good_wheel("private", "9.16.0")
page("private", [rel("private", a16, a16_sha)])
srv.set_faults({"/whl/private/": {"auth": "ci-bot:s3cr@t-Token"}})
srv.clear_log()
cfg16 = os.path.join(W, "private.json")
with open(cfg16, "w") as f:
    json.dump({"indexes": [{"root": "http://ci-bot:%s@127.0.0.1:%d/whl/" % (SECRET, PORT), "ids": ["private"]}],
               "projects": ["torch"], "http": HTTP}, f)
p, lines, _ = crawl(cfg16, "cache-private", 0)
c.eq(lines.get(a16, {}).get("status"), "scanned", "the index that wants credentials was crawled with them")
sent = [e.get("auth") for e in srv.entries() if e["path"].startswith("/whl/private/")]
c.ok(sent and all(a == "ci-bot:s3cr@t-Token" for a in sent),
     "every request to its origin carried them, decoded (%d requests: %s)" % (len(sent), sorted(set(map(str, sent)))))
site16 = os.path.join(W, "site-private")
b = watest.run(args, "build", "--cache", os.path.join(W, "cache-private"), "--out", site16)
c.eq(b.returncode, 0, "the site builds (%s)" % b.stderr.strip()[-300:])
q = watest.run(args, "query", "--cc", "8.6", "--version", "9.16", "--python", "3.12", "--cache",
               os.path.join(W, "cache-private"), "--json")
leaks = []
for needle in ("s3cr", "ci-bot", "Token"):
    for out in (p.stdout, p.stderr, b.stdout, b.stderr, q.stdout, q.stderr):
        if needle in out:
            leaks.append("a command's output holds %r" % needle)
    for d_ in (site16, os.path.join(W, "cache-private")):
        for root, _, files in os.walk(d_):
            for f in files:
                with open(os.path.join(root, f), "rb") as fh:
                    if needle.encode() in fh.read():
                        leaks.append("%s holds %r" % (os.path.relpath(os.path.join(root, f), W), needle))
c.eq(sorted(set(leaks))[:5], [], "the credentials are nowhere in the database, the site or any output")
qa = json.loads(q.stdout) if q.stdout.strip() else {}
line = ((qa.get("recommendation") or qa.get("fallback") or {}).get("commands") or {}).get("pip", "")
c.ok(("http://127.0.0.1:%d/whl/private" % PORT) in line, "the command names the index without them: %r" % line)
# A redirect to another origin goes without them.
srv.set_faults({"/whl/private/torch/": {"auth": "ci-bot:s3cr@t-Token", "redirect": "http://%s:%d/whl/elsewhere/torch/" % (NAME, PORT)}})
srv.clear_log()
watest.run(args, "crawl", "--config", cfg16, "--cache", os.path.join(W, "cache-private2"), timeout=120)
away = [e.get("auth") for e in srv.entries() if e["path"].startswith("/whl/elsewhere/")]
c.ok(away and all(a is None for a in away), "the redirect's target got no credentials (%s)" % away)
# The same URL given to a record is refused, and its message shows none.
with open(os.path.join(W, "cred.jsonl"), "w") as f:
    r16 = watest.record(os.path.join(W, "cache-private"), a16_sha)
    r16["index_url"] = "http://ci-bot:hunter2@127.0.0.1:%d/whl/private/" % PORT
    f.write(json.dumps(r16) + "\n")
imp = watest.run(args, "db", "import", os.path.join(W, "cred.jsonl"), "--cache", os.path.join(W, "cache-cred"))
c.ok(imp.returncode == 3 and "holds user info" in imp.stderr and "hunter2" not in imp.stderr,
     "a record carrying credentials is refused without showing them: " + imp.stderr.strip()[-300:])
srv.set_faults({})

# ---- an index page of thousands of links that are not wheel names ----------
# the first 200 are named, the rest counted on one line (as db import does)
page("junk", [("../torch-%d.whl" % i, "torch-%d.whl" % i, {}) for i in range(5000)])
p, _, _ = crawl(config("junk", srv.url, "junk"), "cache-junk", 0)
named = [l for l in p.stderr.splitlines() if "skipped:" in l]
more = [l for l in p.stderr.splitlines() if "more links that are not wheel names skipped" in l]
c.ok(len(named) == 200 and len(more) == 1 and "4800 more" in more[0] and "(5000 in all)" in more[0],
     "5,000 links that are not wheel names: 200 named, then one count (%d, %r)" % (len(named), more))
c.ok(len(p.stderr.splitlines()) < 220, "and the whole report stays short (%d lines)" % len(p.stderr.splitlines()))

srv.stop()
c.done()
