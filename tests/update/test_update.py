"""wheelarch update end to end, against wheels served on 127.0.0.1
(tests/lib/sitedb.py):
  - a full update: records for every wheel, the site built, exit 0;
  - an unreachable index beside a live one: one warning line, the site still
    built, exit 3; only unreachable indexes and an empty database: the site
    built from the declared rows, exit 3;
  - usage errors: exit 2, nothing created;
  - crash safety: update killed with SIGKILL at random moments of the crawl
    and of the build, then run again; after every kill each record is whole
    (byte-identical to the one a clean run writes) and the site is whole (the
    previous one, or exactly what the database now builds); in the end
    nothing is lost: the same records and the same site as a clean run."""
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sitedb  # noqa: E402
import watest  # noqa: E402
from watest import records  # noqa: E402
from watest import tree  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
TODAY = "2026-11-01"




def write_config(path, urls):
    with open(path, "w") as f:
        json.dump({"indexes": urls, "projects": ["torch", "torchvision"],
                   "http": {"retries": 1, "retry_delay_ms": 20, "connect_timeout_ms": 2000,
                            "stall_timeout_ms": 5000}}, f)
    return path


def update(cwd, *argv, popen=False):
    cmd = [args.wheelarch, "update", "-j", "2"] + list(argv)
    env = dict(os.environ, WHEELARCH_TODAY=TODAY)
    if popen:
        return subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)




wheels, srv = sitedb.start(W)
ids = ["cpu", "cu126", "cu128", "cu130", "rocm6.3", "rocm6.4"]
live = [srv.url + "/whl/%s/" % i for i in ids]
dead = "http://127.0.0.1:9/whl/cu999/"  # port 9 (discard): nothing listens
try:
    # ---- a full update ----------------------------------------------------------
    ref = os.path.join(W, "ref")
    os.makedirs(ref)
    write_config(os.path.join(ref, "wheelarch.json"), live)
    t0 = time.monotonic()
    p = update(ref)
    full = time.monotonic() - t0
    c.eq(p.returncode, 0, "update exit (%s)" % p.stderr.strip())
    ref_records = records(os.path.join(ref, "cache"))
    c.eq(len(ref_records), len(wheels), "a record per served wheel")
    ref_site = tree(os.path.join(ref, "site"))
    c.ok(ref_site and "index.html" in ref_site and "api/v1/matrix.json" in ref_site, "the site is built in site/")
    c.ok("scanned" in p.stderr and "pages from %d records" % len(wheels) in p.stderr,
         "update reports the crawl and the build: " + p.stderr.strip())
    # Run again: nothing new, nothing rewritten.
    p = update(ref)
    c.eq(p.returncode, 0, "second update exit")
    c.ok("0 written" in p.stderr and "nothing changed" in p.stderr, "second update rewrites nothing: " + p.stderr)
    c.eq(records(os.path.join(ref, "cache")), ref_records, "second update: records unchanged")

    # ---- an unreachable index ---------------------------------------------------------
    un = os.path.join(W, "unreachable")
    os.makedirs(un)
    write_config(os.path.join(un, "wheelarch.json"), live + [dead])
    p = update(un)
    c.eq(p.returncode, 3, "an unreachable index: exit 3")
    warn = [line for line in p.stderr.splitlines() if "unreachable" in line]
    c.ok(len(warn) == 1 and dead in warn[0], "one warning line names it: %s" % warn)
    c.eq(tree(os.path.join(un, "site")), ref_site, "the site is still built, from what was crawled")

    off = os.path.join(W, "offline")
    os.makedirs(off)
    write_config(os.path.join(off, "wheelarch.json"), [dead, "http://127.0.0.1:9/whl/cu998/"])
    p = update(off, "--json")
    c.eq(p.returncode, 6, "offline with an empty database: exit 6, no index answered")
    summary = json.loads(p.stdout.strip().splitlines()[-1])["summary"] if p.stdout.strip() else {}
    c.eq({k: summary.get(k) for k in ("command", "exit", "status", "crawl_exit", "build_exit",
                                      "pages_failed", "outages_in_a_row", "outages_allowed")},
         {"command": "update", "exit": 6, "status": "unreached", "crawl_exit": 6, "build_exit": 0,
          "pages_failed": 4, "outages_in_a_row": 1, "outages_allowed": 2},
         "update --json: one summary line says so: %s" % p.stdout)
    c.eq(len(p.stdout.strip().splitlines()), 1, "and only that line on standard output")
    c.eq(len([x for x in p.stderr.splitlines() if "unreachable" in x]), 2, "one line per unreachable index")
    site = tree(os.path.join(off, "site"))
    c.ok(site and "gpu/geforce-gtx-1080-ti/index.html" in site and "release/torch/2.8/index.html" in site,
         "the site is built from the declared rows")
    m = json.load(open(os.path.join(off, "site", "api", "v1", "matrix.json")))
    c.ok(m["rows"] and all(r["status"] == "declared" for r in m["rows"]), "all its rows are declared ones")

    # ---- an outage is not a hiccup: runs in a row with no index answering ---------------
    # the first counted above; the second still exits 3; the third (more than
    # --outages-allowed, default 2) exits 7, the site still built
    p = update(off)
    c.eq(p.returncode, 6, "offline, second run in a row: exit 6, a hiccup")
    c.ok("no index answered: 2 runs in a row" in p.stderr, "and it says how many: " + p.stderr[-300:])
    p = update(off)
    c.eq(p.returncode, 7, "offline, third run in a row: exit 7, an outage")
    c.eq(open(os.path.join(off, "cache", "outages")).read(), "3\n", "counted in the database folder")
    c.ok(os.path.exists(os.path.join(off, "site", "index.html")), "the site is still built")
    p = update(off, "--outages-allowed", "5")
    c.eq(p.returncode, 6, "with --outages-allowed 5, the fourth is still a hiccup")
    p = update(off, "--outages-allowed", "x")
    c.eq(p.returncode, 2, "a bad --outages-allowed: exit 2")
    # a count that cannot be kept (a folder in its place) is an outage at
    # once, never a hiccup for ever; a count that is not one starts anew
    os.remove(os.path.join(off, "cache", "outages"))
    os.makedirs(os.path.join(off, "cache", "outages"))
    p = update(off, "--json")
    s = json.loads(p.stdout.strip().splitlines()[-1])["summary"]
    c.ok(p.returncode == 7 and s["outages_in_a_row"] is None and "cannot be kept" in p.stderr,
         "a folder where the count goes: exit 7 at once (%d): %s" % (p.returncode, p.stderr[-300:]))
    os.rmdir(os.path.join(off, "cache", "outages"))
    with open(os.path.join(off, "cache", "outages"), "w") as f:
        f.write("lots\n")
    p = update(off)
    c.ok(p.returncode == 6 and "holds no count" in p.stderr and open(os.path.join(off, "cache", "outages")).read() == "1\n",
         "a count that is not one: said, counted from 1 (%d)" % p.returncode)
    for bad in (" 2", "+3", "2x", "10001", "-1", ""):
        p = update(off, "--outages-allowed", bad)
        c.eq(p.returncode, 2, "--outages-allowed %r: exit 2" % bad)
    # --no-wait against a held lock: exit 1, and --json still ends with its line
    import fcntl  # noqa: E402
    with open(os.path.join(off, "cache.lock"), "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        for cmd in (["crawl"], ["update"]):
            p = subprocess.run([args.wheelarch] + cmd + ["--json", "--no-wait"], cwd=off, capture_output=True,
                               text=True, timeout=60)
            lines = p.stdout.strip().splitlines()
            s = json.loads(lines[-1])["summary"] if lines else {}
            c.ok(p.returncode == 1 and len(lines) == 1 and s.get("status") == "failed" and "locked" in s.get("error", "")
                 and s.get("outages_in_a_row") == 1,
                 "%s --json --no-wait, the lock held: exit 1, one summary line, the count as it stands: %s"
                 % (cmd[0], p.stdout.strip()[-300:]))
    # a run that reaches an index ends the outage
    write_config(os.path.join(off, "wheelarch.json"), live)
    p = update(off)
    c.ok(p.returncode == 0 and not os.path.exists(os.path.join(off, "cache", "outages")),
         "an index answers again: exit %d, the count gone" % p.returncode)
    p = update(un, "--json")
    c.eq(p.returncode, 3, "one index of two unreachable is never an outage: exit 3")
    c.eq(json.loads(p.stdout.strip().splitlines()[-1])["summary"]["status"], "partial",
         "and its summary line says partial")
    # one wheel of many cut short: a partial crawl, exit 3, never an outage
    cut = os.path.join(W, "cut")
    os.makedirs(cut)
    write_config(os.path.join(cut, "wheelarch.json"), live)
    first = sorted(w["rel"] for w in wheels.values())[0]
    srv.set_faults({first: {"ignore_range": True, "cut": 1000}})
    p = subprocess.run([args.wheelarch, "crawl", "--json", "-j", "2"], cwd=cut, capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, WHEELARCH_TODAY=TODAY))
    srv.set_faults({})
    summary = json.loads(p.stdout.strip().splitlines()[-1])["summary"]
    c.ok(p.returncode == 3 and summary["status"] == "partial" and summary["failed"] == 1
         and summary["scanned"] + summary["inferred"] == len(wheels) - 1
         and summary["outages_in_a_row"] == 0,
         "one wheel truncated: crawl exit 3, partial, 1 failed (%d): %s" % (p.returncode, summary))
    c.ok(not os.path.exists(os.path.join(cut, "cache", "outages")), "and no outage counted")

    # ---- usage errors ------------------------------------------------------------------------
    bad = os.path.join(W, "bad")
    os.makedirs(bad)
    p = update(bad)
    c.ok(p.returncode == 2 and "wheelarch.json" in p.stderr, "no configuration: exit 2 (%s)" % p.stderr.strip())
    write_config(os.path.join(bad, "wheelarch.json"), live)
    p = update(bad, "--base-url", "ftp://x")
    c.eq(p.returncode, 2, "a bad --base-url: exit 2")
    c.eq(sorted(os.listdir(bad)), ["wheelarch.json"], "usage errors create nothing")

    # ---- crash safety ---------------------------------------------------------------------------
    # Slow every request down so the crawl takes a while, then kill update at
    # random moments of the crawl, and right after the build has begun.
    srv.set_faults({"/whl/": {"delay": 0.15}})
    crash = os.path.join(W, "crash")
    os.makedirs(crash)
    write_config(os.path.join(crash, "wheelarch.json"), live)
    cache, out = os.path.join(crash, "cache"), os.path.join(crash, "site")
    timing = os.path.join(W, "timing")  # how long a whole run takes with the slowed server
    os.makedirs(timing)
    t0 = time.monotonic()
    update(timing, "--config", os.path.join(crash, "wheelarch.json"))
    slow = time.monotonic() - t0
    rnd = random.Random(7)
    kills = {"crawl": 0, "build": 0}
    prev_site = None
    for i in range(12):
        if i == 6:  # start over once, to kill early crawls again
            shutil.rmtree(cache, ignore_errors=True)
        proc = update(crash, popen=True)
        phase = "build" if i % 2 else "crawl"
        if phase == "crawl":
            time.sleep(rnd.uniform(0.05, max(0.1, slow * 0.7)))
        else:
            # As soon as the build starts (its temporary folder appears).
            deadline = time.monotonic() + 60
            while not os.path.exists(out + ".tmp") and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.002)
            time.sleep(rnd.uniform(0.0, 0.15))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills[phase] += 1
        proc.wait()
        now = records(cache)
        bad = [f for f, b in now.items() if ref_records.get(f) != b]
        c.ok(not bad, "kill %d (%s): every record is whole and as a clean run writes it (bad: %s)" % (i, phase, bad))
        site = tree(out)
        if site is not None and site != prev_site:
            check = os.path.join(W, "check-%d" % i)
            subprocess.run([args.wheelarch, "build", "-q", "--cache", cache, "--out", check], check=True)
            c.ok(site == tree(check), "kill %d (%s): the site is the previous one or exactly what the database "
                 "builds, not a mix" % (i, phase))
        prev_site = site
    print("kills: %s (a run takes %.1f s with the slowed server)" % (kills, slow))
    c.ok(kills["crawl"] >= 4 and kills["build"] >= 3, "kills landed in the crawl and in the build: %s" % kills)
    srv.set_faults({})
    p = update(crash)
    c.eq(p.returncode, 0, "update after the kills (%s)" % p.stderr.strip())
    c.eq(records(cache), ref_records, "nothing lost: the records of a clean run")
    c.eq(tree(out), ref_site, "the site of a clean run")
    c.ok(not os.path.exists(out + ".tmp"), "no temporary folder left")
    c.eq(watest.integrity(cache), "ok", "the database passes integrity_check after the kills")
finally:
    srv.stop()
c.done()
