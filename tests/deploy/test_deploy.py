"""Deployment: `cmake --install` into a prefix and the installed binary
finding its templates and data there (not in the source tree); --version
with the feed's api-version; the manual page; the systemd units (systemd-analyze
verify against the installed binary and man page); the scheduled workflow
(yamllint, and the shape the README promises: daily cron, manual dispatch,
sharded crawl, merge, build, Pages deploy, one run at a time)."""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args(lambda ap: ap.add_argument("--build-dir", required=True))
c = watest.Checker()
W = args.work
ROOT = watest.ROOT
SITE_DB = watest.site_db(args)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


# ---- cmake --install ---------------------------------------------------------------
prefix = os.path.join(W, "prefix")
p = run(["cmake", "--install", args.build_dir, "--prefix", prefix])
c.eq(p.returncode, 0, "cmake --install (%s)" % p.stderr.strip())
exe = os.path.join(prefix, "bin", "wheelarch")
share = os.path.join(prefix, "share", "wheelarch")
for rel in ("templates/index.mustache", "templates/assets/style.css", "templates/content/methodology.md",
            "templates/schema.json", "data/gpus.csv", "data/pytorch_arch_lists.csv", "wheelarch.json"):
    c.ok(os.path.isfile(os.path.join(share, rel)), "installed share/wheelarch/" + rel)
man = os.path.join(prefix, "share", "man", "man1", "wheelarch.1")
c.ok(os.path.isfile(man), "installed the manual page")

env = {k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")}
p = run([exe, "--version"], env=env)
c.ok(p.returncode == 0 and re.match(r"wheelarch \d+\.\d+\.\d+ \(feed api-version 1\.0\)\n", p.stdout),
     "--version prints the version and the feed's api-version: " + p.stdout.splitlines()[0] if p.stdout else "")

# The installed binary uses the installed templates: mark one and look for it.
with open(os.path.join(share, "templates", "layout_foot.mustache"), "a") as f:
    f.write("<!-- installed templates -->\n")
cwd = os.path.join(W, "elsewhere")
os.makedirs(cwd)
p = run([exe, "build", "--cache", SITE_DB, "--out", "site"], cwd=cwd, env=env)
c.eq(p.returncode, 0, "the installed binary builds the site (%s)" % p.stderr.strip())
home = os.path.join(cwd, "site", "index.html")
c.ok(os.path.exists(home) and "<!-- installed templates -->" in open(home).read(),
     "the installed binary renders with the installed templates")
p = run([exe, "query", "--cc", "6.1", "--cache", os.path.join(cwd, "empty"), "--platform", "linux-x86_64"],
        cwd=cwd, env=env)
c.ok(p.returncode == 0 and "cu126" in p.stdout, "the installed binary reads the installed data (query): "
     + (p.stdout + p.stderr).strip()[:200])
# Moved away from its share/ folder (and from the build tree's knowledge of
# the sources, with WHEELARCH_TEMPLATES_DIR pointing nowhere) it says what is missing.
p = run([exe, "build", "--cache", "x", "--out", "y"], cwd=cwd,
        env=dict(env, WHEELARCH_TEMPLATES_DIR=os.path.join(W, "nowhere")))
c.ok(p.returncode != 0 and "templates" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
     "without templates: one line saying so (%s)" % p.stderr.strip())

# ---- the manual page ------------------------------------------------------------------
text = open(man).read()
c.ok(text.startswith(".TH WHEELARCH 1"), "man page header")
md = run([exe, "help", "--markdown"], env=env).stdout
for cmd in re.findall(r"^### `wheelarch (\w+)`", md, re.M):
    c.ok(".SS wheelarch %s\n" % cmd in text, "man page documents " + cmd)
for opt in sorted(set(re.findall(r"`(?:-\w, )?--([\w-]+)", md))):
    c.ok("\\-\\-" + opt.replace("-", "\\-") in text, "man page documents --" + opt)
p = run(["groff", "-man", "-Tutf8", "-ww", "-z", man])
c.ok(p.returncode == 0 and not p.stderr.strip(), "groff formats the man page without warnings: " + p.stderr.strip())
p = run(["man", "-l", man], env=dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat"))
c.ok(p.returncode == 0 and "wheelarch update" in p.stdout, "man -l shows it")

# ---- systemd units ---------------------------------------------------------------------
units = os.path.join(W, "units")
os.makedirs(units)
for name in ("wheelarch-update.service", "wheelarch-update.timer"):
    with open(os.path.join(ROOT, "contrib", "systemd", name)) as f:
        body = f.read()
    if name.endswith(".service"):
        c.ok("ExecStart=/usr/local/bin/wheelarch update" in body, "the service runs wheelarch update")
        ok_status = re.search(r"^SuccessExitStatus=(.*)$", body, re.M).group(1).split()
        c.eq(sorted(ok_status), ["3", "6"],
             "exits 3 (some wheels failed) and 6 (no index answered, a hiccup) count as success; "
             "7 (an outage) does not")
        exec_start = re.search(r"^ExecStart=((?:.*\\\n)*.*)$", body, re.M).group(1).replace("\\\n", " ")
        body = body.replace("/usr/local/bin/wheelarch", exe)
    else:
        c.ok("OnCalendar=daily" in body and "Persistent=true" in body, "the timer runs daily and catches up")
    with open(os.path.join(units, name), "w") as f:
        f.write(body)
p = run(["systemd-analyze", "verify", os.path.join(units, "wheelarch-update.service"),
         os.path.join(units, "wheelarch-update.timer")],
        env=dict(os.environ, MANPATH=os.path.join(prefix, "share", "man"), SYSTEMD_LOG_LEVEL="warning"))
c.ok(p.returncode == 0, "systemd-analyze verify: " + (p.stdout + p.stderr).strip())
# The unit's own command, judged by its own rule, in an outage: every index
# refusing (127.0.0.1, nothing listening).  The first --outages-allowed runs
# leave the unit green, the next one turns it red; a failed wheel never does.
argv = exec_start.split()
c.eq(argv[:2], ["/usr/local/bin/wheelarch", "update"], "ExecStart runs wheelarch update")
svc = os.path.join(W, "service")
os.makedirs(os.path.join(svc, "etc"))
with open(os.path.join(svc, "etc", "wheelarch.json"), "w") as f:
    json.dump({"indexes": ["http://127.0.0.1:9/whl/cu126/", "http://127.0.0.1:9/whl/cu128/"],
               "projects": ["torch"], "http": {"retries": 1, "retry_delay_ms": 20}}, f)
where = {"/etc/wheelarch/wheelarch.json": os.path.join(svc, "etc", "wheelarch.json"),
         "/var/lib/wheelarch/cache": os.path.join(svc, "cache"),
         "/var/www/wheelarch/site": os.path.join(svc, "site")}
argv = [exe] + [where.get(x, x) for x in argv[1:]]
allowed = int(argv[argv.index("--outages-allowed") + 1])


def unit_result(status):
    return "success" if status == 0 or str(status) in ok_status else "failed"


for n in range(1, allowed + 2):
    p = run(argv, cwd=svc)
    want = "success" if n <= allowed else "failed"
    c.eq((p.returncode, unit_result(p.returncode)), (6 if n <= allowed else 7, want),
         "the unit, run %d in a row with no index answering: %s (%s)" % (n, want, p.stderr.strip()[-200:]))
c.ok(os.path.isfile(os.path.join(svc, "site", "index.html")), "the site is still built in an outage")
c.eq(unit_result(3), "success", "a partial crawl (exit 3) keeps the unit green")
# The cron line of docs/robustness.md, run by sh with wheelarch on PATH and
# a mail that records what it is given.
doc = open(os.path.join(ROOT, "docs", "robustness.md")).read()
cron = re.search(r"^17 3 \* \* \*  (cd /var/lib/wheelarch && wheelarch update .*)$", doc, re.M).group(1)
binp = os.path.join(W, "cron-bin")
os.makedirs(binp)
os.symlink(exe, os.path.join(binp, "wheelarch"))
with open(os.path.join(binp, "mail"), "w") as f:
    f.write("#!/bin/sh\n{ echo \"mail $*\"; cat; } >> \"$MAILBOX\"\n")
os.chmod(os.path.join(binp, "mail"), 0o755)
mailbox = os.path.join(W, "mailbox")
cron = cron.replace("/var/lib/wheelarch", svc).replace("/var/www/wheelarch/site", os.path.join(svc, "site"))
cron = cron.replace("wheelarch update --quiet", "wheelarch update --quiet --config etc/wheelarch.json")
os.remove(os.path.join(svc, "cache", "outages"))
for n in range(1, allowed + 2):
    run(["sh", "-c", cron], env=dict(os.environ, PATH=binp + ":" + os.environ["PATH"], MAILBOX=mailbox))
    mail = open(mailbox).read() if os.path.exists(mailbox) else ""
    c.eq("exit 7" in mail, n > allowed, "cron, run %d with no index answering: mail sent only after %d runs (%r)"
         % (n, allowed, mail))

# ---- the scheduled workflow ----------------------------------------------------------------
wf_dir = os.path.join(ROOT, ".github", "workflows")
for name in sorted(os.listdir(wf_dir)):
    p = run(["yamllint", "-s", "-c", os.path.join(ROOT, ".yamllint"), os.path.join(wf_dir, name)])
    c.ok(p.returncode == 0, "yamllint %s: %s" % (name, (p.stdout + p.stderr).strip()))
wf_path = os.path.join(wf_dir, "regenerate.yml")
wf = open(wf_path).read()
c.ok(re.search(r"^\s+- cron: \"[0-9*/, -]+\"", wf, re.M), "a cron schedule")
c.ok(re.search(r"^  workflow_dispatch:", wf, re.M), "manual dispatch")
c.ok(re.search(r"^concurrency:\n  group: regenerate\n  cancel-in-progress: false", wf, re.M), "one run at a time")
shards = int(re.search(r"^  SHARDS: (\d+)", wf, re.M).group(1))
matrix = re.search(r"shard: \[([0-9, ]+)\]", wf).group(1)
c.eq([int(x) for x in matrix.split(",")], list(range(1, shards + 1)), "the matrix covers shards 1..SHARDS")
c.ok('scripts/regenerate.py crawl-shard "${{ matrix.shard }}/$SHARDS"' in wf, "each job crawls its shard")
for step in ("actions/cache/restore@", "actions/upload-artifact@", "actions/download-artifact@",
             "actions/cache/save@", "actions/upload-pages-artifact@", "actions/deploy-pages@"):
    c.ok(step in wf, "workflow uses " + step.rstrip("@"))
c.ok("build/wheelarch merge --cache cache" in wf and "build/wheelarch build --cache cache --out site" in wf,
     "merges the shards, then builds")
c.ok(re.search(r"Keep the shard's records\n(?:.*\n)*?        if: \$\{\{ !cancelled\(\) \}\}", wf)
     and "cache/wheelarch.db-wal" in wf,
     "a shard's database (with its write-ahead log) is kept even when its crawl died")
c.ok("pages: write" in wf and "id-token: write" in wf, "deploy has the Pages permissions")
# The merge step works as written: run it on two shard databases made from
# the fixture's records.
merge = re.search(r"- name: Merge the shards into the database\n(?:        #.*\n)*        run: \|\n((?:          .*\n)+)", wf).group(1)
merge = "\n".join(line[10:] for line in merge.splitlines())
m = os.path.join(W, "merge")
os.makedirs(os.path.join(m, "build"))
os.symlink(args.wheelarch, os.path.join(m, "build", "wheelarch"))
fixture = os.path.join(watest.FIXTURES, "site-db", "records")
keys = sorted(n[:-5] for n in os.listdir(fixture) if n.endswith(".json"))
a_, b_, c_ = keys[0], keys[1], keys[2]
def shard_db(name, ks):
    src = os.path.join(W, "src-" + name)
    os.makedirs(src)
    for k in ks:
        shutil.copy(os.path.join(fixture, k + ".json"), src)
    cache = os.path.join(m, "shards", name)
    p = run([args.wheelarch, "db", "import", src, "--cache", cache])
    c.eq(p.returncode, 0, "import %s (%s)" % (name, p.stderr.strip()))
    return os.path.join(cache, "wheelarch.db")
import sqlite3  # noqa: E402
s1 = shard_db("records-1", [a_, b_])
s2 = shard_db("records-2", [b_, c_])
shard_db("main", [a_])
os.rename(os.path.join(m, "shards", "main"), os.path.join(m, "cache"))
# Shard 2 died while reading d (a journal note) and failed on e; shard 1
# had crashed on b, which shard 2 then recorded.
D, E = "d" * 64, "e" * 64


def note(key, **extra):
    n = {"key": key, "url": "https://download.pytorch.org/whl/cu128/t-1.0-py3-none-any.whl",
         "filename": "t-1.0-py3-none-any.whl"}
    n.update(extra)
    return json.dumps(n)


with sqlite3.connect(s2) as con:
    con.execute("INSERT INTO journal VALUES (?, ?)", (D, note(D, started="2026-11-01")))
    con.execute("INSERT INTO failures VALUES (?, ?)", (E, note(E, error="x", kind=None)))
with sqlite3.connect(s1) as con:
    con.execute("INSERT INTO failures VALUES (?, ?)", (b_, note(b_, kind="crashed")))
p = run(["bash", "-euo", "pipefail", "-c", merge], cwd=m)
c.eq(p.returncode, 0, "the merge step runs (%s)" % p.stderr.strip())
cache = os.path.join(m, "cache")
c.eq(sorted(watest.records(cache)), sorted([a_, b_, c_]), "merged records")
c.eq(watest.db_query(cache, "SELECT key FROM journal"), [], "no shard's journal row is copied")
c.eq(watest.db_query(cache, "SELECT key, json_extract(failure, '$.kind') FROM failures"),
     [(D, "unfinished")],
     "a dead shard's unfinished scan comes as a failure to scan alone; ordinary failures, and "
     "those of wheels another shard recorded, do not")
c.eq(watest.integrity(cache), "ok", "the merged database passes integrity_check")
c.done()
