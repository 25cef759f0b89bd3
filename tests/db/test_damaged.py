"""A damaged, read-only or full database (docs/robustness.md, "The database").

- A schema version outside 1..6 (a negative PRAGMA user_version indexed the
  migrations out of bounds and crashed every command that writes) and an
  empty file are refused with one line, never a crash.
- A database that may only be read (a read-only mount; a file and folder
  without write permission) is read by query, build, db export and merge.
- On a full disk, `db import` and `merge` store all or nothing: the first
  error of the target stops them, everything is rolled back, the message
  says the database (its disk) failed, and the database is exactly as it was.
  The full-disk and mount cases need root (a small tmpfs) and say SKIP
  otherwise."""
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
cache = watest.site_db(args)
ROOT = os.geteuid() == 0 and shutil.which("mount") is not None


def one_line_error(p, what, words=()):
    lines = p.stderr.strip().splitlines()
    c.ok(p.returncode not in (0, -11, -6, 139, 134) and p.returncode > 0,
         "%s: an error exit, not a crash (%d)" % (what, p.returncode))
    c.ok(len(lines) >= 1 and lines[0].startswith("wheelarch: ") and
         all(w in p.stderr for w in words), "%s: says why: %r" % (what, p.stderr))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# ---- schema versions wheelarch never wrote ---------------------------------
for version in (-100000, -1, 0, 99, 2**31 - 1):
    d = os.path.join(W, "v%d" % version)
    shutil.copytree(cache, d)
    con = sqlite3.connect(watest.db_path(d))
    con.execute("PRAGMA user_version = %d" % version)
    con.commit()
    con.close()
    for argv in (["db", "check"], ["db", "export"], ["query", "--cc", "8.6"], ["build", "--out",
                                                                                os.path.join(d, "..", "s%d" % version)]):
        p = watest.run(args, *argv, "--cache", d)
        one_line_error(p, "user_version %d: %s" % (version, argv[0]), ["schema version"])
    other = os.path.join(W, "into-v%d" % version)
    p = watest.run(args, "merge", "--cache", other, watest.db_path(d))
    one_line_error(p, "user_version %d as a merge input" % version, ["schema version", "refused"])

# ---- an empty file ------------------------------------------------------------
empty = os.path.join(W, "empty")
os.makedirs(empty)
open(watest.db_path(empty), "w").close()
p = watest.run(args, "query", "--cc", "8.6", "--cache", empty)
one_line_error(p, "an empty file: query", ["not a wheelarch database"])
c.ok("no such table" not in p.stderr, "an empty file: not 'no such table'")
p = watest.run(args, "merge", "--cache", os.path.join(W, "into-empty"), watest.db_path(empty))
one_line_error(p, "an empty file: merge", ["empty file", "refused"])

# ---- a database that may only be read -----------------------------------------


def read_only_uses(ro, what):
    p = watest.run(args, "query", "--cc", "8.6", "--cache", ro)
    c.eq(p.returncode, 0, "%s: query (%s)" % (what, p.stderr.strip()))
    p = watest.run(args, "db", "export", "--cache", ro)
    c.eq((p.returncode, len(p.stdout.splitlines())), (0, len(watest.records(cache))),
         "%s: db export (%s)" % (what, p.stderr.strip()))
    out = os.path.join(W, "site-" + what.replace(" ", "-"))
    p = watest.run(args, "build", "--cache", ro, "--out", out, "-q")
    c.eq(p.returncode, 0, "%s: build (%s)" % (what, p.stderr.strip()))
    p = watest.run(args, "db", "check", "--cache", ro)
    c.ok(p.returncode == 1 and "cannot be written" in p.stderr and "not a wheelarch" not in p.stderr,
         "%s: db check says it cannot write, not that it is no database: %r" % (what, p.stderr))
    into = os.path.join(W, "into-" + what.replace(" ", "-"))
    p = watest.run(args, "merge", "--cache", into, watest.db_path(ro))
    c.eq(p.returncode, 0, "%s: as a merge input (%s)" % (what, p.stderr.strip()))
    c.eq(sorted(watest.records(into)), sorted(watest.records(cache)), "%s: all merged" % what)


if ROOT:
    mnt = os.path.join(W, "ro-mount")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mnt]).returncode == 0:
        try:
            shutil.copytree(cache, os.path.join(mnt, "cache"))
            subprocess.run(["mount", "-o", "remount,ro", mnt], check=True)
            before = sorted(os.listdir(os.path.join(mnt, "cache")))
            read_only_uses(os.path.join(mnt, "cache"), "read-only mount")
            c.eq(sorted(os.listdir(os.path.join(mnt, "cache"))), before,
                 "read-only mount: nothing made beside the database")
        finally:
            subprocess.run(["umount", mnt])
    else:
        print("SKIP: cannot mount a tmpfs here")
else:
    ro = os.path.join(W, "ro-perm")
    shutil.copytree(cache, ro)
    os.chmod(watest.db_path(ro), 0o444)
    os.chmod(ro, 0o555)
    try:
        read_only_uses(ro, "no write permission")
    finally:
        os.chmod(ro, 0o755)

# ---- a full disk ----------------------------------------------------------------
# 10,013 records (the fixture's 13 and 10,000 clones of one), as one
# JSON-lines file and as a shard database.
recs = [json.loads(t) for t in watest.records(cache).values()]
base = next(r for r in recs if r.get("status") == "scanned" and r.get("binaries")
            and r["wheel"].get("platform_id") == "linux-x86_64")
lines = os.path.join(W, "many.jsonl")
with open(lines, "w") as f:
    for r in recs:
        f.write(json.dumps(r, sort_keys=True) + "\n")
    for i in range(10000):
        name = "torch-2.%d.%d+cu128-cp312-cp312-manylinux_2_28_x86_64.whl" % (100 + i // 100, i % 100)
        f.write(json.dumps(watest.clone_record(base, name, "cu128"), sort_keys=True) + "\n")
big = os.path.join(W, "big-shard")
p = watest.run(args, "db", "import", lines, "--cache", big)
c.eq(p.returncode, 0, "the big shard is made (%s)" % p.stderr.strip()[-300:])


def state(d):
    return (watest.db_query(d, "SELECT count(*) FROM wheels")[0][0],
            watest.db_query(d, "SELECT value FROM meta WHERE name = 'changes'")[0][0],
            watest.integrity(d))


if ROOT:
    full = os.path.join(W, "full")
    os.makedirs(full)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=5m", "tmpfs", full]).returncode == 0:
        try:
            target = os.path.join(full, "cache")
            shutil.copytree(cache, target)
            before = state(target)
            p = watest.run(args, "db", "import", lines, "--cache", target)
            c.eq(p.returncode, 1, "import onto a full disk: exit status 1 (%s)" % p.stderr[-300:])
            c.ok("full" in p.stderr and "refused" not in p.stderr,
                 "import onto a full disk: says the disk is full, refuses no record: %r"
                 % p.stderr[-500:])
            c.ok(len(p.stderr.splitlines()) <= 3, "import onto a full disk: a line or two, "
                 "not one per record (%d)" % len(p.stderr.splitlines()))
            c.eq(state(target), before, "import onto a full disk: the database is as it was")
            small = os.path.join(W, "small-shard")
            shutil.copytree(cache, small)
            con = sqlite3.connect(watest.db_path(small))
            con.execute("DELETE FROM wheels WHERE key = (SELECT min(key) FROM wheels)")
            con.commit()
            con.close()
            shutil.rmtree(target)
            shutil.copytree(small, target)
            before = state(target)
            p = watest.run(args, "merge", "--cache", target, watest.db_path(cache),
                           watest.db_path(big))
            c.eq(p.returncode, 1, "merge onto a full disk: exit status 1 (%s)" % p.stderr[-300:])
            c.ok("full" in p.stderr and "refused" not in p.stderr,
                 "merge onto a full disk: the target's disk is named, no input is blamed: %r"
                 % p.stderr[-500:])
            c.eq(state(target), before, "merge onto a full disk: nothing of either input stays")
        finally:
            subprocess.run(["umount", full])
    else:
        print("SKIP: cannot mount a tmpfs here")
else:
    print("SKIP: the full-disk cases need root (a 5 MiB tmpfs)")
c.done()
