"""Bad values on the command line and in files: one line, the right exit
status, never a crash or a hang (docs/robustness.md, "The command line").

- No option takes an empty value (an unset shell variable); --cc "" crashed
  query, doctor and variants.
- Every number is plain decimal digits in range: --timeout nan was accepted
  and made every request fail at once.
- --driver must look like a driver; an index id like an index.
- scan of a FIFO is refused at once (it blocked in open()).
- stderr: bytes that are not UTF-8 are escaped, every warning is one write,
  and a flood of refusals stops after 200 lines with a count.
- db import: a JSON line longer than a record may be is refused without being
  held in memory."""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
cache = watest.site_db(args)
CRASH = (-11, -6, 139, 134)


def usage(p, what, words=()):
    c.eq(p.returncode, 2, "%s: exit status 2 (%s)" % (what, p.stderr.strip()[:200]))
    first = p.stderr.splitlines()[0] if p.stderr else ""
    c.ok(first.startswith("wheelarch: ") and all(w in first for w in words),
         "%s: the first line says why: %r" % (what, first))


# ---- empty values ------------------------------------------------------------
for argv in (["query", "--cc", ""], ["doctor", "--cc", ""], ["variants", "--cc", ""],
             ["query", "--gpu", ""], ["build", "--out", ""], ["build", "--cache", ""],
             ["crawl", "--index", "", "--project", "torch"], ["db", "export", "--out", ""],
             ["update", "--out", ""], ["merge", "--cache", "", "x.db"]):
    p = watest.run(args, *argv, cwd=W)
    usage(p, " ".join(repr(a) for a in argv), ["needs a value", "empty"])

# ---- numbers -------------------------------------------------------------------
for argv, opt in ((["scan", "--timeout", "nan", "x"], "timeout"),
                  (["scan", "--timeout", "inf", "x"], "timeout"),
                  (["scan", "--timeout", "0", "x"], "timeout"),
                  (["scan", "--timeout", "1e3", "x"], "timeout"),
                  (["crawl", "--timeout", "nan", "--index", "http://127.0.0.1:9/cu128/",
                    "--project", "torch", "--cache", os.path.join(W, "c")], "timeout"),
                  (["crawl", "--jobs", "0x10", "--index", "http://127.0.0.1:9/cu128/",
                    "--project", "torch", "--cache", os.path.join(W, "c")], "jobs"),
                  (["crawl", "--jobs", " 5", "--index", "http://127.0.0.1:9/cu128/",
                    "--project", "torch", "--cache", os.path.join(W, "c")], "jobs"),
                  (["build", "--nightlies", "-1", "--cache", cache], "nightlies"),
                  (["build", "--nightlies", "+3", "--cache", cache], "nightlies"),
                  (["query", "--cc", "8.6", "--gpu-index", "-1", "--cache", cache], "gpu-index"),
                  (["crawl", "--shard", " 1/2", "--index", "http://127.0.0.1:9/cu128/",
                    "--project", "torch", "--cache", os.path.join(W, "c")], "shard")):
    p = watest.run(args, *argv, cwd=W)
    usage(p, " ".join(argv[:3]), ["--" + opt])
p = watest.run(args, "scan", "--timeout", "2.5", os.path.join(W, "missing"))
c.ok(p.returncode != 2, "a plain decimal timeout is taken")

for d in ("99999999999999999999", "100000", "5000.1", "57a", "570..86", "99.1", "570.123456"):
    p = watest.run(args, "query", "--cc", "8.6", "--driver", d, "--cache", cache)
    usage(p, "--driver %s" % d, ["driver"])
p = watest.run(args, "query", "--cc", "8.6", "--driver", "570.86.15", "--cache", cache)
c.eq(p.returncode, 0, "--driver 570.86.15 is a driver")

p = watest.run(args, "query", "--cc", "gfx90a:sramecc+:xnack-", "--cache", cache)
c.eq(p.returncode, 0, "a full AMD target id is a device code (%s)" % p.stderr.strip())

# ---- db export -o writes a new file, never through a link ----------------------
victim = os.path.join(W, "victim")
with open(victim, "w") as f:
    f.write("precious\n")
out = os.path.join(W, "export.jsonl")
os.symlink(victim, out + ".tmp")
p = watest.run(args, "db", "export", "--cache", cache, "-o", out)
c.eq(p.returncode, 0, "export beside a planted link (%s)" % p.stderr.strip())
c.eq(open(victim).read(), "precious\n", "the link's target is not written")
c.eq(len(open(out).read().splitlines()), len(watest.records(cache)), "the export is whole")
fifo_out = os.path.join(W, "export-fifo")
os.mkfifo(fifo_out)
p = watest.run(args, "db", "export", "--cache", cache, "-o", fifo_out, timeout=20)
c.ok(p.returncode == 2 and "not a regular file" in p.stderr, "-o FIFO: refused (%s)" % p.stderr.strip())
c.ok(os.path.exists(fifo_out) and not os.path.isfile(fifo_out), "-o FIFO: the FIFO stays a FIFO")
long_out = os.path.join(W, "x" * 250)
p = watest.run(args, "db", "export", "--cache", cache, "-o", long_out)
c.eq(p.returncode, 0, "-o a 250-byte name (%s)" % p.stderr.strip()[:200])

# ---- index ids -------------------------------------------------------------------
for url, why in (("http://127.0.0.1:9/..", "no '.' or '..' segment"), ("http://127.0.0.1:9/a/./", "no '.' or '..' segment"),
                 ("http://127.0.0.1:9/", "name the index")):
    p = watest.run(args, "crawl", "--index", url, "--project", "torch", "--cache",
                   os.path.join(W, "c"))
    usage(p, "--index %s" % url, ["--index", why])
cfg = os.path.join(W, "dots.json")
with open(cfg, "w") as f:
    f.write('{"indexes": [{"root": "http://127.0.0.1:9/whl/", "ids": [".."]}], '
            '"projects": ["torch"]}')
p = watest.run(args, "crawl", "--config", cfg, "--cache", os.path.join(W, "c"))
c.eq(p.returncode, 2, "an index id '..' in the configuration: exit 2 (%s)" % p.stderr.strip())

# ---- a FIFO is not waited on -----------------------------------------------------
fifo = os.path.join(W, "fifo")
os.mkfifo(fifo)
t0 = time.time()
try:
    p = watest.run(args, "scan", fifo, timeout=20)
    c.ok(p.returncode not in (0,) + CRASH and "not a regular file" in p.stderr,
         "scan FIFO: refused (%s)" % p.stderr.strip())
except subprocess.TimeoutExpired:
    c.ok(False, "scan FIFO: still waiting after 20 s")
c.ok(time.time() - t0 < 10, "scan FIFO: at once")
try:
    p = watest.run(args, "db", "import", fifo, "--cache", os.path.join(W, "fifo-cache"), timeout=20)
    c.ok(p.returncode not in (0,) + CRASH, "db import FIFO: refused (%s)" % p.stderr.strip())
except subprocess.TimeoutExpired:
    c.ok(False, "db import FIFO: still waiting after 20 s")

# ---- what reaches stderr -----------------------------------------------------------
raw = os.path.join(W, "raw.jsonl")
with open(raw, "wb") as f:
    f.write(b'{"key": "\xff\xfe\x1b[31m"}\n')
p = subprocess.run([args.wheelarch, "db", "import", raw, "--cache", os.path.join(W, "raw")],
                   capture_output=True)
c.ok(b"\xff" not in p.stderr and b"\x1b" not in p.stderr, "no raw 0xFF or ESC on stderr: %r"
     % p.stderr[:300])
odd = os.path.join(W, "odd-\udcff\udcfe-\x1b[31m.whl").encode("utf-8", "surrogateescape")
p = subprocess.run([args.wheelarch.encode(), b"scan", odd], capture_output=True)
c.ok(b"\xff" not in p.stderr and b"\x1b" not in p.stderr and b"\\xff\\xfe" in p.stderr and
     b"\\x1b" in p.stderr, "a file name with 0xFF and ESC is escaped on stderr: %r" % p.stderr)

many = os.path.join(W, "many.jsonl")
with open(many, "w") as f:
    for i in range(200000):
        f.write("not json %d\n" % i)
t0 = time.time()
p = watest.run(args, "db", "import", many, "--cache", os.path.join(W, "many"))
secs = time.time() - t0
lines = p.stderr.splitlines()
c.eq(p.returncode, 3, "200,000 bad lines: exit 3")
c.ok(len(lines) <= 203, "200,000 bad lines: at most 200 shown (%d lines)" % len(lines))
c.ok(any("199800 more refused, not shown" in l for l in lines),
     "200,000 bad lines: the rest counted: %r" % lines[-2:])
c.ok(secs < 30, "200,000 bad lines: in under 30 s (%.1f s)" % secs)

# ---- an over-long JSON line ------------------------------------------------------------
long = os.path.join(W, "long.jsonl")
recs = list(watest.records(cache).values())
with open(long, "w") as f:
    f.write(recs[0] + "\n")
    f.write('{"key": "' + "a" * (65 << 20) + '"}\n')
    f.write(recs[1] + "\n")
p = subprocess.run(["/usr/bin/time", "-f", "maxrss=%M", args.wheelarch, "db", "import", long,
                    "--cache", os.path.join(W, "long")], capture_output=True, text=True)
rss = [int(l.split("=")[1]) for l in p.stderr.splitlines() if l.startswith("maxrss=")]
c.eq(p.returncode, 3, "a 65 MiB line: exit 3 (%s)" % p.stderr.strip()[-300:])
c.ok("long.jsonl:2: the line is longer than 64 MiB" in p.stderr, "a 65 MiB line: named: %r"
     % p.stderr[:300])
c.eq(len(watest.records(os.path.join(W, "long"))), 2, "a 65 MiB line: the lines around it stored")
if not watest.sanitized(args):  # ASan's shadow memory and quarantine say nothing of ours
    c.ok(rss and rss[0] < 120 * 1024, "a 65 MiB line: not held (%s kB)" % rss)
# -o naming the database, its -wal/-shm/-journal, anything in its folder, the
# folder itself or its lock file: refused (exit 2, one line), nothing changed
import shutil  # noqa: E402
own = os.path.join(W, "export-db")
shutil.rmtree(own, ignore_errors=True)
shutil.copytree(cache, own, ignore=shutil.ignore_patterns("*.lock"))
dbfile = os.path.join(own, "wheelarch.db")
before = open(dbfile, "rb").read()
listing = sorted(os.listdir(own))
for target in ("wheelarch.db", "wheelarch.db-wal", "wheelarch.db-shm", "wheelarch.db-journal", "x.jsonl"):
    p = watest.run(args, "db", "export", "--cache", own, "-o", os.path.join(own, target))
    c.ok(p.returncode == 2 and "database folder" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
         "db export -o %s inside the database folder: refused in one line (%d): %s" % (target, p.returncode, p.stderr))
for target in (own, own + ".lock", os.path.join(W, "..", os.path.basename(W), "export-db", "wheelarch.db")):
    p = watest.run(args, "db", "export", "--cache", own, "-o", target)
    c.ok(p.returncode == 2, "db export -o %s: refused (%d)" % (target, p.returncode))
c.ok(open(dbfile, "rb").read() == before and sorted(os.listdir(own)) == listing,
     "and the database is untouched: %s" % sorted(os.listdir(own)))
p = watest.run(args, "db", "export", "--cache", own, "-o", os.path.join(W, "export-beside.jsonl"))
c.eq(p.returncode, 0, "an export beside the folder still works: " + p.stderr)
# --platform is checked the same way by every command that takes it
for cmdname in ("query", "doctor", "variants"):
    for bad in ("linux-x86-64", "x'", "constructor"):
        extra = [] if cmdname == "variants" else ["--cache", cache]
        p = watest.run(args, cmdname, "--cc", "8.6", "--platform", bad, *extra)
        c.ok(p.returncode == 2 and "is not one of linux-x86_64, linux-aarch64, windows-x86_64" in p.stderr,
             "%s --platform %s: exit 2 and one line (%d): %s" % (cmdname, bad, p.returncode, p.stderr))
# db import of a folder with nothing to import (empty, or a database meant
# for merge): one line, exit 2, and no database created
emptydir = os.path.join(W, "import-empty")
os.makedirs(emptydir, exist_ok=True)
for src, words in ((emptydir, "holds no record file"), (own, "wheelarch merge DIR")):
    dest = os.path.join(W, "import-into-" + os.path.basename(src))
    shutil.rmtree(dest, ignore_errors=True)
    p = watest.run(args, "db", "import", src, "--cache", dest)
    c.ok(p.returncode == 2 and words in p.stderr and len(p.stderr.strip().splitlines()) == 1,
         "db import %s: refused in one line (%d): %s" % (os.path.basename(src), p.returncode, p.stderr))
    c.ok(not os.path.exists(os.path.join(dest, "wheelarch.db")), "and no database is created for it")
# db import of a large folder shows how far it is: a line at each tenth,
# none for a small one; the JSON lines file of its export the same by bytes
big = os.path.join(W, "import-big")
os.makedirs(big, exist_ok=True)
one = [r for r in (watest.record(cache, k) for k in sorted(watest.records(cache)))
       if r["filename"].startswith("torch-") and "+cu126-" in r["filename"]
       and r["filename"].endswith("manylinux_2_28_x86_64.whl")][0]
for i in range(6000):
    r = watest.clone_record(one, "torch-2.%d.%d+cu126-cp312-cp312-manylinux_2_28_x86_64.whl" % (i // 100, i % 100), "cu126")
    with open(os.path.join(big, r["key"] + ".json"), "w") as f:
        json.dump(r, f)
p = watest.run(args, "db", "import", big, "--cache", os.path.join(W, "import-big-db"), timeout=600)
tenths = [line for line in p.stderr.splitlines() if "record files read" in line]
c.ok(p.returncode == 0 and [t.split(": ")[2].split("%")[0] for t in tenths] == [str(k * 10) for k in range(1, 10)]
     and "of 6000 record files read" in tenths[-1] and "6000 records added" in p.stderr,
     "db import of 6,000 files: a line at each tenth, then the total (%d): %s" % (p.returncode, p.stderr[-600:]))
p = watest.run(args, "db", "import", big, "--cache", os.path.join(W, "import-big-db"), timeout=600)
c.ok(p.returncode == 0 and len([x for x in p.stderr.splitlines() if "record files read" in x]) == 9,
     "again, all already there: still shown (%d)" % p.returncode)
small = watest.run(args, "db", "import", os.path.join(watest.FIXTURES, "site-db"), "--cache", os.path.join(W, "import-small-db"))
c.ok(small.returncode == 0 and "record files read" not in small.stderr, "a small folder: no progress lines")
# an offline crawl --plan says that nothing could be read, not "total 0 B" alone
offcfg = os.path.join(W, "offline.json")
with open(offcfg, "w") as f:
    json.dump({"indexes": [{"root": "http://127.0.0.1:9/whl/", "ids": ["cu126"]}], "projects": ["torch"]}, f)
p = watest.run(args, "crawl", "--plan", "--config", offcfg, "--cache", os.path.join(W, "offline-cache"), timeout=120)
c.ok(p.returncode == 1 and "No index page answered" in p.stdout and "not because nothing is to do" in p.stdout,
     "crawl --plan offline: exit 1 and says why the totals are empty (%d): %s" % (p.returncode, p.stdout[-300:]))
# one dead host behind many indexes: its first failure, then one line naming the rest
deadcfg = os.path.join(W, "dead-host.json")
ids = ["cu118", "cu121", "cu124", "cu126", "cu128", "cu129", "cu130", "cu132"]
with open(deadcfg, "w") as f:
    json.dump({"indexes": [{"root": "http://127.0.0.1:9/whl/", "ids": ids}],
               "projects": ["torch", "torchvision", "torchaudio"]}, f)
p = watest.run(args, "crawl", "--config", deadcfg, "--cache", os.path.join(W, "dead-cache"), timeout=120)
lines = p.stderr.strip().splitlines()
c.ok(p.returncode == 6 and len(lines) <= 5 and "7 more indexes unreachable" in p.stderr and "21 pages not read" in p.stderr
     and "no index answered: 1 run in a row" in lines[-1],
     "a dead host behind 8 indexes: exit 6 (no index answered) in at most 5 lines (%d, %d): %s" % (p.returncode, len(lines), p.stderr[-600:]))
c.done()
