"""Yanked and inferred wheels on release pages and in the simple indexes.

The wheel tables of a release page, line by line: the committed site
records plus two wheels of torch 2.9.0 cu128 (Linux x86_64): a copy of the
inferred cp313 wheel that names another source, so the row's inferred wheels
name two (each line then links its own), and a wheel yanked without a
reason.  Checks each of the row's lines as a whole: the file's link, the
yanked mark ("yanked", not "yanked: true"), the sha256, "scanned" with the
wheel's page and date, "inferred from its sibling" with the source's page;
and that no "were not read" note stands above that table.  The simple index
of sm_86 (built with --simple-json) gives the wheel yanked without a reason
data-yanked="" (PEP 592: an empty reason, not "true") and "yanked": true in
its PEP 691 JSON."""
import html
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
os.makedirs(W, exist_ok=True)

SOURCE = "180987c96f17aee8502fb938678206ca2b090a0a7219c7137c59215dae1bd1b0"  # scanned, cu128 cp312
INFERRED = "6d57af775f6306db16090bf182bfe9af59f439304179e34645acef0b3c8cf054"  # from SOURCE, cp313
OTHER = "dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7"  # scanned, cu130

base = watest.site_db(args, "base")
inferred = watest.record(base, INFERRED)
c.ok(inferred and inferred["inferred_from"] == SOURCE, "the fixture's inferred wheel names its source")

# another inferred wheel of the row, naming another source
fn2 = "torch-2.9.0+cu128-cp311-cp311-manylinux_2_28_x86_64.whl"
r2 = watest.clone_record(inferred, fn2, "cu128")
r2["inferred_from"] = OTHER
# a wheel of the row yanked without a reason
fn3 = "torch-2.9.0+cu128-cp310-cp310-manylinux_2_28_x86_64.whl"
r3 = watest.clone_record(inferred, fn3, "cu128")
r3["yanked"] = True
db = os.path.join(W, "db")
p = watest.db_with_records(args, base, db, [r2, r3])
c.eq(p.returncode, 0, "import of the two wheels (stderr: %s)" % p.stderr.strip())

site = os.path.join(W, "site")
p = watest.run(args, "build", "--cache", db, "--out", site, "--simple-json")
c.eq(p.returncode, 0, "build (stderr: %s)" % p.stderr.strip())
with open(os.path.join(site, "release/torch/2.9.0/index.html"), encoding="utf-8") as f:
    page = f.read()

m = re.search(r'<caption id="([^"]+)">Wheels of cu128 for Linux x86_64</caption>.*?<tbody>\n(.*?)</tbody>',
              page, re.S)
c.ok(m, "the cu128 Linux x86_64 wheel table")
lines = m.group(2).splitlines() if m else []
c.eq(len(lines), 4, "one line per wheel of the row")
section = page[page.rfind("<section", 0, m.start()):m.start()] if m else ""
c.ok("were not read" not in section, "no note above a table whose inferred wheels name two sources")


def line(fn):
    return next((x for x in lines if ">%s</a>" % html.escape(fn) in x), "")


def url(fn):
    return "https://download.pytorch.org/whl/cu128/" + fn.replace("+", "%2B")


def wheel_page(key):
    return "../../../wheel/%s.html" % key


def sha(rec):
    return rec["sha256"]


def want(fn, sha256, last, yanked=""):
    return ('<tr><th scope="row"><a href="%s">%s</a>%s</th><td><code>%s</code></td><td>%s</td></tr>'
            % (html.escape(url(fn)), html.escape(fn), yanked, sha256, last))


src = watest.record(base, SOURCE)
c.eq(line(src["filename"]),
     want(src["filename"], src["sha256"], '<a href="%s">scanned</a> %s' % (wheel_page(SOURCE), src["scanned_at"])),
     "the scanned wheel: its page and the day it was read")
c.eq(line(inferred["filename"]),
     want(inferred["filename"], inferred["sha256"],
          'inferred from <a href="%s">its sibling</a>' % wheel_page(SOURCE)),
     "an inferred wheel links its own source")
c.eq(line(fn2), want(fn2, r2["sha256"], 'inferred from <a href="%s">its sibling</a>' % wheel_page(OTHER)),
     "the other inferred wheel links the other source")
c.eq(line(fn3), want(fn3, r3["sha256"], 'inferred from <a href="%s">its sibling</a>' % wheel_page(SOURCE),
                     ' <span class="status">yanked</span>'),
     "a wheel yanked without a reason says yanked")

with open(os.path.join(site, "simple/sm_86/torch/index.html"), encoding="utf-8") as f:
    simple = f.read()
a = re.search(r'<a href="([^"]*)"([^>]*)>%s</a>' % re.escape(fn3), simple)
c.ok(a, "the simple index lists the yanked wheel")
c.ok(a and ' data-yanked=""' in a.group(2), "data-yanked is empty, not \"true\": %s" % (a and a.group(0)))
y = re.search(r'<a href="([^"]*)"([^>]*)>%s</a>' % re.escape(fn2), simple)
c.ok(y and "data-yanked" not in y.group(2), "a wheel not yanked has no data-yanked")
with open(os.path.join(site, "simple/sm_86/torch/index.json"), encoding="utf-8") as f:
    files = {x["filename"]: x for x in json.load(f)["files"]}
c.eq(files.get(fn3, {}).get("yanked"), True, "PEP 691: yanked is true")
c.ok(fn2 in files and "yanked" not in files[fn2], "PEP 691: no yanked key for a wheel not yanked")
c.done()
