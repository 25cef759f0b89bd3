"""The same records give the same bytes, however old the database: a
database whose derived columns an older writer filled (schema 10, its code
column's PTX ISAs in another order, a binary's lists and the record's JSON
text as that writer left them) is upgraded by `db check`, and the site built
from it is the site of a fresh import of the same records, byte for byte,
api/v1/wheelarch.sqlite included.  The upgrade is one transaction: killed
half-way, the database is as it was."""
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
fresh = watest.site_db(args, "fresh")
N = len(watest.records(fresh))


def build(cache, out):
    p = watest.run(args, "build", "--cache", cache, "--out", out, "--today", "2026-11-28")
    c.eq(p.returncode, 0, "build %s (%s)" % (cache, p.stderr.strip()[-300:]))
    return watest.tree(out)


old = os.path.join(W, "old")
shutil.copytree(fresh, old)
db = os.path.join(old, "wheelarch.db")
with sqlite3.connect(db) as con:
    # what the writer of schema 10 and before left: another order of the
    # PTX ISAs in code, stale binary lists, the record's keys unsorted
    n_code = con.execute("UPDATE wheels SET code = replace(code, '|compute_100f=9.0 compute_90a=9.0',"
                         " '|compute_90a=9.0 compute_100f=9.0') WHERE code LIKE '%|compute_100f=9.0 "
                         "compute_90a=9.0%'").rowcount
    con.execute("UPDATE binaries SET warnings = 'written by an older wheelarch'")
    con.execute("UPDATE records SET record = '{ ' || substr(record, 2)")
    con.execute("PRAGMA user_version = 10")
c.ok(n_code > 0, "the fixture has code columns with PTX ISAs to reorder (%d)" % n_code)
ref_site = build(fresh, os.path.join(W, "site-fresh"))
p = watest.run(args, "build", "--cache", old, "--out", os.path.join(W, "site-refused"))
c.ok(p.returncode != 0 and "db check" in p.stderr, "a reader asks for the upgrade: " + p.stderr.strip()[-200:])

# killed during the upgrade: nothing changes (one transaction)
before = open(db, "rb").read()
proc = subprocess.Popen([args.wheelarch, "db", "check", "--cache", old], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
proc.kill()
proc.wait()
with sqlite3.connect(db) as con:
    v = con.execute("PRAGMA user_version").fetchone()[0]
c.ok(v in (10, 11), "a killed upgrade leaves version 10 or 11, never between (%d)" % v)
if v == 10:
    c.eq(open(db, "rb").read() == before or watest.integrity(old) == "ok", True, "and the file whole")

p = watest.run(args, "db", "check", "--cache", old)
c.ok(p.returncode == 0 and "%d records" % N in p.stdout, "db check upgrades it: " + (p.stdout + p.stderr).strip())
with sqlite3.connect(db) as con:
    c.eq(con.execute("PRAGMA user_version").fetchone()[0], 11, "to version 11")
    c.eq(con.execute("SELECT count(*) FROM wheels WHERE code LIKE '%|compute_90a=9.0 compute_100f%'")
         .fetchone()[0], 0,
         "no code column as the old writer made it")
    c.eq(con.execute("SELECT count(*) FROM binaries WHERE warnings = 'written by an older wheelarch'")
         .fetchone()[0], 0, "no binary row either")
got_site = build(old, os.path.join(W, "site-old"))
c.eq(sorted(got_site), sorted(ref_site), "the same files")
differ = sorted(f for f in ref_site if got_site.get(f) != ref_site[f])
c.eq(differ, [], "the site of the upgraded database is the fresh import's, byte for byte")
c.ok("api/v1/wheelarch.sqlite" in ref_site, "api/v1/wheelarch.sqlite among them")

# hand edits the upgrade must pass over, never loop on: 300 records under
# BLOB keys (which sort after every text key), one that is not JSON
odd = os.path.join(W, "odd")
shutil.copytree(fresh, odd)
with sqlite3.connect(os.path.join(odd, "wheelarch.db")) as con:
    con.executemany("INSERT INTO records VALUES (?, ?)", [(bytes([i % 256, i // 256]) * 32, "{}") for i in range(300)])
    con.execute("INSERT INTO records VALUES ('zz-not-json', '{not json')")
    con.execute("PRAGMA user_version = 10")
p = watest.run(args, "db", "check", "--cache", odd, timeout=120)
c.ok(p.returncode in (0, 1) and "Timeout" not in p.stderr, "an upgrade over BLOB keys and a broken record ends (%d): %s"
     % (p.returncode, (p.stdout + p.stderr).strip()[-300:]))
with sqlite3.connect(os.path.join(odd, "wheelarch.db")) as con:
    c.eq(con.execute("PRAGMA user_version").fetchone()[0], 11, "and upgrades the rest")
c.done()
