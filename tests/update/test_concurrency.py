"""One writer at a time: builds and updates started together on the same
folders, many times, against wheels served on 127.0.0.1 (tests/lib/sitedb.py).

  - two builds of one output folder, with different --base-url so both
    change it: both exit 0 and the folder is always exactly one of the two
    reference sites, never a mix or a half-written tree;
  - two updates on one cache and one output folder: both exit 0, every
    record as a clean run writes it, the site complete; two updates a
    moment apart likewise;
  - a held lock: --no-wait fails at once naming the holder, a second run
    waits (and says so) and finishes after the holder lets go;
  - --out equal to, inside or around --cache: a usage error before
    anything is touched;
  - the journal: a crawl killed while a wheel hangs leaves a note; the next
    run records that wheel as failed; the run after scans it alone in a
    child process, and when that child crashes (SIGSEGV, sent by the test)
    the run goes on, builds the site and exits 3; later runs do not retry
    the wheel that crashed."""
import fcntl
import hashlib
import json
import os
import re
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
ENV = dict(os.environ, WHEELARCH_TODAY="2026-11-01")
ROUNDS = 8






def start(*argv):
    return subprocess.Popen([args.wheelarch] + list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=ENV)


def run(*argv, timeout=300):
    return subprocess.run([args.wheelarch] + list(argv), capture_output=True, text=True, env=ENV,
                          timeout=timeout)


def config(path, urls, stall_ms=5000):
    with open(path, "w") as f:
        json.dump({"indexes": urls, "projects": ["torch", "torchvision"],
                   "http": {"retries": 1, "retry_delay_ms": 20, "connect_timeout_ms": 3000,
                            "stall_timeout_ms": stall_ms}}, f)
    return path


wheels, srv = sitedb.start(W)
ids = ["cpu", "cu126", "cu128", "cu130", "rocm6.3", "rocm6.4"]
live = [srv.url + "/whl/%s/" % i for i in ids]
try:
    cfg = config(os.path.join(W, "wheelarch.json"), live)
    db = os.path.join(W, "db")
    p = run("crawl", "-q", "--config", cfg, "--cache", db)
    c.eq(p.returncode, 0, "reference crawl (%s)" % p.stderr)
    refs = {}
    for name in ("a", "b"):
        out = os.path.join(W, "ref-" + name)
        p = run("build", "-q", "--cache", db, "--out", out, "--base-url", "https://%s.example/" % name)
        c.eq(p.returncode, 0, "reference build %s" % name)
        refs[name] = tree(out)
    c.ok(refs["a"] != refs["b"], "the two reference sites differ")

    # ---- two builds on one folder --------------------------------------------------
    site = os.path.join(W, "site")
    waited = 0
    for i in range(ROUNDS):
        if i % 2 == 0:
            shutil.rmtree(site, ignore_errors=True)
        pa = start("build", "--cache", db, "--out", site, "--base-url", "https://a.example/")
        pb = start("build", "--cache", db, "--out", site, "--base-url", "https://b.example/")
        ea, eb = pa.communicate(timeout=300), pb.communicate(timeout=300)
        c.eq((pa.returncode, pb.returncode), (0, 0), "round %d: both builds exit 0 (%s %s)" % (i, ea[1], eb[1]))
        waited += sum("waiting for process" in e[1] for e in (ea, eb))
        got = tree(site)
        c.ok(got in (refs["a"], refs["b"]), "round %d: the folder is one whole site, not a mix" % i)
        c.ok(not os.path.exists(site + ".tmp"), "round %d: no temporary tree left" % i)
    print("builds that waited for the other: %d of %d" % (waited, 2 * ROUNDS))
    c.ok(waited >= 1, "at least one build waited for the other")

    # ---- two updates on one cache and one folder ---------------------------------------
    ref_up = os.path.join(W, "ref-update")
    p = run("update", "-q", "--config", cfg, "--cache", os.path.join(ref_up, "cache"), "--out",
            os.path.join(ref_up, "site"))
    c.eq(p.returncode, 0, "reference update")
    ref_site = tree(os.path.join(ref_up, "site"))
    ref_records = records(os.path.join(ref_up, "cache"))
    for i in range(ROUNDS):
        d = os.path.join(W, "up%d" % i)
        cache, out = os.path.join(d, "cache"), os.path.join(d, "site")
        pa = start("update", "-q", "--config", cfg, "--cache", cache, "--out", out)
        if i % 2:
            time.sleep(0.3)  # "a few seconds apart", scaled to this small index
        pb = start("update", "-q", "--config", cfg, "--cache", cache, "--out", out)
        ea, eb = pa.communicate(timeout=300), pb.communicate(timeout=300)
        c.eq((pa.returncode, pb.returncode), (0, 0), "updates %d: both exit 0 (%s | %s)" % (i, ea[1], eb[1]))
        c.eq(records(cache), ref_records, "updates %d: every record as a clean run writes it" % i)
        c.eq(tree(out), ref_site, "updates %d: the site is complete" % i)

    # ---- a held lock ------------------------------------------------------------------------
    held = os.path.join(W, "held")
    fd = os.open(held + ".lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.write(fd, b"%d\n" % os.getpid())
    p = run("build", "--no-wait", "--cache", db, "--out", held)
    c.eq(p.returncode, 1, "--no-wait on a held lock: exit 1")
    c.ok("locked by process %d" % os.getpid() in p.stderr, "and names the holder: %s" % p.stderr)
    for spelling in (held + "/", held + "/.", os.path.join(W, ".", "held")):
        p = run("build", "--no-wait", "--cache", db, "--out", spelling)
        c.eq(p.returncode, 1, "%s is the same folder, with the same lock" % spelling)
    c.ok(not os.path.exists(held) and not os.path.exists(held + ".tmp"), "nothing built")
    p = run("update", "--no-wait", "--config", cfg, "--cache", held, "--out", os.path.join(W, "held-site"))
    c.eq(p.returncode, 1, "update --no-wait on a held cache lock: exit 1")
    c.ok(not os.path.exists(os.path.join(W, "held-site")), "update stopped before building")
    waiter = start("build", "--cache", db, "--out", held)
    time.sleep(1.0)
    c.ok(waiter.poll() is None, "without --no-wait the build waits")
    os.close(fd)
    _, err = waiter.communicate(timeout=120)
    c.eq(waiter.returncode, 0, "and finishes once the lock is free")
    c.ok("waiting for process %d" % os.getpid() in err, "after saying whom it waits for: %s" % err)
    c.ok(os.path.exists(os.path.join(held, "index.html")), "the waiting build built the site")

    # ---- overlapping folders ------------------------------------------------------------------
    x = os.path.join(W, "x")
    shutil.copytree(db, x)
    before = tree(x)
    os.makedirs(os.path.join(W, "y.tmp", "records"))
    p = run("build", "--cache", os.path.join(W, "y.tmp"), "--out", os.path.join(W, "y") + "/")
    c.eq(p.returncode, 2, "--out y/ with --cache y.tmp (the build's temporary tree): a usage error")
    c.ok(os.path.isdir(os.path.join(W, "y.tmp", "records")), "and y.tmp is left alone")
    for argv in (["build", "--cache", x, "--out", x],
                 ["build", "--cache", x, "--out", os.path.join(x, "site")],
                 ["build", "--cache", os.path.join(x, "records"), "--out", x],
                 ["build", "--cache", x, "--out", x + "/."],
                 ["update", "--config", cfg, "--cache", x, "--out", x]):
        p = run(*argv)
        c.eq(p.returncode, 2, "%s: a usage error" % " ".join(argv[1:]))
        c.ok("overlap" in p.stderr, "and says why: %s" % p.stderr.strip().splitlines()[:1])
        c.eq(tree(x), before, "%s: the database is untouched" % " ".join(argv[1:]))
    # A symbolic link does not hide the overlap.
    os.symlink(x, os.path.join(W, "x-link"))
    p = run("build", "--cache", x, "--out", os.path.join(W, "x-link", "out"))
    c.eq(p.returncode, 2, "--out through a symbolic link into the cache: a usage error")

    # ---- the journal, the isolated pass, a crashed child ----------------------------------
    j = os.path.join(W, "journal")
    os.makedirs(j)
    jcfg = config(os.path.join(j, "wheelarch.json"), [srv.url + "/whl/cu126/"], stall_ms=120000)
    hang = [f for f, w in wheels.items() if w["index"] == "cu126" and f.endswith("win_amd64.whl")][0]
    srv.set_faults({wheels[hang]["rel"]: {"delay": 300}})
    cache, out = os.path.join(j, "cache"), os.path.join(j, "site")
    proc = start("crawl", "-j", "1", "--config", jcfg, "--cache", cache)
    def journal():
        try:
            return [n for (n,) in watest.db_query(cache, "SELECT note FROM journal")]
        except Exception:  # not created yet
            return []

    deadline = time.time() + 60
    while time.time() < deadline and not any(hang in n for n in journal()):
        time.sleep(0.05)
    time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    notes = journal()
    c.eq(len(notes), 1, "the hanging wheel is noted in the journal when the crawl is killed")
    srv.clear_log()
    p = run("crawl", "--json", "--config", jcfg, "--cache", cache)
    c.eq(p.returncode, 3, "the next run: exit 3")
    lines = {json.loads(l)["filename"]: json.loads(l) for l in p.stdout.splitlines()
             if l.strip() and not l.startswith('{"summary"')}
    c.eq(lines.get(hang, {}).get("status"), "failed", "the noted wheel is failed")
    c.ok("did not finish last time" in (lines.get(hang, {}).get("error") or ""), "and says why")
    c.ok(all(l["status"] != "failed" for f, l in lines.items() if f != hang), "the others are recorded")
    c.eq([e for e in srv.entries() if e["path"] == wheels[hang]["rel"]], [],
         "the noted wheel is not requested again in that run")
    def child_of(parent):
        deadline = time.time() + 60
        while time.time() < deadline:
            for pid in os.listdir("/proc"):
                if pid.isdigit():
                    try:
                        with open("/proc/%s/stat" % pid) as f:
                            if int(f.read().rsplit(")", 1)[1].split()[1]) == parent:
                                return int(pid)
                    except (OSError, ValueError, IndexError):
                        pass
            time.sleep(0.05)
        return None

    # The run after: the wheel is scanned alone in a child, which hangs on
    # the server.  Stopped from outside (SIGTERM), it is not the wheel's
    # fault: retried alone next time.
    proc = start("crawl", "--config", jcfg, "--cache", cache)
    child = child_of(proc.pid)
    c.ok(child is not None, "the isolated scan runs in a child process")
    if child:
        time.sleep(0.3)
        os.kill(child, signal.SIGTERM)
    o, e = proc.communicate(timeout=120)
    c.eq(proc.returncode, 3, "a stopped isolated scan: exit 3")
    c.ok("stopped (signal 15" in e and "retried alone" in e, "reported as stopped, to retry: %s" % e[-300:])
    # Next: it is retried alone again, and this time the child crashes.
    proc = start("update", "--config", jcfg, "--cache", cache, "--out", out)
    child = child_of(proc.pid)
    c.ok(child is not None, "the stopped wheel is retried in a child process")
    if child:
        time.sleep(0.3)
        os.kill(child, signal.SIGSEGV)
    o, e = proc.communicate(timeout=120)
    c.eq(proc.returncode, 3, "a crashed isolated scan: update goes on and exits 3 (%s)" % e[-400:])
    # SIGSEGV, or SIGABRT when AddressSanitizer catches it first (make test-asan).
    c.ok(re.search(r"crashed wheelarch \S+ \(signal (11|6), ", e), "the crash is reported: %s" % e[-400:])
    c.ok(os.path.exists(os.path.join(out, "index.html")), "and the site is built")
    srv.clear_log()
    p = run("crawl", "--json", "--config", jcfg, "--cache", cache)
    c.eq(p.returncode, 3, "later runs: exit 3")
    lines = {json.loads(l)["filename"]: json.loads(l) for l in p.stdout.splitlines()
             if l.strip() and not l.startswith('{"summary"')}
    c.ok("not retried until wheelarch changes" in (lines.get(hang, {}).get("error") or ""),
         "the crashed wheel is not retried: %s" % lines.get(hang))
    c.eq([e for e in srv.entries() if e["path"] == wheels[hang]["rel"]], [], "no request for it")
    srv.set_faults({})
finally:
    srv.stop()
c.done()
