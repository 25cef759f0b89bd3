"""wheelarch crawl end to end, against real HTTP servers on 127.0.0.1 serving
an index tree shaped like download.pytorch.org, with faults injected:
404, 500 then success, a server that ignores Range, a body cut short, a
wrong sha256, a server too slow, kill -9 mid-crawl then resume, an unchanged
re-run (zero wheel bytes, counted from the server's own log), shards, PEP 691
JSON pages, bad configuration, an unreachable index."""
import json
import os
import shutil
import signal
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
fixtures = watest.manifest()


# ---- the index tree ----------------------------------------------------------
root_a = os.path.join(W, "host-a")   # download.pytorch.org: pages and some files
root_b = os.path.join(W, "host-b")   # download-r2.pytorch.org: files linked absolutely
for d in ("whl/cu126/torch", "whl/cu126/torchvision", "whl/cu126/torchaudio", "whl/cu128/torch",
          "whl/cu128/torchvision", "whl/cu128/torchaudio", "whl/cpu/torch", "whl/badhash/torch",
          "whl/many/torch"):
    os.makedirs(os.path.join(root_a, d), exist_ok=True)
os.makedirs(os.path.join(root_b, "whl", "cu128"), exist_ok=True)
srv_a = watest.Server("a", root_a, W)
srv_b = watest.Server("b", root_b, W)

LINUX = "manylinux_2_28_x86_64"
wheels = {}  # filename -> dict(path, sha, gpu fixture, url)


def add_wheel(host_root, relpath, project, gpu, url_base, requires=()):
    fname = os.path.basename(relpath)
    path = os.path.join(host_root, relpath)
    members = [(project + "/lib/" + arc, fx) for arc, fx in gpu]
    sha = pyindex.build_wheel(path, project, members, requires=requires)
    url = url_base + "/" + relpath.replace("+", "%2B")
    wheels[fname] = {"path": path, "sha": sha, "gpu": gpu, "url": url, "project": project}
    return fname


def link(fname, href=None, sha=True, **attrs):
    w = wheels[fname]
    h = href or w["url"]
    if sha:
        h += "#sha256=" + w["sha"]
    return (h, fname, attrs)


t126 = [add_wheel(root_a, "whl/cu126/torch-2.8.0+cu126-%s-%s-%s.whl" % (py, py, LINUX), "torch",
                  [("libtorch_cuda.so", "libk_default.so")], srv_a.url) for py in ("cp311", "cp312", "cp313")]
t126w = add_wheel(root_a, "whl/cu126/torch-2.8.0+cu126-cp312-cp312-win_amd64.whl", "torch",
                  [("torch_cuda.dll", "test.dll")], srv_a.url)
v126 = [add_wheel(root_a, "whl/cu126/torchvision-0.23.0+cu126-%s-%s-%s.whl" % (py, py, LINUX), "torchvision",
                  [("_C.so", "libk_two.so")], srv_a.url) for py in ("cp312", "cp313")]
t128 = [add_wheel(root_b, "whl/cu128/torch-2.8.0+cu128-%s-%s-%s.whl" % (py, py, LINUX), "torch",
                  [("libtorch_cuda.so", "libk_fam.so")], srv_b.url) for py in ("cp312", "cp313")]
t128arm = add_wheel(root_b, "whl/cu128/torch-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl", "torch",
                    [("libtorch_cuda.so", "libk_fam.so")], srv_b.url)
audio = add_wheel(root_a, "whl/torchaudio-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl", "torchaudio",
                  [("_torchaudio.so", "nogpu.so")], srv_a.url)
tcpu = add_wheel(root_a, "whl/cpu/torch-2.8.0+cpu-cp312-cp312-%s.whl" % LINUX, "torch",
                 [("libtorch_cpu.so", "nogpu.so")], srv_a.url)
bad = add_wheel(root_a, "whl/badhash/torch-2.9.0+cu126-cp312-cp312-%s.whl" % LINUX, "torch",
                [("libtorch_cuda.so", "libk_default.so")], srv_a.url)
many = [add_wheel(root_a, "whl/many/torch-3.%d.0+cu126-cp312-cp312-%s.whl" % (i, LINUX), "torch",
                  [("libtorch_cuda.so", "libk_two.so")], srv_a.url) for i in range(10)]


def write_page(rel, project, links, json_files=None):
    with open(os.path.join(root_a, rel, "index.html"), "w") as f:
        f.write(pyindex.page_html(project, links))
    if json_files is not None:
        with open(os.path.join(root_a, rel, "index.json"), "w") as f:
            f.write(pyindex.page_json(project, json_files))


# cu126: root-relative links, entities in data-requires-python, a yanked file.
write_page("whl/cu126/torch", "torch",
           [link(f, href=wheels[f]["url"][len(srv_a.url):], **{"data-requires-python": ">=3.9"}) for f in t126]
           + [link(t126w, href=wheels[t126w]["url"][len(srv_a.url):], **{"data-yanked": "broken <build>"})])
write_page("whl/cu126/torchvision", "torchvision", [link(f) for f in v126])
write_page("whl/cu126/torchaudio", "torchaudio", [link(audio, href="../../torchaudio-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl")])
# cu128: absolute links to the other host, metadata attributes, upload times; one without a hash.
write_page("whl/cu128/torch", "torch",
           [link(f, **{"data-dist-info-metadata": "sha256=" + "b" * 64, "data-core-metadata": "sha256=" + "b" * 64,
                       "data-upload-time": "2026-01-21T18:04:11Z"}) for f in t128]
           + [link(t128arm, sha=False)])
write_page("whl/cu128/torchaudio", "torchaudio", [link(audio, href="/whl/torchaudio-2.8.0-cp312-cp312-manylinux_2_28_aarch64.whl")])
# cu128/torchvision: only a PEP 691 JSON page with no file (and an empty HTML page).
write_page("whl/cu128/torchvision", "torchvision", [], json_files=[])
write_page("whl/cpu/torch", "torch", [], json_files=[
    {"filename": tcpu, "url": wheels[tcpu]["url"], "hashes": {"sha256": wheels[tcpu]["sha"]},
     "requires-python": ">=3.9", "yanked": False, "upload-time": "2026-01-01T00:00:00Z"}])
with open(os.path.join(root_a, "whl/badhash/torch/index.html"), "w") as f:
    f.write(pyindex.page_html("torch", [(wheels[bad]["url"] + "#sha256=" + "0" * 64, bad, {})]))
write_page("whl/many/torch", "torch", [link(f) for f in many])

HTTP = {"retries": 3, "retry_delay_ms": 50, "retry_max_ms": 200, "stall_timeout_ms": 3000,
        "connect_timeout_ms": 3000}
config = os.path.join(W, "wheelarch.json")
with open(config, "w") as f:
    json.dump({"indexes": [{"root": srv_a.url + "/whl/", "ids": ["cu126", "cu128", "cpu"]}],
               "projects": ["torch", "torchvision", "torchaudio"], "http": HTTP}, f, indent=2)


def crawl(*argv, cache=None, expect=None, timeout=120, env=None):
    cmd = [args.wheelarch, "crawl", "--json", "-j", "2"] + list(argv)
    if cache:
        cmd += ["--cache", cache]
    e = dict(os.environ, WHEELARCH_TODAY="2026-11-21")
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=W, env=e)
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if p.returncode in (0, 1, 3, 6, 7) and "--plan" not in argv:
        # every crawl --json ends with its summary line, which agrees with
        # its exit status and the wheel lines before it
        s = lines[-1].get("summary", {}) if lines else {}
        wl = [x for x in lines if "summary" not in x]
        c.ok(s.get("exit") == p.returncode and len(lines) - len(wl) == 1
             and (p.returncode == 1 or s.get("wheels") == len(wl)),
             "crawl %s: one summary line, exit %s, %s wheels (exit %d, %d wheel lines)" % (
                 " ".join(argv), s.get("exit"), s.get("wheels"), p.returncode, len(wl)))
        lines = wl
    if expect is not None and not c.ok(p.returncode == expect, "crawl %s: exit %d, want %d\n%s" % (
            " ".join(argv), p.returncode, expect, p.stderr)):
        pass
    return p, lines


def by_status(lines):
    out = {}
    for l in lines:
        out.setdefault(l["status"], []).append(l["filename"])
    return out


def wheel_requests(srv, name=None):
    return [e for e in srv.entries() if e["path"].endswith(".whl") and (name is None or e["path"].endswith(name.replace("+", "%2B")) or e["path"].endswith(name))]


def one_index(idx, project, **kw):
    return ["--index", srv_a.url + "/whl/%s/" % idx, "--project", project, "--config", config] + \
        [x for k, v in kw.items() for x in ("--" + k, v)]


# ---- 1. a full crawl ---------------------------------------------------------
cache = os.path.join(W, "cache")
p, lines = crawl("--config", config, cache=cache, expect=0)
st = by_status(lines)
c.eq(len(lines), 11, "one JSON line per wheel")
c.eq(len(st.get("scanned", [])), 7, "one wheel scanned per (project, version, variant, platform)")
c.eq(len(st.get("inferred", [])), 4, "the others inferred")
c.eq(len(watest.records(cache)), 11, "a record per wheel")
c.eq(watest.integrity(cache), "ok", "the database passes integrity_check")
rec = {l["filename"]: l for l in lines}
for f in t126 + t128 + v126 + [t126w]:
    fx = fixtures[wheels[f]["gpu"][0][1]]
    c.eq(rec[f]["sass"], fx["sass"], f + " sass")
    c.eq(rec[f]["ptx"], fx["ptx"], f + " ptx")
    c.eq(rec[f]["url"], wheels[f]["url"], f + " url")
c.eq(rec[t126[0]]["variant"], "cu126", "variant from the label")
c.eq(rec[t126[0]]["variant_source"], "label", "variant source label")
c.eq(rec[t126[0]]["requires_python"], ">=3.9", "data-requires-python entities decoded")
c.eq(rec[t126w]["yanked"], "broken <build>", "data-yanked reason")
c.eq(rec[t128arm]["variant"], "cu128", "label-less wheel: variant from its URL directory")
c.eq(rec[t128arm]["variant_source"], "url", "variant source url")
c.eq(rec[t128arm]["key"][:4], "url-", "no hash in the index: keyed by URL")
c.eq(rec[audio]["indexes"], ["cu126", "cu128"], "one wheel listed on two pages")
c.eq(rec[audio]["variant_source"], "index", "root-level wheel: variant from the index")
c.eq(rec[t128[0]]["upload_time"], "2026-01-21T18:04:11Z", "upload time")
c.eq(rec[tcpu]["index"], "cpu", "PEP 691 JSON page read")
c.eq(rec[tcpu]["sass"], [], "CPU wheel has no GPU code")
c.ok(all(l["error"] is None for l in lines), "no errors")
inf = [l for l in lines if l["status"] == "inferred"]
c.ok(all(l["inferred_from"] for l in inf), "inferred records name their source")
json_served = [e for e in srv_a.entries() if e.get("file") == "index.json"]
c.ok(len(json_served) >= 2, "JSON pages negotiated by Accept (%d)" % len(json_served))
c.ok("7 scanned, 4 inferred, 0 already known, 0 failed" in p.stderr, "summary line: " + p.stderr[-300:])

# Range mode: only the central directory and the GPU members come over the wire.
for f in [t126[0], t128[0]]:
    w = wheels[f]
    with zipfile.ZipFile(w["path"]) as z:
        gpu = sum(i.compress_size + 30 + len(i.filename) for i in z.infolist() if i.filename.endswith((".so", ".dll")))
    srv = srv_a if "cu126" in f else srv_b
    sent = sum(e["bytes"] for e in wheel_requests(srv, f))
    size = os.path.getsize(w["path"])
    c.ok(sent <= gpu + (1 << 20) and sent < size / 2,
         "%s: %d bytes sent for GPU members of %d in a %d-byte wheel" % (f, sent, gpu, size))
    r = watest.record(cache, rec[f]["key"])
    c.eq(r["fetch"]["mode"], "range", f + " fetched by range")

# ---- 2. an unchanged re-run downloads no wheel byte --------------------------
srv_a.clear_log()
srv_b.clear_log()
p, lines = crawl("--config", config, cache=cache, expect=0)
c.eq(by_status(lines).get("known", []) and len(by_status(lines)["known"]), 11, "all known on re-run")
c.eq(len(wheel_requests(srv_a)) + len(wheel_requests(srv_b)), 0, "no wheel requested on re-run")
pages = [e for e in srv_a.entries() if not e["path"].endswith(".whl")]
c.ok(pages and all(e["status"] in (304, 404) for e in pages), "pages revalidated with 304: %s" % set(e["status"] for e in pages))
c.eq(sum(e["bytes"] for e in pages), 0, "no page body re-sent")

# ---- 3. faults ---------------------------------------------------------------
def fresh(name):
    d = os.path.join(W, name)
    shutil.rmtree(d, ignore_errors=True)
    return d


def empty_dir(name):
    d = fresh(name)
    os.makedirs(d)
    return d


# 404 on the first wheel of a group: it fails, its sibling is scanned instead.
v0 = "/whl/cu126/" + v126[0].replace("+", "%2B")
srv_a.set_faults({v0: {"status": 404}})
cache404 = fresh("cache404")
p, lines = crawl(*one_index("cu126", "torchvision"), cache=cache404, expect=3)
st = by_status(lines)
c.eq(st.get("failed"), [v126[0]], "404 wheel failed")
c.eq(st.get("scanned"), [v126[1]], "its sibling scanned instead")
failed = [l for l in lines if l["status"] == "failed"][0]
c.ok("404" in failed["error"], "error names the status: " + failed["error"])
c.eq(watest.db_query(cache404, "SELECT key FROM failures"), [(failed["key"],)], "failure recorded")
c.ok("HTTP 404" in p.stderr and "1 failed" in p.stderr, "summary lists the failure")
srv_a.set_faults({})
p, lines = crawl(*one_index("cu126", "torchvision"), "--all", cache=cache404, expect=0)
c.eq(by_status(lines).get("scanned"), [v126[0]], "failed wheel retried on the next run")
c.eq(watest.db_query(cache404, "SELECT key FROM failures"), [], "failure cleared")

# 500 twice, then success.
t0 = "/whl/cu126/" + t126[0].replace("+", "%2B")
srv_a.set_faults({t0: {"status": 500, "times": 2}})
srv_a.clear_log()
p, lines = crawl(*one_index("cu126", "torch"), cache=fresh("cache500"), expect=0)
c.ok(t126[0] in by_status(lines).get("scanned", []), "scanned after two 500s")
statuses = [e["status"] for e in wheel_requests(srv_a, t126[0])]
c.eq(statuses[:3], [500, 500, 206], "server saw 500, 500, then a range request")

# A server that ignores Range: the body is streamed once and its sha256 checked.
srv_a.set_faults({t0: {"ignore_range": True}})
srv_a.clear_log()
cache_full = fresh("cachefull")
p, lines = crawl(*one_index("cu126", "torch"), cache=cache_full, expect=0)
r = [l for l in lines if l["filename"] == t126[0]][0]
c.eq(r["status"], "scanned", "scanned without Range")
c.eq(r["fetch"]["mode"], "full", "whole-body mode")
c.eq(r["sha256_verified"], True, "sha256 checked")
c.eq(r["sass"], fixtures["libk_default.so"]["sass"], "same targets without Range")
full_bytes = sum(e["bytes"] for e in wheel_requests(srv_a, t126[0]))
c.eq(full_bytes, os.path.getsize(wheels[t126[0]]["path"]), "body read exactly once")

# A body cut short once (retried), then always (fails).
srv_a.set_faults({t0: {"ignore_range": True, "cut": 20000, "times": 1}})
p, lines = crawl(*one_index("cu126", "torch"), cache=fresh("cachecut1"), expect=0)
c.ok(t126[0] in by_status(lines).get("scanned", []), "short body retried")
srv_a.set_faults({t0: {"ignore_range": True, "cut": 20000}})
p, lines = crawl(*one_index("cu126", "torch"), cache=fresh("cachecut2"), expect=3)
c.ok(t126[0] in by_status(lines).get("failed", []) and t126[1] in by_status(lines).get("scanned", []),
     "always-short body fails, sibling scanned")
err = [l for l in lines if l["filename"] == t126[0]][0]["error"]
c.ok("partial" in err.lower() or "transfer" in err.lower(), "error says the body was short: " + err)

# A wrong sha256 in the index.
srv_a.set_faults({"/whl/badhash/": {"ignore_range": True}})
p, lines = crawl(*one_index("badhash", "torch"), cache=fresh("cachesha"), expect=3)
c.ok(lines and lines[0]["status"] == "failed" and "sha256 mismatch" in lines[0]["error"],
     "wrong sha256 refused: %s" % (lines[0]["error"] if lines else p.stderr))

# A server too slow: no byte within --timeout.
srv_a.set_faults({t0: {"delay": 6}, "/whl/cu126/" + t126[1].replace("+", "%2B"): {"delay": 6},
                  "/whl/cu126/" + t126[2].replace("+", "%2B"): {"delay": 6}})
start = time.time()
p, lines = crawl(*one_index("cu126", "torch"), "--timeout", "1", cache=fresh("cacheslow"), expect=3,
                 timeout=300)
took = time.time() - start
slow = [l for l in lines if l["filename"] in t126]
c.ok(len(slow) == 3 and all(l["status"] == "failed" and ("no answer" in l["error"] or "stalled" in l["error"]) for l in slow),
     "stalled server times out: %s" % [l["error"] for l in slow])
c.ok(took < 90, "timeouts are bounded (%.1f s)" % took)
srv_a.set_faults({})

# ---- 4. kill -9 mid-crawl, then resume --------------------------------------
srv_a.set_faults({"/whl/many/": {"stall": 0.6, "after": 1000}})
srv_a.clear_log()
cachek = fresh("cachekill")
cmd = [args.wheelarch, "crawl", "--json", "-j", "2", "--cache", cachek] + one_index("many", "torch")
proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=W)
deadline = time.time() + 60


def stored():
    try:
        return watest.records(cachek)
    except Exception:  # the database is being created
        return {}


while time.time() < deadline:
    if len(stored()) >= 3:
        break
    time.sleep(0.05)
os.kill(proc.pid, signal.SIGKILL)
proc.wait()
done_recs = watest.records(cachek)
done = sorted(done_recs)
c.ok(3 <= len(done) < len(many), "killed mid-crawl with %d of %d records" % (len(done), len(many)))
ok_json = True
for text in done_recs.values():
    try:
        json.loads(text)
    except ValueError:
        ok_json = False
c.ok(ok_json, "every record stored is whole")
c.eq(watest.integrity(cachek), "ok", "the killed crawl's database passes integrity_check")
noted = sorted(json.loads(n)["filename"] for (n,) in watest.db_query(cachek, "SELECT note FROM journal"))
c.ok(1 <= len(noted) <= 2, "the wheels being read when killed are noted in the journal: %s" % noted)
srv_a.set_faults({})
srv_a.clear_log()
# The next run finds the notes: those wheels failed ("did not finish last
# time"), the others are scanned, exit 3.
p, lines = crawl(*one_index("many", "torch"), cache=cachek, expect=3)
st = by_status(lines)
c.eq(len(st.get("known", [])), len(done), "finished wheels are known after the kill")
c.eq(sorted(st.get("failed", [])), noted, "the wheels in the journal are failed")
c.ok(all("did not finish last time" in l["error"] for l in lines if l["status"] == "failed"),
     "and say why: %s" % [l["error"] for l in lines if l["status"] == "failed"])
c.eq(len(st.get("known", [])) + len(st.get("scanned", [])) + len(noted), len(many), "the rest scanned")
c.eq(watest.db_query(cachek, "SELECT key FROM journal"), [], "the journal is empty after a run")
done_names = set(json.loads(t)["filename"] for t in done_recs.values())
refetched = [e["path"] for e in wheel_requests(srv_a) if os.path.basename(e["path"]).replace("%2B", "+") in done_names]
c.eq(refetched, [], "no finished wheel fetched again")
# The run after that scans them again, alone, in a child process.
p, lines = crawl(*one_index("many", "torch"), cache=cachek, expect=0)
st = by_status(lines)
c.eq(sorted(st.get("scanned", [])), noted, "unfinished wheels scanned in the isolated pass")
c.eq(len(st.get("known", [])), len(many) - len(noted), "the others known")

# ---- 5. shards merge into the whole ------------------------------------------
s1, s2 = fresh("shard1"), fresh("shard2")
p1, l1 = crawl("--config", config, "--shard", "1/2", cache=s1, expect=0)
p2, l2 = crawl("--config", config, "--shard", "2/2", cache=s2, expect=0)
k1 = set(watest.records(s1))
k2 = set(watest.records(s2))
c.ok(k1 and k2 and not (k1 & k2), "shards are disjoint and both non-empty (%d, %d)" % (len(k1), len(k2)))
c.eq(k1 | k2, set(watest.records(cache)), "shards cover every wheel")
merged = fresh("merged")
# Their records name the configured indexes: a database that does not
# trust them refuses the shards whole, saying why ...
p = subprocess.run([args.wheelarch, "merge", "--cache", merged, os.path.join(s1, "wheelarch.db"),
                    os.path.join(s2, "wheelarch.db")], capture_output=True, text=True, timeout=120,
                   cwd=empty_dir("no-config"))  # no wheelarch.json there
c.ok(p.returncode == 1 and "nor one this database was configured with" in p.stderr and
     not watest.records(merged), "merge without the shards' configuration: refused, nothing stored (%s)"
     % p.stderr.strip()[:300])
# ... and merges them with the configuration they were crawled with.
p = subprocess.run([args.wheelarch, "merge", "--config", config, "--cache", merged, os.path.join(s1, "wheelarch.db"),
                    os.path.join(s2, "wheelarch.db")], capture_output=True, text=True, timeout=120)
c.eq(p.returncode, 0, "merge the shards (%s)" % p.stderr.strip())
status_of = "SELECT key, status FROM wheels ORDER BY key"
c.eq(watest.db_query(merged, status_of), watest.db_query(cache, status_of),
     "the merged shards hold the whole crawl's records, scanned and inferred alike")

# ---- 6. configuration and unreachable indexes --------------------------------
badcfg = os.path.join(W, "bad.json")
with open(badcfg, "w") as f:
    f.write('{\n  "indexes": ["%s/whl/cu126/"],\n  "projects": ["torch"],\n  "projetcs": []\n}\n' % srv_a.url)
p, _ = crawl("--config", badcfg, cache=fresh("cachebad"), expect=2)
c.ok("line 4 column 3" in p.stderr and "projetcs" in p.stderr, "unknown key named with its position: " + p.stderr)
with open(badcfg, "w") as f:
    f.write('{"indexes": [}')
p, _ = crawl("--config", badcfg, cache=fresh("cachebad"), expect=2)
c.ok("line 1" in p.stderr, "JSON syntax error with its position: " + p.stderr)
p, _ = crawl("--index", "ftp://x/", "--project", "torch", cache=fresh("cachebad"), expect=2)
p, lines = crawl("--index", "http://127.0.0.1:1/whl/cu999/", "--index", srv_a.url + "/whl/cu126/",
                 "--project", "torchvision", "--config", config, cache=fresh("cacheunreach"), expect=3)
c.ok("127.0.0.1:1" in p.stderr, "unreachable index warned about")
c.eq(len(lines), 2, "the reachable index still crawled")

# Per-index project lists and a version floor: each index is asked only for
# its own projects, and versions before the floor are not crawled.
stackcfg = os.path.join(W, "stack.json")
with open(stackcfg, "w") as f:
    json.dump({"indexes": [{"url": srv_a.url + "/whl/many/", "id": "many", "projects": ["torch"]},
                           {"root": srv_a.url + "/whl/", "ids": ["cu126"], "projects": ["torchvision"]}],
               "projects": {"torch": {"min_version": "3.7"}}, "http": HTTP}, f, indent=2)
# --plan first: the index pages only, nothing read or written; its counts
# are what the crawl then does.
plancache = fresh("cachestack")
before = len(srv_a.entries())
p, plan = crawl("--config", stackcfg, "--plan", cache=plancache, expect=0)
# (only the wheels this configuration lists: an earlier crawl's slow transfer
# may still be logged late, as seen under AddressSanitizer)
c.eq([e["path"] for e in srv_a.entries()[before:] if e["path"].endswith(".whl")
      and (e["path"].startswith("/whl/many/") or "torchvision-" in e["path"])], [],
     "--plan reads no wheel")
c.eq(watest.records(plancache), {}, "--plan writes no record")
plan = {r["project"]: r for r in plan[0]["plan"]} if plan else {}
before = len(srv_a.entries())
p, lines = crawl("--config", stackcfg, cache=plancache, expect=0)
for proj in ("torch", "torchvision"):
    mine = [l for l in lines if l["filename"].startswith(proj + "-")]
    r = plan.get(proj, {})
    c.eq((r.get("listed"), r.get("to_read"), r.get("to_infer"), r.get("known")),
         (len(mine), sum(l["status"] == "scanned" for l in mine), sum(l["status"] == "inferred" for l in mine), 0),
         "--plan foresaw %s's crawl (listed, read, inferred, known)" % proj)
    c.eq((r.get("bytes"), r.get("unsized")), (0, r.get("to_read")), "PEP 503 HTML gives no sizes: " + proj)
_, plan = crawl("--config", stackcfg, "--plan", cache=plancache, expect=0)
c.ok(plan and all(r["to_read"] == 0 and r["known"] == r["listed"] for r in plan[0]["plan"]),
     "after the crawl, --plan finds everything known")
asked = sorted({e["path"] for e in srv_a.entries()[before:] if e["path"].endswith("/")})
c.eq(asked, ["/whl/cu126/torchvision/", "/whl/many/torch/"], "each index asked for its own projects only")
c.eq(sorted(l["filename"] for l in lines),
     sorted([f for f in many if int(f.split("-")[1].split(".")[1]) >= 7] + v126),
     "torch 3.7 and later, and cu126's torchvision")
c.ok("7 wheels older than their project's min_version left out" in p.stderr,
     "the floor's effect is reported: " + p.stderr)
c.eq({l["index"] for l in lines if l["filename"] in many}, {"many"}, "an {url, id} index's id")

# A PyPI-like index (PEP 691 JSON only, files under /packages/): the variant
# comes from the project's rule in data/variant_rules.csv, not the index.
for d in ("simple/torch", "simple/cupy-cuda12x", "simple/nvidia-cudnn-cu12", "packages/ab"):
    os.makedirs(os.path.join(root_a, d), exist_ok=True)
REQUIRES = ["filelock", 'nvidia-cudnn-cu12==9.10.2.21; platform_system == "Linux" and platform_machine == "x86_64"']
pypi_torch = add_wheel(root_a, "packages/ab/torch-2.8.0-cp312-cp312-%s.whl" % LINUX, "torch",
                       [("libtorch_cuda.so", "libk_fam.so")], srv_a.url, requires=REQUIRES)
pypi_cupy = add_wheel(root_a, "packages/ab/cupy_cuda12x-13.6.0-cp312-cp312-%s.whl" % LINUX, "cupy",
                      [("_core.so", "libk_default.so")], srv_a.url)
for proj, fname in (("torch", pypi_torch), ("cupy-cuda12x", pypi_cupy)):
    with open(os.path.join(root_a, "simple", proj, "index.json"), "w") as f:
        f.write(pyindex.page_json(proj, [{"filename": fname, "url": wheels[fname]["url"],
                                          "hashes": {"sha256": wheels[fname]["sha"]},
                                          "size": os.path.getsize(os.path.join(root_a, "packages/ab", fname))}]))
# The library torch pins, in the pinned version and a newer one.
cudnn = {v: add_wheel(root_a, "packages/ab/nvidia_cudnn_cu12-%s-py3-none-%s.whl" % (v, LINUX),
                      "nvidia", [("cudnn/lib/libcudnn_engines.so.9", "libk_two.so")], srv_a.url)
         for v in ("9.10.2.21", "9.11.0.98")}
with open(os.path.join(root_a, "simple", "nvidia-cudnn-cu12", "index.json"), "w") as f:
    f.write(pyindex.page_json("nvidia-cudnn-cu12", [
        {"filename": fn, "url": wheels[fn]["url"], "hashes": {"sha256": wheels[fn]["sha"]}}
        for fn in cudnn.values()]))
pypicfg = os.path.join(W, "pypi.json")
with open(pypicfg, "w") as f:
    json.dump({"indexes": [{"url": srv_a.url + "/simple/", "id": "pypi",
                            "projects": ["torch", "cupy-cuda12x"]}],
               "libraries": {"index": srv_a.url + "/simple/"}, "http": HTTP}, f, indent=2)
pypicache = fresh("cachepypi")
p, plan = crawl("--config", pypicfg, "--plan", cache=pypicache, expect=0)
plan = {r["project"]: r for r in plan[0]["plan"]} if plan else {}
c.eq((plan.get("torch", {}).get("to_read"), plan.get("torch", {}).get("bytes"),
      plan.get("torch", {}).get("unsized")),
     (1, os.path.getsize(os.path.join(root_a, "packages/ab", pypi_torch)), 0),
     "--plan on a PEP 691 index: the bytes of the wheel to read, from its size")
p, lines = crawl("--config", pypicfg, cache=pypicache, expect=0)
got = {l["filename"]: (l.get("variant"), l.get("variant_source")) for l in lines}
c.eq(got.get(pypi_torch), ("cu128", "release"),
     "PyPI's unlabelled torch 2.8: the release table's default variant")
c.eq(got.get(pypi_cupy), ("cu12x", "name"), "cupy-cuda12x: the variant from the project's name")
c.eq(got.get(cudnn["9.10.2.21"]), ("cu12x", "name"),
     "the cuDNN version torch pins is crawled after torch, from the libraries' index")
c.ok(cudnn["9.11.0.98"] not in got, "and no other cuDNN version")
before = len(srv_a.entries())
p2, lines2 = crawl("--config", pypicfg, cache=pypicache, expect=0)
c.eq([e["path"] for e in srv_a.entries()[before:] if "cudnn" in e["path"]], [],
     "a second crawl does not ask for a library version it has")
# The library torch pins joins torch's verdict: cuDNN's fixture has SASS for
# 8.0, 8.6 and 9.0a only, torch's own for 10.0 ... 12.1 (sm_120a).
def verdict(cc):
    q = subprocess.run([args.wheelarch, "query", "--cc", cc, "--project", "torch", "--version", "2.8.0",
                        "--platform", "linux-x86_64", "--cache", pypicache, "--json"],
                       capture_output=True, text=True, timeout=60, cwd=W)
    v = [x for x in json.loads(q.stdout)["variants"] if x["variant"] == "cu128"] if q.returncode == 0 else []
    return (v[0]["verdict"], v[0]["reason"]) if v else (None, q.stderr)


v120 = verdict("12.0")
c.eq(v120[0], "partial", "torch runs on 12.0 but the cuDNN it pins does not: %s" % (v120,))
c.ok("cuDNN 9.10.2.21 has no code for 12.0" in v120[1], "the reason names the library: " + v120[1])
c.eq(verdict("8.6")[0], "unsupported", "8.6: torch's own code decides (cuDNN's sm_86 does not help)")
st = subprocess.run([args.wheelarch, "query", "--cc", "12.0", "--stack", "--platform", "linux-x86_64",
                     "--cache", pypicache, "--json"], capture_output=True, text=True, timeout=60, cwd=W)
c.eq(st.returncode, 0, "query --stack: " + st.stderr)
stack = json.loads(st.stdout)["stack"] if st.returncode == 0 else []
c.eq([x["project"] for x in stack], ["torch", "cupy-cuda12x"],
     "query --stack: every crawled project, torch first, not the libraries they pin")
bad = subprocess.run([args.wheelarch, "query", "--cc", "12.0", "--stack", "--project", "torch",
                      "--cache", pypicache], capture_output=True, text=True, timeout=60, cwd=W)
c.eq(bad.returncode, 2, "--stack with --project is a usage error")
req = {l["filename"]: l.get("requires_dist") for l in lines}
c.eq(req.get(pypi_torch), REQUIRES, "the wheel's Requires-Dist, read from its METADATA")
c.eq(req.get(pypi_cupy), [], "none listed: an empty list")
out = os.path.join(W, "pypisite")
b = subprocess.run([args.wheelarch, "build", "--cache", pypicache, "--out", out, "-q"],
                   capture_output=True, text=True, timeout=300, cwd=W)
c.eq(b.returncode, 0, "a site from a CUDA-major variant builds: " + b.stderr)
matrix = json.load(open(os.path.join(out, "api", "v1", "matrix.json")))
rows = {(r["project"], r["variant"]) for r in matrix["rows"] if r["status"] != "declared"}
c.ok(("cupy-cuda12x", "cu12x") in rows and ("torch", "cu128") in rows,
     "both builds in the feed: %s" % sorted(rows))
cell = [r["cells"].get("12.0") for r in matrix["rows"]
        if r["project"] == "torch" and r["variant"] == "cu128" and r["status"] != "declared"]
c.eq(cell, ["partial"], "the site's matrix agrees with query: partial on 12.0 (cuDNN)")

srv_a.stop()
srv_b.stop()
c.done()
