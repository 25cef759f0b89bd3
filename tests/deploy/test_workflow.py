"""The scheduled workflow, run: .github/workflows/regenerate.yml's jobs and
steps executed in order as GitHub Actions would, against indexes served on
127.0.0.1, so that what decides a run's colour is tested, not only its text.

The runner here reads the workflow with PyYAML and plays each job on a fresh
copy of a checkout (the test's build stands in for the install and cmake
steps).  `run:` steps go through `bash --noprofile --norc -eo pipefail` with
the workflow's, job's and step's env, ${{ }} expressions expanded and
$GITHUB_OUTPUT read back; the actions the workflow uses (checkout, cache
restore and save, artifact upload and download, Pages upload and deploy) are
played by copying folders in a store kept between runs.  An expression or
an action it does not know fails the test, so a change to the workflow
cannot slip past it.

  - one wheel cut short: the run passes (crawl exit 3 is a hiccup);
  - every index refusing (127.0.0.1, nothing listening): the first
    OUTAGES_ALLOWED runs pass, the next fails in its last job, and the site
    is still deployed; an index answering again ends the count;
  - a -wal of another database left in the saved cache is dropped before the
    database is opened (left there, SQLite applies it: shown on a copy)."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sitedb  # noqa: E402
import watest  # noqa: E402
try:
    import yaml
except ImportError:  # an interpreter other than Debian's: its python3-yaml
    sys.path.append("/usr/lib/python3/dist-packages")
    import yaml

args = watest.parse_args()
c = watest.Checker()
W = args.work
ROOT = watest.ROOT
WF = yaml.safe_load(open(os.path.join(ROOT, ".github", "workflows", "regenerate.yml")))
SKIPPED = ("Install the build dependencies", "Build wheelarch")  # the test's build stands in


class Store:
    """What GitHub keeps between jobs and runs: caches and artifacts."""

    def __init__(self, root):
        self.root = root
        self.caches = []  # (key, folder), oldest first
        self.run_id = 0
        self.deployed = []  # (run id, site folder copy)

    def begin(self):
        self.run_id += 1
        self.artifacts = {}


def expand(text, ctx):
    """${{ expr }} replaced by its value; unknown names fail."""
    def one(m):
        v = value(m.group(1).strip(), ctx)
        return "" if v is None else str(v)
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def value(expr, ctx):
    if expr in ctx["values"]:
        return ctx["values"][expr]
    m = re.fullmatch(r"steps\.(\w+)\.outputs\.(\w+)", expr)
    if m:
        return ctx["steps"].get(m.group(1), {}).get(m.group(2), "")
    m = re.fullmatch(r"needs\.(\w+)\.(result|outputs\.(\w+))", expr)
    if m:
        job = ctx["needs"][m.group(1)]
        return job["result"] if m.group(2) == "result" else job["outputs"].get(m.group(3), "")
    raise AssertionError("workflow expression the runner does not know: %r" % expr)


def condition(text, ctx, failed):
    """A step's or job's if: (default success())."""
    if text is None:
        return not failed
    expr = str(text).strip()
    if expr.startswith("${{") and expr.endswith("}}"):
        expr = expr[3:-2].strip()
    runs_after_failure = "!cancelled()" in expr or "always()" in expr
    parts = [x.strip() for x in expr.split("&&")]
    ok = True
    for part in parts:
        if part in ("!cancelled()", "always()"):
            continue
        m = re.fullmatch(r"([\w.]+) == '([^']*)'", part)
        if not m:
            raise AssertionError("workflow condition the runner does not know: %r" % part)
        ok = ok and str(value(m.group(1), ctx)) == m.group(2)
    return ok and (runs_after_failure or not failed)


def play_action(uses, with_, ws, store, ctx, log):
    name = uses.split("@")[0]
    if name == "actions/checkout":
        return True
    if name == "actions/cache/restore":
        key = expand(with_["key"], ctx)
        prefixes = [key] + [expand(x, ctx) for x in str(with_.get("restore-keys", "")).split()]
        for prefix in prefixes:
            hits = [f for k, f in store.caches if k.startswith(prefix)]
            if hits:
                shutil.copytree(hits[-1], os.path.join(ws, with_["path"]), dirs_exist_ok=True)
                log.append("cache restored")
                break
        return True
    if name == "actions/cache/save":
        key = expand(with_["key"], ctx)
        if any(k == key for k, _ in store.caches):
            return True  # GitHub refuses to overwrite a key; the step warns
        dest = os.path.join(store.root, "cache-%d-%d" % (store.run_id, len(store.caches)))
        shutil.copytree(os.path.join(ws, with_["path"]), dest)
        store.caches.append((key, dest))
        return True
    if name == "actions/upload-artifact":
        paths = [os.path.join(ws, p) for p in with_["path"].split()]
        present = [p for p in paths if os.path.exists(p)]
        if not present:
            return with_.get("if-no-files-found", "warn") != "error"
        base = os.path.commonpath([os.path.dirname(p) for p in paths])
        dest = os.path.join(store.root, "artifact-%d-%s" % (store.run_id, expand(with_["name"], ctx)))
        for p in present:
            os.makedirs(os.path.dirname(os.path.join(dest, os.path.relpath(p, base))), exist_ok=True)
            shutil.copy2(p, os.path.join(dest, os.path.relpath(p, base)))
        store.artifacts[expand(with_["name"], ctx)] = dest
        return True
    if name == "actions/download-artifact":
        pat = re.compile(with_["pattern"].replace("*", ".*") + "$")
        for n, folder in sorted(store.artifacts.items()):
            if pat.match(n):
                shutil.copytree(folder, os.path.join(ws, with_["path"], n))
        return True
    if name == "actions/upload-pages-artifact":
        site = os.path.join(ws, with_["path"])
        if not os.path.isfile(os.path.join(site, "index.html")):
            return False
        store.artifacts["github-pages"] = site
        return True
    if name == "actions/deploy-pages":
        if "github-pages" not in store.artifacts:
            return False
        store.deployed.append(store.run_id)
        return True
    raise AssertionError("an action the runner does not play: %s" % uses)


def run_job(name, job, store, needs, checkout, matrix=None):
    ws = os.path.join(W, "ws-%d-%s%s" % (store.run_id, name, "-%s" % matrix if matrix else ""))
    shutil.copytree(checkout, ws, symlinks=True)
    ctx = {"steps": {}, "needs": needs,
           "values": {"github.run_id": str(store.run_id), "github.repository_owner": "owner",
                      "github.event.repository.name": "wheelarch"}}
    if matrix is not None:
        ctx["values"]["matrix.shard"] = str(matrix)
    env = dict(os.environ, **{k: str(v) for k, v in WF.get("env", {}).items()})
    env.update({k: str(v) for k, v in job.get("env", {}).items()})
    env["WHEELARCH_TODAY"] = "2026-11-01"
    failed, log = False, []
    for i, step in enumerate(job["steps"]):
        if not condition(step.get("if"), ctx, failed):
            continue
        if step.get("name") in SKIPPED:
            continue
        if "uses" in step:
            ok = play_action(step["uses"], step.get("with", {}), ws, store, ctx, log)
        else:
            out = os.path.join(ws, ".github-output-%d" % i)
            open(out, "w").close()
            senv = dict(env, GITHUB_OUTPUT=out)
            senv.update({k: expand(str(v), ctx) for k, v in step.get("env", {}).items()})
            script = os.path.join(ws, ".step-%d.sh" % i)
            with open(script, "w") as f:
                f.write(expand(step["run"], ctx))
            p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=ws,
                               env=senv, capture_output=True, text=True, timeout=600)
            log.append("%s: exit %d\n%s%s" % (step.get("name"), p.returncode, p.stdout, p.stderr))
            ok = p.returncode == 0 or step.get("continue-on-error") is True
            if "id" in step:
                with open(out) as f:
                    ctx["steps"][step["id"]] = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        if not ok:
            failed = True
            log.append("FAILED: %s" % (step.get("name") or step.get("uses")))
    outputs = {k: expand(str(v), ctx) for k, v in job.get("outputs", {}).items()}
    return {"result": "failure" if failed else "success", "outputs": outputs, "log": log, "ws": ws}


def run_workflow(store, checkout):
    """Plays every job in order of `needs`; returns {job: result}."""
    store.begin()
    done = {}
    pending = list(WF["jobs"])
    while pending:
        for name in pending:
            job = WF["jobs"][name]
            deps = job.get("needs", [])
            deps = [deps] if isinstance(deps, str) else deps
            if all(d in done for d in deps):
                break
        else:
            raise AssertionError("jobs whose needs never finish: %s" % pending)
        pending.remove(name)
        needs = {d: done[d] for d in deps}
        ctx = {"needs": needs, "steps": {}, "values": {}}
        deps_ok = all(n["result"] == "success" for n in needs.values())
        if not condition(job.get("if"), ctx, not deps_ok):
            done[name] = {"result": "skipped", "outputs": {}, "log": []}
            continue
        shards = job.get("strategy", {}).get("matrix", {}).get("shard")
        if shards:
            runs = [run_job(name, job, store, needs, checkout, s) for s in shards]
            done[name] = {"result": "failure" if any(r["result"] == "failure" for r in runs) else "success",
                          "outputs": {}, "log": sum((r["log"] for r in runs), []), "ws": runs[0]["ws"]}
        else:
            done[name] = run_job(name, job, store, needs, checkout)
    return done


def colour(done):
    return "failure" if any(j["result"] == "failure" for j in done.values()) else "success"


def checkout_with(name, indexes):
    """A checkout as a runner sees it, built: scripts/, the configuration,
    build/wheelarch."""
    co = os.path.join(W, "checkout-" + name)
    os.makedirs(os.path.join(co, "build"))
    os.symlink(os.path.join(ROOT, "scripts"), os.path.join(co, "scripts"))
    os.symlink(args.wheelarch, os.path.join(co, "build", "wheelarch"))
    with open(os.path.join(co, "wheelarch.json"), "w") as f:
        json.dump({"indexes": indexes, "projects": ["torch", "torchvision"],
                   "http": {"retries": 1, "retry_delay_ms": 20, "connect_timeout_ms": 2000,
                            "stall_timeout_ms": 5000}}, f)
    return co


def newest_cache(store):
    return store.caches[-1][1] if store.caches else None


allowed = int(WF["env"]["OUTAGES_ALLOWED"])
c.ok(allowed >= 1, "the workflow allows some runs without an answer (OUTAGES_ALLOWED=%d)" % allowed)
wheels, srv = sitedb.start(W)
ids = ["cpu", "cu126", "cu128", "cu130", "rocm6.3", "rocm6.4"]
live = [srv.url + "/whl/%s/" % i for i in ids]
refusing = ["http://127.0.0.1:9/whl/%s/" % i for i in ids]  # port 9: nothing listens
try:
    # ---- one wheel cut short: a hiccup, the run passes ----------------------------
    store = Store(os.path.join(W, "store"))
    os.makedirs(store.root)
    up = checkout_with("live", live)
    first = sorted(w["rel"] for w in wheels.values())[0]
    srv.set_faults({first: {"ignore_range": True, "cut": 1000, "times": 100}})
    done = run_workflow(store, up)
    srv.set_faults({})
    c.eq(colour(done), "success", "one wheel truncated: the run passes\n" + "\n".join(done["crawl"]["log"][-6:]))
    c.eq(done["outage"]["result"], "skipped", "and its outage job does not run")
    c.eq(store.deployed, [1], "the site is deployed")
    cache = newest_cache(store)
    got = watest.records(cache)
    c.eq(len(got), len(wheels) - 1, "every other wheel recorded and saved (%d of %d)" % (len(got), len(wheels)))
    c.ok(not os.path.exists(os.path.join(cache, "outages")), "no outage counted")
    c.ok(any("exit 3 (partial)" in line for line in done["crawl"]["log"]),
         "the shard that met the cut wheel said exit 3, partial")

    # ---- a -wal of another database in the saved cache ------------------------------
    other = os.path.join(W, "other.db")
    con = sqlite3.connect(other)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("CREATE TABLE t(x)")
    con.executemany("INSERT INTO t VALUES (?)", [("x" * 3000,)] * 40)
    con.commit()
    shutil.copy(other + "-wal", os.path.join(cache, "wheelarch.db-wal"))
    con.close()
    probe = os.path.join(W, "probe")
    shutil.copytree(cache, probe)
    p = subprocess.run([args.wheelarch, "db", "check", "--cache", probe], capture_output=True, text=True)
    c.ok(p.returncode != 0 or "%d records" % len(got) not in p.stdout,
         "left there, SQLite applies the foreign log: the records are gone or the check fails "
         "(exit %d): %s" % (p.returncode, (p.stdout + p.stderr).strip()[-200:]))
    srv.clear_log()
    done = run_workflow(store, up)
    c.eq(colour(done), "success", "the next run drops the foreign log and passes\n" + "\n".join(done["build"]["log"][-6:]))
    c.ok(any("removed cache/wheelarch.db-wal" in line for line in done["build"]["log"]),
         "and says it removed it")
    c.eq(len(watest.records(newest_cache(store))), len(wheels), "the database is whole, the cut wheel now read")
    c.eq(watest.integrity(newest_cache(store)), "ok", "and passes integrity_check")

    # ---- every index refusing: an outage after OUTAGES_ALLOWED runs ------------------
    down = checkout_with("down", refusing)
    for n in range(1, allowed + 2):
        done = run_workflow(store, down)
        if n <= allowed:
            c.eq(colour(done), "success", "no index answering, run %d of %d allowed: passes" % (n, allowed))
            c.eq(done["build"]["outputs"], {"outage": "false", "outages": str(n)}, "run %d counted" % n)
        else:
            c.eq(colour(done), "failure", "run %d in a row without an answer: the run fails" % n)
            c.eq((done["build"]["result"], done["deploy"]["result"], done["outage"]["result"]),
                 ("success", "success", "failure"),
                 "its last job fails; the site is still built and deployed")
            c.ok(any("no index answered for %d runs in a row" % n in line for line in done["outage"]["log"]),
                 "and says why: %s" % done["outage"]["log"][-1:])
        c.eq(open(os.path.join(newest_cache(store), "outages")).read(), "%d\n" % n,
             "the count is saved with the database (run %d)" % n)
    c.eq(len(watest.records(newest_cache(store))), len(wheels), "an outage loses no record")
    # an index answers again: the run passes and the count is gone
    done = run_workflow(store, up)
    c.eq(colour(done), "success", "an index answers again: the run passes")
    c.ok(not os.path.exists(os.path.join(newest_cache(store), "outages")), "and the count is removed")
    # a shard that died leaves no summary: not counted, never an outage by itself
    shards = os.path.join(W, "lone-shards")
    os.makedirs(os.path.join(shards, "records-1"))
    lone = os.path.join(W, "lone-cache")
    os.makedirs(lone)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "regenerate.py"), "outages", shards, lone],
                       capture_output=True, text=True, env=dict(os.environ, GITHUB_OUTPUT=os.path.join(W, "lone.out")))
    c.ok(p.returncode == 0 and "no crawl summary" in p.stdout and open(os.path.join(W, "lone.out")).read()
         == "outage=false\noutages=0\n", "a shard without a summary is not counted: %s" % p.stdout.strip())
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "regenerate.py"), "outages", shards, lone],
                       capture_output=True, text=True, env=dict(os.environ, OUTAGES_ALLOWED="x"))
    c.ok(p.returncode != 0 and "OUTAGES_ALLOWED" in p.stderr, "a bad OUTAGES_ALLOWED is refused: " + p.stderr.strip())
    # hostile or broken shard summaries: never a traceback, never a hang;
    # a bad one is not counted, a shard that failed for another cause says
    # nothing about the indexes
    rg = [sys.executable, os.path.join(ROOT, "scripts", "regenerate.py")]
    bad = ['{"summary":"x"}', "[1]", "null", '{"summary":{"status":"outage","outages_in_a_row":"abc"}}',
           '{"summary":{"status":"outage","outages_in_a_row":NaN}}', '{"summary":{"status":"outage","outages_in_a_row":1e308}}',
           '{"summary":{"status":"outage","outages_in_a_row":-5}}', '{"summary":{"status":"outage","outages_in_a_row":true}}',
           '{"summary":{"status":"nope"}}', "[" * 100000, "\xff\xfe", ""]
    for i, text in enumerate(bad):
        sh = os.path.join(W, "bad-shards-%d" % i)
        os.makedirs(os.path.join(sh, "a"))
        with open(os.path.join(sh, "a", "crawl-summary.json"), "w", encoding="latin-1") as f:
            f.write(text)
        bc = os.path.join(W, "bad-cache-%d" % i)
        os.makedirs(bc)
        with open(os.path.join(bc, "outages"), "w") as f:
            f.write("5\n")
        p = subprocess.run(rg + ["outages", sh, bc], capture_output=True, text=True, timeout=30)
        c.ok(p.returncode == 0 and "Traceback" not in p.stderr and "not a crawl summary" in p.stdout
             and open(os.path.join(bc, "outages")).read() == "5\n",
             "a bad summary %r: a warning, not counted, the count kept (%d): %s" % (text[:40], p.returncode,
                                                                                (p.stdout + p.stderr).strip()[-200:]))
    sh = os.path.join(W, "fifo-shards")
    os.makedirs(os.path.join(sh, "a"))
    os.mkfifo(os.path.join(sh, "a", "crawl-summary.json"))
    p = subprocess.run(rg + ["outages", sh, os.path.join(W, "fifo-cache")], capture_output=True, text=True, timeout=30)
    c.ok(p.returncode == 0 and "not a regular file" in p.stdout, "a FIFO for a summary: no hang: " + p.stdout.strip())
    # a failed crawl (the database locked, say) does not end an outage
    sh = os.path.join(W, "mixed-shards")
    for name, st in (("a", {"status": "outage", "outages_in_a_row": 6}), ("b", {"status": "failed", "outages_in_a_row": 0})):
        os.makedirs(os.path.join(sh, name))
        with open(os.path.join(sh, name, "crawl-summary.json"), "w") as f:
            json.dump({"summary": st}, f)
    mc = os.path.join(W, "mixed-cache")
    os.makedirs(mc)
    p = subprocess.run(rg + ["outages", sh, mc], capture_output=True, text=True, timeout=30)
    c.ok(p.returncode == 0 and open(os.path.join(mc, "outages")).read() == "6\n",
         "a shard that failed otherwise does not end the outage: %s" % p.stdout.strip())
    # the count's file is never written through a link left beside it
    target = os.path.join(W, "not-the-cache.txt")
    with open(target, "w") as f:
        f.write("mine\n")
    os.symlink(target, os.path.join(mc, "outages.tmp"))
    os.symlink(target, os.path.join(mc, ".regenerate-x"))
    p = subprocess.run(rg + ["outages", sh, mc], capture_output=True, text=True, timeout=30)
    c.ok(open(target).read() == "mine\n" and not os.path.islink(os.path.join(mc, "outages")),
         "links beside the count are not followed")
    # the count cannot be kept (a folder in its place): one line, exit 1
    os.remove(os.path.join(mc, "outages"))
    os.makedirs(os.path.join(mc, "outages"))
    p = subprocess.run(rg + ["outages", sh, mc], capture_output=True, text=True, timeout=30)
    c.ok(p.returncode == 1 and "Traceback" not in p.stderr and "cannot keep the count" in p.stderr,
         "a folder where the count goes: exit 1 in one line (%d): %s" % (p.returncode, p.stderr.strip()))
    for val in ("\u00b2", "\u0663", " 2", "-1"):
        p = subprocess.run(rg + ["outages", sh, mc], capture_output=True, text=True, timeout=30,
                           env=dict(os.environ, OUTAGES_ALLOWED=val))
        c.ok(p.returncode == 1 and "OUTAGES_ALLOWED" in p.stderr and "Traceback" not in p.stderr,
             "OUTAGES_ALLOWED=%r refused in one line" % val)
    # crawl-shard drops the last run's summary first: a crawl that leaves
    # none (it could not start) is never counted with an old one
    sc = os.path.join(W, "stale-cache")
    os.makedirs(sc)
    with open(os.path.join(sc, "crawl-summary.json"), "w") as f:
        json.dump({"summary": {"status": "ok", "outages_in_a_row": 0}}, f)
    p = subprocess.run(rg + ["crawl-shard", "1/1", sc, os.path.join(W, "no-such-wheelarch")], capture_output=True,
                       text=True, timeout=30)
    c.ok(p.returncode == 1 and "cannot run it" in p.stderr and not os.path.exists(os.path.join(sc, "crawl-summary.json")),
         "crawl-shard with no wheelarch: exit 1 in one line, no stale summary: %s" % p.stderr.strip())
finally:
    srv.stop()
c.done()
