"""A shard is untrusted input (docs/robustness.md, "What a merge takes").

Each hostile shard below is a real SQLite file, made from a wheelarch
database by hand.  `merge` must refuse it with one line (exit 1 when it is the
only input) within seconds and little memory, leave the target as it was,
and never write the input: no checkpoint of its -wal, no -shm made, no byte
changed.  What an honest shard carries besides records is only the wheels
whose scan did not finish, as failures to be scanned alone next time; its
HTTP cache, its ordinary failures and its word that a wheel "crashed" never
come along."""
import hashlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
base = watest.site_db(args)
N = len(watest.records(base))
SANITIZED = watest.sanitized(args)  # peak memory is measured only without ASan
# merge's private copies of shards go to TMPDIR: this test's own, to see
# that none is left behind
TMP = os.path.join(W, "tmp")
os.makedirs(TMP)
ENV = dict(os.environ, TMPDIR=TMP)


def shard(name, sql=None, keep_wal=False):
    """A copy of the fixture database with sql run on it; with keep_wal the
    change stays in the -wal file (the process exits without a checkpoint)."""
    d = os.path.join(W, name)
    shutil.copytree(base, d)
    path = watest.db_path(d)
    if sql:
        code = ("import sqlite3, os, sys\n"
                "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "con.execute('PRAGMA wal_autocheckpoint = 0')\n"
                "con.executescript(sys.argv[2])\n")
        code += "os._exit(0)\n" if keep_wal else "con.close()\n"
        subprocess.run([sys.executable, "-c", code, path, sql], check=True)
    return path


def digest(path):
    """The bytes of a file as a hash of its size, its modification time and
    its data extents (SEEK_DATA/SEEK_HOLE): a 3 GiB sparse file is read
    where it holds data, not as 3 GiB of zeros; a byte written anywhere,
    hole or not, changes it."""
    h = hashlib.sha256()
    st = os.stat(path)
    h.update(b"%d %d\n" % (st.st_size, st.st_mtime_ns))
    with open(path, "rb") as f:
        fd, pos = f.fileno(), 0
        while pos < st.st_size:
            try:
                pos = os.lseek(fd, pos, os.SEEK_DATA)
                end = os.lseek(fd, pos, os.SEEK_HOLE)
            except OSError:  # no data after pos
                break
            f.seek(pos)
            h.update(b"@%d\n" % pos)
            while pos < end:
                chunk = f.read(min(end - pos, 1 << 20))
                if not chunk:
                    break
                h.update(chunk)
                pos += len(chunk)
    return h.hexdigest()


def files_of(path):
    d = os.path.dirname(path)
    return {n: digest(os.path.join(d, n)) for n in sorted(os.listdir(d))}


def merge(name, *inputs, timeout=60):
    into = os.path.join(W, "into-" + name)
    if not os.path.exists(into):
        shutil.copytree(base, into)
    before = {i: files_of(i) for i in inputs}
    t0 = time.time()
    try:
        p = subprocess.run(["/usr/bin/time", "-f", "maxrss=%M", args.wheelarch, "merge", "--cache",
                            into] + list(inputs), capture_output=True, text=True, timeout=timeout,
                           env=ENV)
    except subprocess.TimeoutExpired:
        c.ok(False, "%s: merge still running after %d s (killed)" % (name, timeout))
        subprocess.run(["pkill", "-f", into])
        p = subprocess.CompletedProcess([], -9, "", "")
    secs = time.time() - t0
    rss = [int(l.split("=")[1]) for l in p.stderr.splitlines() if l.startswith("maxrss=")]
    p.stderr = "\n".join(l for l in p.stderr.splitlines() if not l.startswith("maxrss=")) + "\n"
    for i in inputs:
        c.eq(files_of(i), before[i], "%s: the input %s is not written" % (name, os.path.basename(os.path.dirname(i))))
    return p, into, secs, rss[0] if rss else 0


def refused(name, sql, words, keep_wal=False):
    path = shard(name, sql, keep_wal)
    p, into, secs, rss = merge(name, path)
    c.eq(p.returncode, 1, "%s: refused, exit 1 (%s)" % (name, p.stderr.strip()[-300:]))
    first = p.stderr.splitlines()[0] if p.stderr.strip() else ""
    c.ok(first.startswith("wheelarch: ") and first.endswith("; refused") and
         all(w in first for w in words), "%s: one line saying why: %r" % (name, first))
    c.ok(secs < 30, "%s: refused within 30 s (%.1f s)" % (name, secs))
    if not SANITIZED:
        c.ok(rss < 200 * 1024, "%s: in less than 200 MB (%d kB)" % (name, rss))
    c.eq(sorted(watest.records(into)), sorted(watest.records(base)), "%s: the target is as it was" % name)
    c.eq(watest.integrity(into), "ok", "%s: the target's integrity" % name)


SCHEMA = ["its tables are not those of a wheelarch database"]
# A view in place of a table: one that never ends, one that makes a
# 1.9 GB value, one that makes 3 million rows.
refused("view-endless", "DROP TABLE records; CREATE VIEW records AS WITH RECURSIVE n(i) AS "
        "(SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT printf('%064x', i) AS key, "
        "'{}' AS record FROM n", SCHEMA)
refused("view-zeroblob", "DROP TABLE records; CREATE VIEW records AS SELECT key, "
        "zeroblob(1900000000) AS record FROM wheels", SCHEMA)
refused("view-rows", "DROP TABLE failures; CREATE VIEW failures AS WITH RECURSIVE n(i) AS "
        "(SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 3000000) SELECT printf('%064x', i) AS key, "
        "'{\"kind\": \"crashed\"}' AS failure FROM n", SCHEMA)
# Tables changed, added, an index or trigger added or changed.
refused("extra-column", "ALTER TABLE records ADD COLUMN extra", SCHEMA)
refused("extra-table", "CREATE TABLE evil (x)", SCHEMA)
refused("trigger", "CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END", SCHEMA)
# The same, when the change sits in the -wal file only.
refused("view-in-wal", "DROP TABLE records; CREATE VIEW records AS SELECT key, "
        "zeroblob(1900000000) AS record FROM wheels", SCHEMA, keep_wal=True)
# Journal notes and failures are checked, and bounded.
K = "9" * 64
refused("bad-note", "INSERT INTO journal VALUES ('%s', '{\"url\": \"file:///etc/passwd\", "
        "\"filename\": \"t-1.0-py3-none-any.whl\"}')" % K, ["journal of " + K, "url"])
refused("many-notes", "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 10001) "
        "INSERT INTO journal SELECT printf('%064x', i), json_object('url', "
        "'https://h/t-1.0-py3-none-any.whl', 'filename', 't-1.0-py3-none-any.whl') FROM n",
        ["more than 10000 unfinished scans"])
# Not a database at all, and an empty file.
junk = os.path.join(W, "junk", "wheelarch.db")
os.makedirs(os.path.dirname(junk))
with open(junk, "wb") as f:
    f.write(b"SQLite format 3\0" + b"\xff" * 4000)
p, _, _, _ = merge("junk", junk)
c.eq(p.returncode, 1, "junk: refused")

# An honest shard with planted notes: what comes along, and what never does.
A, B, C_, D = "a" * 64, "b" * 64, "c" * 64, "d" * 64
URL = "https://download.pytorch.org/whl/cu128/t-1.0-py3-none-any.whl"


def note(k, **kw):
    n = {"key": k, "url": URL, "filename": "t-1.0-py3-none-any.whl"}
    n.update(kw)
    return json.dumps(n).replace("'", "''")


planted = shard("planted", ";".join([
    # a cached page the real index never served, with a body over the page cap
    "INSERT INTO http_cache VALUES ('https://download.pytorch.org/whl/cu128/torch/', NULL, "
    "'\"etag\"', NULL, 'text/html', '<a href=\"https://evil.example/torch-9.9-py3-none-any.whl\">x</a>')",
    "INSERT INTO journal VALUES ('%s', '%s')" % (A, note(A, isolated=True)),
    "INSERT INTO failures VALUES ('%s', '%s')" % (B, note(B, kind="crashed", runs=40)),
    "INSERT INTO failures VALUES ('%s', '%s')" % (C_, note(C_, kind=None, error="HTTP 404")),
    "INSERT INTO failures VALUES ('%s', '%s')" % (D, note(D, kind="unfinished")),
]), keep_wal=True)
p, into, _, _ = merge("planted", planted)
c.eq(p.returncode, 0, "planted: merged (%s)" % p.stderr.strip())
c.eq(watest.db_query(into, "SELECT count(*) FROM http_cache")[0][0], 0,
     "planted: no cached page comes along")
c.eq(watest.db_query(into, "SELECT count(*) FROM journal")[0][0], 0, "planted: no journal row")
c.eq(watest.db_query(into, "SELECT key, json_extract(failure, '$.kind'), "
                           "json_extract(failure, '$.runs') FROM failures ORDER BY key"),
     [(A, "unfinished", 1), (B, "unfinished", 1), (D, "unfinished", 1)],
     "planted: unfinished scans as failures to scan alone; never 'crashed', never an "
     "ordinary failure")

# An honest shard whose newest records are in its -wal: read, not lost.
walshard = shard("wal", "DELETE FROM wheels WHERE key = (SELECT min(key) FROM wheels)",
                 keep_wal=True)
c.ok(os.path.getsize(walshard + "-wal") > 0, "wal: the change is in the -wal file")
fresh = os.path.join(W, "into-wal")
p, into, _, _ = merge("wal", walshard)
c.eq(p.returncode, 0, "wal: merged (%s)" % p.stderr.strip())
c.eq(len(watest.records(into)), N, "wal: the target keeps its records")
fresh2 = os.path.join(W, "into-wal-empty")
p = watest.run(args, "merge", "--cache", fresh2, walshard, env=ENV)
c.eq(len(watest.records(fresh2)), N - 1, "wal: the -wal's delete is seen (the shard has %d)" % (N - 1))
c.eq(os.listdir(TMP), [], "no private copy of a shard is left behind")

# builds stays what its rule says after every merge above, and after a
# wheel's record moves to another build (its old build's row goes).
for d in sorted(os.listdir(W)):
    if d.startswith("into-") and os.path.exists(watest.db_path(os.path.join(W, d))):
        c.eq(watest.builds_mismatch(os.path.join(W, d)), [], "builds is right in %s" % d)
recs = {json.loads(t)["key"]: json.loads(t) for t in watest.records(base).values()}
moved = os.path.join(W, "moved")
# an inferred record, then a scanned one of another build under its key
# (a scanned record replaces an inferred one)
k1 = sorted(k for k, r in recs.items() if r["status"] == "inferred")[0]
k2 = sorted(k for k, r in recs.items() if r["status"] == "scanned" and
            r["wheel"]["version"] != recs[k1]["wheel"]["version"])[0]
first = os.path.join(W, "move-1.jsonl")
with open(first, "w") as f:
    f.write(json.dumps(recs[k1]) + "\n")
second = os.path.join(W, "move-2.jsonl")
other = json.loads(json.dumps(recs[k2]).replace(k2, k1))  # k1's key, k2's build
with open(second, "w") as f:
    f.write(json.dumps(other) + "\n")
watest.run(args, "db", "import", first, "--cache", moved)
p = watest.run(args, "db", "import", second, "--cache", moved)
c.ok(p.returncode in (0, 3), "a record moved to another build (%s)" % p.stderr.strip())
c.ok("1 inferred ones replaced" in p.stderr, "the record replaced (%s)" % p.stderr.strip())
c.eq(watest.builds_mismatch(moved), [], "builds: the build the wheel left has no row")

# A copy left by a merge that was killed (its process gone) is removed by
# the next one that makes a copy; a live process's is not.
old = time.time() - 7 * 3600
os.makedirs(os.path.join(TMP, "wheelarch-merge-999999999-dead"))
open(os.path.join(TMP, "wheelarch-merge-999999999-dead", "wheelarch.db"), "w").close()
os.utime(os.path.join(TMP, "wheelarch-merge-999999999-dead"), (old, old))
os.makedirs(os.path.join(TMP, "wheelarch-merge-1-alive"))
os.utime(os.path.join(TMP, "wheelarch-merge-1-alive"), (old, old))
# a link of that name leads to someone's database: never followed
victim = os.path.join(W, "victim-cache")
shutil.copytree(base, victim)
os.symlink(victim, os.path.join(TMP, "wheelarch-merge-999999998-link"))
os.utime(os.path.join(TMP, "wheelarch-merge-999999998-link"), (old, old), follow_symlinks=False)
walshard2 = shard("wal2", "DELETE FROM wheels WHERE key = (SELECT max(key) FROM wheels)",
                  keep_wal=True)
p, _, _, _ = merge("wal2", walshard2)
c.eq(sorted(os.listdir(TMP)), ["wheelarch-merge-1-alive", "wheelarch-merge-999999998-link"],
     "a dead merge's copy is removed; a live process's and a link kept")
c.ok(os.path.exists(watest.db_path(victim)), "the database a planted link leads to is untouched")

# A sparse -wal of gigabytes costs its writer nothing; it is refused, not
# copied.
sparse = shard("sparse", "DELETE FROM wheels WHERE key = (SELECT min(key) FROM wheels)",
               keep_wal=True)
os.truncate(sparse + "-wal", 3 << 30)
p, into, secs, _ = merge("sparse", sparse)
c.eq(p.returncode, 1, "a 3 GiB sparse -wal: refused (%s)" % p.stderr.strip()[-200:])
c.ok("its -wal file is 3221225472 bytes" in p.stderr, "it says why: %r" % p.stderr)
c.ok(secs < 10, "at once (%.1f s)" % secs)

# A sparse main file: its header says how large the database in it is.
sparse_db = shard("sparse-db")
os.truncate(sparse_db, 3 << 30)
p, into, secs, _ = merge("sparse-db", sparse_db)
c.eq(p.returncode, 1, "a 3 GiB sparse database file: refused (%s)" % p.stderr.strip()[-200:])
c.ok("sparse or padded" in p.stderr and secs < 10, "at once, saying why (%.1f s): %r"
     % (secs, p.stderr))

# A record of twenty million empty objects (60 MB, 4.6 GB once parsed) is
# refused before it is parsed.
bomb = shard("bomb")
con = sqlite3.connect(bomb)
con.execute("UPDATE records SET record = ? WHERE key = (SELECT min(key) FROM records)",
            ('{"binaries": [' + ",".join(["{}"] * ((60 << 20) // 3)) + "]}",))
con.commit()
con.close()
refused_p, _, _, rss = merge("bomb", bomb)
c.eq(refused_p.returncode, 1, "a record of 20 million values: refused")
c.ok("more than 1000000 JSON values" in refused_p.stderr, "it says why: %r" % refused_p.stderr[:300])
if not SANITIZED:
    c.ok(rss < 400 * 1024, "without parsing it (%d kB)" % rss)
c.done()
