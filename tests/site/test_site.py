"""wheelarch build end to end, from the committed small database
tests/fixtures/site-db (made by tests/site/make-site-db.py from a real
crawl): golden pages and feed documents (tests/expected/site/, regenerate
with UPDATE_GOLDEN=1 and review the diff), a byte-identical second build,
a rebuild that rewrites nothing, a change that rewrites only what changed,
a failed build and builds killed with SIGKILL that leave the previous site
whole, escaping of hostile index values, the page budget, no external
requests, tables with caption and scope."""
import glob
import json
import os
import re
import shutil
import sqlite3
import signal
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402
from watest import tree  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
DB = watest.site_db(args)
EXPECTED = os.path.join(watest.TESTS, "expected", "site")
update = os.environ.get("UPDATE_GOLDEN") == "1"
EVIL = "url-1f8185a4110dd1bd80aefd3c8bc418d46064b64f4a57bb464d9a5b103902d81b"
SCANNED = "dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7"  # torch 2.9.0 cu130 linux


NAMES = []  # the files of WHEELARCH_TEMPLATE_NAMES, one per build


def names_env(e):
    """e with WHEELARCH_TEMPLATE_NAMES naming a new file: the build lists
    every (template, name) its pages looked up and whether the data had it."""
    NAMES.append(os.path.join(args.work, "names-%d.tsv" % len(NAMES)))
    e["WHEELARCH_TEMPLATE_NAMES"] = NAMES[-1]
    return e


def build(out, cache=DB, *extra, env=None):
    e = dict(os.environ)
    e.update(env or {})
    names_env(e)
    return subprocess.run([args.wheelarch, "build", "--cache", cache, "--out", out] + list(extra),
                          capture_output=True, text=True, timeout=300, env=e)




def stats(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            st = os.stat(os.path.join(d, f))
            out[os.path.relpath(os.path.join(d, f), root)] = (st.st_ino, st.st_mtime_ns)
    return out


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# ---- a build, and the golden files ------------------------------------------
site = os.path.join(W, "site")
p = build(site)
c.eq(p.returncode, 0, "build exit (%s)" % p.stderr.strip())
c.ok("pages from 13 records" in p.stderr,
     "summary line names the records: " + p.stderr.strip())
files = tree(site)
c.ok(len(files) > 300, "a few hundred files (%d)" % len(files))
# Every footer tells the truth about its page: a wheel page (rendered while
# the database is read) says when its wheel was read, and no page says
# "checked on ." with the date missing.
empty = [f for f in files if f.endswith(".html") and "checked on ." in read(os.path.join(site, f))]
c.eq(empty, [], "no page's footer has an empty date")
wp = read(os.path.join(site, "wheel/%s.html" % SCANNED))
c.ok("Data as of 2026-11-01: verdicts marked verified" in wp and "No wheel read yet" not in wp,
     "a wheel page's footer: the day its wheel was read, not 'no wheel read'")

GOLDEN = [
    "index.html", "matrix/index.html", "gpu/geforce-gtx-1080-ti/index.html",
    "gpu/geforce-rtx-3090/index.html", "gpu/jetson-agx-orin/index.html",
    "gpu/amd-radeon-rx-7900-xtx/index.html", "gpu/amd-instinct-mi300x/index.html",
    "release/torch/2.9.0/index.html", "release/torchvision/0.24.0/index.html",
    "wheel/%s.html" % SCANNED, "wheel/%s.html" % EVIL, "changes/index.html", "changes.atom",
    "methodology/index.html", "api/v1/matrix.json", "api/v1/gpus.json",
    "api/v1/index-table.json", "api/v1/variants.json", "api/v1/matrix.csv",
    "simple/sm_86/index.html", "simple/sm_86/torch/index.html",
    "simple/sm_61/torch/index.html",
    "simple/gfx1100/torch/index.html",
]
listing = "".join(sorted(f + "\n" for f in files))
if update:
    os.makedirs(EXPECTED, exist_ok=True)
    with open(os.path.join(EXPECTED, "FILES"), "w") as f:
        f.write(listing)
    for g in GOLDEN:
        dst = os.path.join(EXPECTED, g)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(site, g), dst)
else:
    want = read(os.path.join(EXPECTED, "FILES"))
    if not c.ok(listing == want, "the list of files differs from tests/expected/site/FILES"):
        a, b = set(want.splitlines()), set(listing.splitlines())
        print("  missing: %s\n  extra: %s" % (sorted(a - b)[:10], sorted(b - a)[:10]))
    for g in GOLDEN:
        got = read(os.path.join(site, g)) if os.path.exists(os.path.join(site, g)) else None
        want = read(os.path.join(EXPECTED, g))
        if not c.ok(got == want, "%s differs from tests/expected/site/%s" % (g, g)):
            if g.endswith(".json") and got:  # one line each: diff them indented
                want, got = (json.dumps(json.loads(x), indent=1, sort_keys=True) + "\n" for x in (want, got))
            sys.stdout.writelines(watest.short_diff(want, got or ""))

# ---- PEP 825 variant metadata, checked from the PEP's text -------------------
# Top level exactly $schema, default-priorities (namespace: a non-empty list
# of unique namespaces naming every one used) and variants; labels and values
# [a-z0-9_.]+, namespaces and features [a-z0-9_]+; value lists non-empty,
# unique and sorted lexically; "null" the variant without properties.
PEP_LABEL, PEP_NAME = re.compile(r"^[a-z0-9_.]+$"), re.compile(r"^[a-z0-9_]+$")
vdir = os.path.join(site, "api/v1/variants")
vfiles = sorted(f for f in os.listdir(vdir) if f.endswith("-variants.json"))
vindex = json.load(open(os.path.join(vdir, "index.json")))
c.eq(sorted(e["file"] for e in vindex), vfiles, "api/v1/variants/index.json lists every file")
c.ok("torch-2.9.0-variants.json" in vfiles, "one file per (project, version) read: %s" % vfiles)
for f in vfiles:
    doc = json.load(open(os.path.join(vdir, f)))
    c.ok(re.match(r"^[a-z0-9_]+-[A-Za-z0-9.!+_]+-variants\.json$", f), "%s: {name}-{version}-variants.json" % f)
    c.eq(sorted(doc), ["$schema", "default-priorities", "variants"], "%s: the top-level keys" % f)
    c.eq(doc["$schema"], "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json", "%s: $schema" % f)
    ns = doc["default-priorities"].get("namespace", [])
    c.ok(sorted(doc["default-priorities"]) == ["namespace"] and ns and len(set(ns)) == len(ns)
         and all(PEP_NAME.match(n) for n in ns), "%s: default-priorities.namespace" % f)
    for label, props in doc["variants"].items():
        c.ok(PEP_LABEL.match(label) and isinstance(props, dict), "%s: label %r" % (f, label))
        c.ok(label != "null" or props == {}, "%s: null has no properties" % f)
        for name, feats in props.items():
            c.ok(PEP_NAME.match(name) and name in ns, "%s %s: namespace %s, in default-priorities" % (f, label, name))
            for feat, vals in feats.items():
                c.ok(PEP_NAME.match(feat) and vals and len(set(vals)) == len(vals) and vals == sorted(vals)
                     and all(PEP_LABEL.match(x) for x in vals), "%s %s: %s :: %s %s" % (f, label, name, feat, vals))
# compared with the scan it came from: torch 2.9.0 cu130 for Linux x86_64
rec = watest.record(DB, SCANNED)
doc = json.load(open(os.path.join(vdir, "torch-2.9.0-variants.json")))
nv = doc["variants"].get("cu130.linux_x86_64", {}).get("nvidia", {})
c.eq(nv.get("sm_arch"), sorted(["%s_real" % t[3:] for t in rec["sass"] if t[-1].isdigit()] +
                               ["%s_virtual" % t[8:] for t in rec["ptx"] if t[-1].isdigit()]),
     "sm_arch: every plain SASS target as _real, PTX as _virtual, as scanned")
c.eq(nv.get("cuda_version_lower_bound"), ["13.0"], "cuda_version_lower_bound: the variant's CUDA")
labels = {e["version"]: e["labels"] for e in vindex if e["project"] == "torch"}.get("2.9.0", {})
c.eq(labels.get("cu130.linux_x86_64", {}).get("sm_arch_specific"),
     sorted(t for t in rec["sass"] + rec["ptx"] if not t[-1].isdigit()),
     "a and f cubins kept apart, in the index")
c.ok("cu130.linux_aarch64" in doc["variants"] and "cu130" not in doc["variants"],
     "aarch64's cu130 build differs from x86_64's: a label per platform")
c.eq(doc["variants"].get("rocm6.4", {}).get("amd", {}).get("rocm_version"), ["6.4"], "amd :: rocm_version")
c.ok("gfx1100" in doc["variants"].get("rocm6.4", {}).get("amd", {}).get("gfx_arch", []), "amd :: gfx_arch")
c.eq(doc["variants"].get("null"), {}, "the CPU build: the null variant")
# `wheelarch variants` reports what a machine supports in the same terms: a
# variant is for it when each of its features shares a value with it.


def supported(*argv):
    p = subprocess.run([args.wheelarch, "variants", "--json", "--platform", "linux-x86_64"] + list(argv),
                       capture_output=True, text=True, timeout=60)
    c.eq(p.returncode, 0, "variants %s: %s" % (" ".join(argv), p.stderr.strip()))
    return json.loads(p.stdout) if p.returncode == 0 else {}


def selects(machine, props):
    return all(set(vals) & set(machine.get(ns, {}).get(feat, []))
               for ns, feats in props.items() for feat, vals in feats.items())


m89 = supported("--cc", "8.9", "--driver", "580.82.07")
c.ok("89_real" in m89.get("nvidia", {}).get("sm_arch", []) and "90_real" not in m89["nvidia"]["sm_arch"]
     and "13.0" in m89["nvidia"].get("cuda_version_lower_bound", []), "8.9 with a CUDA 13 driver: %s" % m89)
c.ok(selects(m89, doc["variants"]["cu130.linux_x86_64"]), "an RTX 4090 selects torch 2.9.0's cu130 build")
m61 = supported("--cc", "6.1", "--driver", "580.82.07")
c.ok(not selects(m61, doc["variants"]["cu130.linux_x86_64"]), "a GTX 1080 Ti does not: no 6.x code")
m_old = supported("--cc", "8.9", "--driver", "535.104.05")
c.ok("13.0" not in m_old["nvidia"].get("cuda_version_lower_bound", [])
     and not selects(m_old, doc["variants"]["cu130.linux_x86_64"]), "nor a driver without CUDA 13")

# The static lists per device (api/v1/variants/static/<device>.json) say, for
# every device and every driver entry, what `wheelarch variants --static` says
# of a machine with that GPU and that driver (a GPU of the device by name,
# through WHEELARCH_GPUS and WHEELARCH_DRIVER as a machine would report them):
# the same namespaces, features and values in the same order, most preferred
# first; and --json, the properties the per-release files use, has the same
# values.
import csv  # noqa: E402

names = {}
for row in csv.DictReader(open(os.path.join(watest.ROOT, "data", "gpus.csv"))):
    if "," not in row["name"] and not row["host"] and not row["other_cc"]:
        names.setdefault(row["compute_capability"], row["name"])
for row in csv.DictReader(open(os.path.join(watest.ROOT, "data", "amd_gpus.csv"))):
    if "," not in row["name"]:
        names.setdefault(row["gfx"], row["name"])
sdir = os.path.join(vdir, "static")
sfiles = sorted(os.listdir(sdir))
devices_dir = os.path.join(site, "api/v1/gpu")
c.eq(sfiles, sorted(os.listdir(devices_dir)), "a static-list file per device file")


def machine(gpu, driver=None):
    env = dict(os.environ, WHEELARCH_GPUS=gpu)
    env.pop("WHEELARCH_DRIVER", None)
    if driver:
        env["WHEELARCH_DRIVER"] = driver
    p = subprocess.run([args.wheelarch, "variants", "--static", "--platform", "linux-x86_64"],
                       capture_output=True, text=True, timeout=60, env=env)
    return json.loads(p.stdout) if p.returncode == 0 else {"exit": p.returncode, "stderr": p.stderr}


def prefer_sm(v):
    return (v.endswith("_virtual"), -int(v.split("_")[0]))


def prefer_cuda(v):
    major, _, minor = v.partition(".")
    return (-int(major), -int(minor) if minor else 1)


compared = 0
for f in sfiles:
    sdoc = json.load(open(os.path.join(sdir, f)))
    dev = sdoc["device"]
    gpu = names.get(dev, dev)
    entries = sdoc["drivers"] or [{"min_driver": None, "providers": sdoc.get("providers", {})}]
    c.ok(entries[0]["providers"], "%s: static lists" % f)
    for e in entries:
        want = e["providers"]
        got = machine(gpu, e["min_driver"])  # the same lists, in the same order
        if not c.ok(got == want, "%s (%s) with driver %s: variants --static says the static list: %s vs %s"
                    % (dev, gpu, e["min_driver"], json.dumps(got)[:300], json.dumps(want)[:300])):
            break
        nv = want.get("nvidia", {}).get("static-properties", {})
        c.ok(nv.get("sm_arch", []) == sorted(nv.get("sm_arch", []), key=prefer_sm)
             and nv.get("cuda_version_lower_bound", []) == sorted(nv.get("cuda_version_lower_bound", []), key=prefer_cuda),
             "%s with driver %s: most preferred first" % (dev, e["min_driver"]))
        compared += 1
    # newest driver first, and the newest a GPU whose drivers end at a branch can run
    cudas = [tuple(map(int, e["cuda"].split("."))) for e in sdoc["drivers"]]
    c.ok(cudas == sorted(cudas, reverse=True), "%s: newest driver first" % f)
c.ok(compared > 200, "static lists compared with variants: %d (device, driver) pairs" % compared)
m86 = supported("--cc", "8.6", "--driver", "570.86.15")
l86 = [e for e in json.load(open(os.path.join(sdir, "8.6.json")))["drivers"] if e["cuda"] == "12.8"][0]
c.eq({k: sorted(v) for k, v in l86["providers"]["nvidia"]["static-properties"].items()}, m86.get("nvidia"),
     "variants --json (the per-release files' terms) has the static list's values")
last = json.load(open(os.path.join(sdir, "6.1.json")))["drivers"]
c.eq(last[0]["cuda"], "13.0", "a Pascal GPU's lists end at R580 (CUDA 13.0), its last driver branch")
newest = json.load(open(os.path.join(sdir, "8.6.json")))["drivers"][0]
c.eq((newest["cuda"], newest["min_driver"]), ("13.4", "615"), "an Ampere GPU's newest entry: CUDA 13.4 at R615")

# ---- the stack: a companion on the same indexes, checked against torch -------
# xformers 0.0.33 built for cu126 (code for sm_75 ... sm_120) and cu128 (sm_100
# and newer only), cloned from fixture wheels: on an RTX 4090 (8.9) its only
# native build is cu126 while torch's best is another, so the GPU page says
# which variant both run from, with the one command (golden page).
STACK_EXPECTED = os.path.join(watest.TESTS, "expected", "site-stack")


def companion(src, folder):
    fn = "xformers-0.0.33+%s-cp312-cp312-manylinux_2_28_x86_64.whl" % folder
    r = watest.clone_record(watest.record(DB, src), fn, folder)
    r["wheel"].update(project="xformers", normalized_name="xformers")
    return r


stack_db = os.path.join(W, "stack-db")
p = watest.db_with_records(args, DB, stack_db,
                           [companion("5bfab464df510417e090120aa3077e848465b23412f6646c6bbb6d91d1712285", "cu126"),
                            companion("c12c85a51b9ab33ca3ec535b9122bd92364f25535ede1c09d391df231e8c0cec", "cu128")])
c.eq(p.returncode, 0, "the stack database: " + p.stderr.strip())
stack_site = os.path.join(W, "site-stack")
p = build(stack_site, stack_db)
c.eq(p.returncode, 0, "build with a companion (%s)" % p.stderr.strip())
page = "gpu/geforce-rtx-4090/index.html"
got = read(os.path.join(stack_site, page)) if os.path.exists(os.path.join(stack_site, page)) else ""
if update:
    os.makedirs(os.path.dirname(os.path.join(STACK_EXPECTED, page)), exist_ok=True)
    with open(os.path.join(STACK_EXPECTED, page), "w", encoding="utf-8") as f:
        f.write(got)
elif not c.ok(got == read(os.path.join(STACK_EXPECTED, page)),
              "%s differs from tests/expected/site-stack/%s" % (page, page)):
    sys.stdout.writelines(watest.short_diff(read(os.path.join(STACK_EXPECTED, page)), got))
c.ok("install them together from that index" in got and
     "&quot;xformers==0.0.33&quot; --index-url https://download.pytorch.org/whl/cu126" in got,
     "the RTX 4090 page names the variant both run from, with the command")
root = read(os.path.join(stack_site, "simple/sm_89/index.html"))
c.ok('href="xformers/"' in root and 'href="torch/"' in root, "simple/sm_89/ lists every crawled project")
xf = read(os.path.join(stack_site, "simple/sm_89/xformers/index.html"))
c.ok("xformers-0.0.33+cu126" in xf and "+cu128" not in xf, "its xformers index: the build that runs on sm_89")
with open(os.path.join(stack_site, "api/v1/index-table.json")) as f:
    c.ok("xformers" in f.read(), "index-table.json carries the companion")
con = sqlite3.connect(os.path.join(stack_site, "api/v1/wheelarch.sqlite"))
c.eq(con.execute("SELECT count(*) FROM builds WHERE project = 'xformers'").fetchone()[0], 2,
     "the SQLite feed carries the companion's two builds")
con.close()

# ---- the AMD side: ROCm rows against gfx processors, never the other vendor ----
with open(os.path.join(site, "api/v1/matrix.json")) as f:
    matrix = json.load(f)
rows = {(r["project"], r["version"], r["variant"], r["platform"]): r for r in matrix["rows"]}
r63 = rows.get(("torch", "2.9.0", "rocm6.3", "linux-x86_64"))
r64 = rows.get(("torch", "2.9.0", "rocm6.4", "linux-x86_64"))
if c.ok(r63 and r64, "matrix.json has the scanned ROCm rows"):
    c.eq(r64["status"], "verified", "rocm6.4 row read from the wheel")
    c.eq(r64["rocm"], "6.4", "rocm6.4 row: ROCm version")
    c.eq(r64["gfx"], ["gfx90a:xnack-", "gfx942", "gfx1100", "gfx1201"], "rocm6.4 row: gfx targets in order")
    c.eq((r64["cells"].get("gfx1100"), r64["cells"].get("gfx1101"), r64["cells"].get("gfx90a")),
         ("native", "unsupported", "native"), "rocm6.4: exact processors only (gfx90a runs xnack off)")
    c.eq((r63["cells"].get("gfx1101"), r63["cells"].get("gfx1030"), r63["cells"].get("gfx1201"),
          r63["cells"].get("gfx908")), ("native", "native", "native", "unsupported"),
         "rocm6.3 (generic targets): family members run, gfx908 is in no generic target")
    c.ok(all(k.startswith("gfx") for k in r64["cells"]), "ROCm rows have only gfx cells")
cu = rows.get(("torch", "2.9.0", "cu130", "linux-x86_64"))
c.ok(cu and cu["cells"] and not any(k.startswith("gfx") for k in cu["cells"]) and cu["rocm"] is None,
     "CUDA rows have no gfx cells and no ROCm version")
with open(os.path.join(site, "api/v1/gpus.json")) as f:
    gpus = {g["name"]: g for g in json.load(f)["gpus"]}
xtx = gpus.get("AMD Radeon RX 7900 XTX")
if c.ok(xtx, "gpus.json lists the RX 7900 XTX"):
    c.eq((xtx["vendor"], xtx["device"], xtx["gfx"], xtx["compute_capability"]), ("amd", "gfx1100", "gfx1100", None),
         "RX 7900 XTX: vendor and processor")
    rec = xtx["recommendations"]["linux-x86_64"]["recommendation"]
    c.ok(rec and rec["index"].startswith("rocm"), "RX 7900 XTX: a ROCm index is recommended (%s)" % rec)
    win = (xtx["recommendations"]["windows-x86_64"] or {}).get("recommendation") or {}
    c.eq((win.get("index"), win.get("extra"), (win.get("vendor") or {}).get("name")),
         ("rocm10.0.0", "device-gfx1100", "AMD"),
         "RX 7900 XTX on Windows: AMD's whl-next with the extra for gfx1100 (%s)" % win.get("commands"))
    c.eq(xtx["recommendations"]["linux-aarch64"], None, "RX 7900 XTX: nothing on Linux aarch64")
c.eq(gpus["GeForce GTX 1080 Ti"]["vendor"], "nvidia", "NVIDIA GPUs say so")
gfx_index = read(os.path.join(site, "simple/gfx1100/torch/index.html"))
c.ok("2.9.0+rocm6.4" in gfx_index and "+cu1" not in gfx_index,
     "simple/gfx1100/torch lists the ROCm wheel with gfx1100 code and no CUDA wheel")
c.ok("2.9.0+rocm6.3" not in gfx_index,
     "simple/gfx1100/torch leaves out rocm6.3 (gfx11-generic): rocm6.4 has that wheel tag, and newer")
c.ok("2.9.0+rocm6.3" in read(os.path.join(site, "simple/gfx1101/torch/index.html")),
     "simple/gfx1101/torch lists rocm6.3: its gfx11-generic code runs there, rocm6.4's gfx1100 does not")
c.ok("rocm" not in read(os.path.join(site, "simple/sm_86/torch/index.html")), "simple/sm_86 lists no ROCm wheel")
c.ok(not os.path.exists(os.path.join(site, "simple/gfx1101/torch/index.html")) or
     "rocm6.4" not in read(os.path.join(site, "simple/gfx1101/torch/index.html")),
     "simple/gfx1101 does not list the rocm6.4 wheel (gfx1100 code does not run on gfx1101)")

# ---- deterministic -----------------------------------------------------------
site2 = os.path.join(W, "site2")
p = build(site2)
c.eq(p.returncode, 0, "second build exit")
c.ok(tree(site2) == files, "a second build into another folder is byte-identical")

# ---- incremental: nothing changed rewrites nothing ----------------------------
before = stats(site)
p = build(site)
c.eq(p.returncode, 0, "rebuild exit")
c.ok("0 written" in p.stderr and "nothing changed" in p.stderr, "rebuild summary: " + p.stderr.strip())
c.ok(stats(site) == before, "rebuild with nothing changed: every file keeps its inode and mtime")
c.ok(not os.path.exists(site + ".tmp"), "no temporary folder left")

# ---- a change rewrites what changed and nothing else --------------------------
db2 = os.path.join(W, "db2")
shutil.copytree(DB, db2)
con = sqlite3.connect(os.path.join(db2, "wheelarch.db"))
with con:
    con.execute("DELETE FROM wheels WHERE key = ?", (EVIL,))
con.close()
p = build(site, db2)
c.eq(p.returncode, 0, "build after a change")
after = stats(site)
c.ok("wheel/%s.html" % EVIL not in after, "the removed record's page is gone")
c.eq(after.get("methodology/index.html"), before["methodology/index.html"],
     "an unchanged page keeps its inode and mtime across a swap")
c.ok(after.get("api/v1/matrix.json") != before["api/v1/matrix.json"], "matrix.json rewritten")
c.ok("1 removed" in p.stderr, "summary counts the removed page: " + p.stderr.strip())
changed = tree(site)

# ---- a failed build leaves the previous site whole -----------------------------
tmpl = os.path.join(W, "templates")
shutil.copytree(os.path.join(watest.ROOT, "templates"), tmpl)
with open(os.path.join(tmpl, "release.mustache"), "a") as f:
    f.write("{{#rows}} never closed\n")
p = build(site, DB, env={"WHEELARCH_TEMPLATES_DIR": tmpl})
c.ok(p.returncode != 0, "a broken template fails the build")
err = p.stderr.strip()
c.ok(len(err.splitlines()) == 1 and "release" in err and "rows" in err,
     "one line naming the template and the problem: " + err)
c.ok(tree(site) == changed, "the failed build left the previous site as it was")
c.ok(not os.path.exists(site + ".tmp"), "the failed build removed its temporary folder")

# ---- killed at random moments: the site is the old one or the new one --------
old = changed
new = files  # DB (with the hostile record) renders as the first build did
t0 = time.monotonic()
build(site)  # how long a build that changes the site takes here
took = time.monotonic() - t0
build(site, db2)
outcomes = set()
for i in range(40):
    if i >= 10 and outcomes == {"old", "new"}:
        break
    proc = subprocess.Popen([args.wheelarch, "build", "-q", "--cache", DB, "--out", site],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # From at once to after the end; on a loaded machine a build can take
    # longer than the one timed above, so later rounds wait longer.
    time.sleep(took * 1.3 * i / 9)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    now = tree(site)
    state = "old" if now == old else "new" if now == new else "mixed"
    outcomes.add(state)
    c.ok(state != "mixed", "after SIGKILL %d the site is whole (old or new), not a mix" % i)
    if state == "new":  # back to the old one for the next round
        p = build(site, db2)
p = build(site)
c.eq(p.returncode, 0, "a build after the kills succeeds (%s)" % p.stderr.strip())
c.ok(tree(site) == files and not os.path.exists(site + ".tmp"), "and cleans up after them")
c.ok(outcomes == {"old", "new"}, "kills landed both before and after the swap (%s; a build takes %.2f s)"
     % (sorted(outcomes), took))

# ---- escaping (hostile values a valid record may hold; invalid records are
# tested in test_hostile_records.py) --------------------------------------------
sm86_page = read(os.path.join(site, "simple/sm_86/torch/index.html"))
html_files = [f for f in files if f.endswith(".html")]
for f in html_files:
    text = read(os.path.join(site, f))
    if not c.ok("<script>alert" not in text and "<img src=x" not in text and "\"><script" not in text,
                "%s: a hostile value reached the page as markup" % f):
        break
wp = read(os.path.join(site, "wheel/%s.html" % EVIL))
c.ok("?&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>" in wp, "the hostile URL shows as text on its page")
c.ok("?%22%3E%3Cscript%3Ealert(1)%3C/script%3E\"" in wp, "and is percent-encoded in its href")
rp = read(os.path.join(site, "release/torch/2.9.0/index.html"))
c.ok("&lt;img src=x onerror=alert(4)&gt;" in rp, "the hostile yanked reason shows as text")
c.ok("?%22%3E%3Cscript%3Ealert(1)%3C/script%3E\"" in rp, "the hostile URL is percent-encoded inside the attribute")
c.ok("data-requires-python=\"&gt;=3.10&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;\"" in sm86_page,
     "the simple index escapes it inside its attribute")


LOADS = ("script", "img", "iframe", "source", "video", "audio", "embed")
OWN_SCRIPTS = ("search.js", "prefs.js", "decide.js", "copy.js", "gpu.js", "gpuname.js")
for f in html_files:
    if f.startswith("simple/"):
        continue
    tables = captions = th_without_scope = 0
    external, scripts = [], []
    for tag, a in watest.start_tags(read(os.path.join(site, f)),
                                    ("table", "caption", "th", "link") + LOADS):
        if tag == "table":
            tables += 1
        elif tag == "caption":
            captions += 1
        elif tag == "th" and "scope" not in a:
            th_without_scope += 1
        for attr in ("src", "href"):
            v = a.get(attr) or ""
            loads = tag in LOADS or (tag == "link" and a.get("rel") not in ("canonical", "alternate"))
            if loads and attr in a and (v.startswith("http:") or v.startswith("https:") or v.startswith("//")):
                external.append("%s %s=%s" % (tag, attr, v))
        if tag == "script":
            scripts.append(a.get("src") or a.get("type") or "inline")
    c.ok(tables == captions, "%s: %d tables, %d captions" % (f, tables, captions))
    c.eq(th_without_scope, 0, "%s: header cells without scope" % f)
    c.eq(external, [], "%s: requests to other hosts" % f)
    c.ok(all(x == "application/json" or any(x.endswith("assets/" + js) for js in OWN_SCRIPTS)
             for x in scripts), "%s: only our own scripts (%s)" % (f, scripts))
css = read(os.path.join(site, "assets/style.css"))
c.ok("@import" not in css and "url(" not in css and "@font-face" not in css,
     "the stylesheet loads nothing (no fonts, imports or images)")
c.ok("prefers-color-scheme: dark" in css, "dark mode through prefers-color-scheme")
c.ok(":focus-visible" in css or ":focus" in css, "a visible focus style")

# ---- a vendor's line only where the build is a vendor's ---------------------
# (stop 57 shipped "GeForce GTX 1080 Ti's own index. ." on every GPU page: the
# template's vendor lookup fell through to the page's own vendor field)
import glob
for f in glob.glob(os.path.join(site, "gpu", "*", "index.html")):
    for m in re.finditer(r'<p class="small vendor"><strong>(?:Preview · )?([^<]*)\'s own index\.</strong> ([^<]*)</p>', read(f)):
        c.ok(m.group(1) in ("NVIDIA", "AMD") and len(m.group(2)) > 20,
             "%s: the vendor line names a vendor and says what its build is (%r)" % (f, m.group(0)[:120]))

    for m in re.finditer(r'<th scope="col">([^<]*)<span class="col-vendor"> ([^<]*)</span></th>', read(f)):
        c.ok((m.group(1), m.group(2)) in (("rocm10.0.0", "AMD"), ("cu134", "NVIDIA")),
             "%s: a grid column marked as a vendor's is one of its builds (%r)" % (f, m.group(0)[:120]))

# ---- the home page budget -------------------------------------------------------
# What the page loads (its HTML, the stylesheet and the scripts it names)
# and what the filter loads the first time it is used (gpuname.js,
# answers.js, decide.js), as a phone receives them from a static host
# (gzip) and as they are: a phone pays for the bytes that travel, and parses
# the bytes as they are.
import gzip
home_html = read(os.path.join(site, "index.html"))
loaded = re.findall(r'(?:src|href)="\./(assets/[^"]+)"', home_html)
def sizes(paths):
    raw = sum(os.path.getsize(os.path.join(site, a)) for a in paths)
    packed = sum(len(gzip.compress(open(os.path.join(site, a), "rb").read(), 9)) for a in paths)
    return raw, packed
total, total_gz = sizes(["index.html"] + sorted(set(loaded)))
lazy, lazy_gz = sizes(["assets/" + a for a in ("gpuname.js", "answers.js", "decide.js")])
print("home page with its assets: %d bytes (%d gzipped); the filter's scripts %d bytes (%d gzipped) more" %
      (total, total_gz, lazy, lazy_gz))
c.ok(total_gz < 20 * 1024, "home page with everything it loads under 20 KB gzipped (%d bytes)" % total_gz)
c.ok(total_gz + lazy_gz < 32 * 1024, "and with what the filter loads under 32 KB gzipped (%d bytes)" % (total_gz + lazy_gz))
# (the GPU list grew by 83 Fermi names in issue 45: 108.7 KB -> 116.7 KB raw,
# 17.5 KB -> 18.4 KB gzipped; what travels is the gzipped size)
c.ok(total < 124 * 1024, "home page with everything it loads under 124 KB as it is (%d bytes)" % total)
# (AMD's whl-next in issue 48 gave every AMD device code an answer on Windows,
# each with its own command, torch[device-gfxNNNN]: the filter's scripts went
# from 76.0 KB to 86.2 KB raw and 9.8 KB to 10.0 KB gzipped, 196.6 KB to 206.9 KB in all)
c.ok(total + lazy < 216 * 1024, "and with what the filter loads under 216 KB as it is (%d bytes)" % (total + lazy))
c.ok("assets/answers.js" not in loaded, "the answers load only when the filter is used")
# Every GPU page at most 40 KB of HTML before compression (the grid and the
# answer; the whole history is on its device page), and what its scripts
# read (the device's feed file) a fetch of its own.
# One driver for one build on a page: where a platform has a driver table,
# its headline's driver is the table's line for the same index.
mismatch, checked = [], 0
for f in glob.glob(os.path.join(site, "gpu", "*", "index.html")):
    html_text = read(f)
    for blk in re.findall(r'<section class="platform" data-platform="[^"]+"[^>]*>(.*?)</details>', html_text, re.S):
        m = re.search(r'class="headline">.*?Use the <strong>([^<]+)</strong> index with NVIDIA driver ([0-9.]+) or newer', blk, re.S)
        if not m or '<table class="drivers">' not in blk:
            continue
        checked += 1
        lines = re.findall(r'<tr><td>≥ ([0-9.]+)</td><td><strong>([^<]+)</strong>', blk)
        if (m.group(2), m.group(1)) not in lines:
            mismatch.append("%s: headline %s from %s, table %s" % (os.path.basename(os.path.dirname(f)), m.group(1), m.group(2), lines[:3]))
c.ok(checked > 100, "GPU pages with a headline and a driver table: %d" % checked)
c.eq(mismatch[:3], [], "the headline's driver is the driver table's line for its build (%d differ)" % len(mismatch))
gpu_sizes = sorted((os.path.getsize(p), p) for p in glob.glob(os.path.join(site, "gpu", "*", "index.html")))
print("GPU pages: %d, %d to %d bytes" % (len(gpu_sizes), gpu_sizes[0][0], gpu_sizes[-1][0]))
c.ok(gpu_sizes[-1][0] <= 40 * 1024, "every GPU page at most 40 KB: the largest is %s (%d bytes)" % gpu_sizes[-1][::-1])

# ---- the feed ---------------------------------------------------------------------
for doc in ("matrix", "gpus", "index-table", "variants"):
    d = json.loads(read(os.path.join(site, "api/v1/%s.json" % doc)))
    c.eq(d.get("meta", {}).get("api-version"), "1.0", doc + ".json meta.api-version")
    c.eq(d["meta"].get("data-as-of"), "2026-11-01", doc + ".json data-as-of is the newest scan date")
it = json.loads(read(os.path.join(site, "api/v1/index-table.json")))
row = it["indexes"]["cu130"]["platforms"]["linux-x86_64"]["torch"]["2.9.0"]
c.ok("sm_86" in row["sass"] and "compute_120" in row["ptx"], "index-table: cu130 linux 2.9.0 targets")
c.eq(it["indexes"]["cu130"]["min_driver"], {"linux": "580", "windows": "580", "windows-arm64": "615"},
     "index-table: cu130 minimum driver (Windows on Arm: R615, its first CUDA driver)")
var = json.loads(read(os.path.join(site, "api/v1/variants.json")))
props = json.dumps(var)
c.ok("nvidia :: sm_arch :: 86_real" in props and "nvidia :: sm_arch :: 120_virtual" in props,
     "variants.json: wheel-variant properties (86_real, 120_virtual)")
csv = read(os.path.join(site, "api/v1/matrix.csv")).splitlines()
c.ok(csv and csv[0].startswith("project,") and len(csv) > 50, "matrix.csv with a header row")
c.ok(json.loads(read(os.path.join(site, "api/v1/schema.json")))["$schema"].endswith("2020-12/schema"),
     "schema.json is a JSON Schema 2020-12")

# ---- the SQLite feed ---------------------------------------------------------------
feed = os.path.join(site, "api/v1/wheelarch.sqlite")
con = sqlite3.connect("file:%s?mode=ro" % feed, uri=True)
try:
    c.eq(con.execute("PRAGMA integrity_check").fetchone()[0], "ok", "wheelarch.sqlite: integrity_check")
    c.eq(con.execute("PRAGMA application_id").fetchone()[0], 0x57484C46, "wheelarch.sqlite: application_id WHLF")
    c.eq(con.execute("PRAGMA user_version").fetchone()[0], 1, "wheelarch.sqlite: schema 1")
    c.eq(con.execute("PRAGMA page_size").fetchone()[0], 4096, "wheelarch.sqlite: 4096-byte pages")
    c.eq(con.execute("PRAGMA freelist_count").fetchone()[0], 0, "wheelarch.sqlite: vacuumed, no free pages")
    meta = dict(con.execute("SELECT key, value FROM meta"))
    mj = json.loads(read(os.path.join(site, "api/v1/matrix.json")))
    c.eq(meta.get("api-version"), mj["meta"]["api-version"], "wheelarch.sqlite: meta api-version")
    c.eq(meta.get("data-as-of"), mj["meta"]["data-as-of"], "wheelarch.sqlite: meta data-as-of")
    builds = {(r[0], r[1], r[2], r[3]): r for r in con.execute(
        "SELECT index_id, platform, project, version, status, sass, ptx, native, ptx_jit, partial, confidence "
        "FROM builds")}
    c.eq(len(builds), len(mj["rows"]), "wheelarch.sqlite: one builds row per matrix.json row")
    bad = []
    for r in mj["rows"]:
        b = builds.get((r["variant"], r["platform"], r["project"], r["version"]))
        cells = r["cells"]
        want = (r["status"], " ".join(r["sass"]), " ".join(r["ptx"]),
                " ".join(k for k in mj["architectures"] if cells.get(k) == "native"),
                " ".join(k for k in mj["architectures"] if cells.get(k) == "ptx-jit"),
                " ".join(k for k in mj["architectures"] if cells.get(k) == "partial"))
        if not b or tuple(b[4:10]) != want:
            bad.append((r["variant"], r["platform"], r["version"], b and b[4:10], want))
    c.ok(not bad, "wheelarch.sqlite: every build's status, SASS, PTX and verdicts equal matrix.json's (%s)" % bad[:2])
    b = builds.get(("cu130", "linux-x86_64", "torch", "2.9.0"))
    c.ok(b and "sm_86" in b[5].split() and "8.6" in b[7].split(), "wheelarch.sqlite: torch 2.9.0 cu130 runs on 8.6")
    gj = json.loads(read(os.path.join(site, "api/v1/gpus.json")))
    names = [r[0] for r in con.execute("SELECT name FROM gpus")]
    c.eq(len(names), len({g["name"] for g in gj["gpus"]}), "wheelarch.sqlite: the GPU table has every GPU")
    row = con.execute("SELECT vendor, device, architecture FROM gpus WHERE name = 'GeForce GTX 1080 Ti'").fetchone()
    c.eq(row, ("nvidia", "6.1", "Pascal"), "wheelarch.sqlite: GTX 1080 Ti is 6.1, Pascal")
    # the query an installer makes: indexes with native code for 8.6, newest CUDA first
    got = [r[0] for r in con.execute(
        "SELECT index_id FROM builds WHERE project = 'torch' AND platform = 'linux-x86_64' "
        "AND ' ' || native || ' ' LIKE '% 8.6 %' AND version = '2.8.0' ORDER BY cuda DESC")]
    c.eq(got, ["cu129", "cu126"], "wheelarch.sqlite: torch 2.8.0 for 8.6 on Linux x86_64: cu129, then cu126")
finally:
    con.close()
c.ok(os.path.getsize(feed) < 10 * 1024 * 1024, "wheelarch.sqlite under 10 MB (%d bytes)" % os.path.getsize(feed))

# ---- a binary's row edited by hand past the checks -------------------------------
# A build reads each scanned wheel's binaries from the rows of binaries and
# targets, not the record's JSON, and checks them as it reads them: a path
# with an escape sequence leaves the wheel out.  The site must be the one a
# database without that wheel gives, and the wheel reported.
def hand_edited(name, sql, key):
    d = os.path.join(W, name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(DB, d)
    con = sqlite3.connect(os.path.join(d, "wheelarch.db"))
    with con:
        con.execute(sql, (key,))
    con.close()
    return d


bad_key = sorted(k for k, in sqlite3.connect(os.path.join(DB, "wheelarch.db")).execute(
    "SELECT key FROM wheels WHERE status = 'scanned'"))[0]
p = build(os.path.join(W, "site-badrec"),
          hand_edited("badrec-db", "UPDATE binaries SET path = path || char(27) || '[2J' WHERE wheel = ?",
                      bad_key))
c.eq(p.returncode, 3, "an escape sequence in a binary's path: exit 3 (%s)" % p.stderr.strip())
c.ok("wheel %s: a binary's path is not one line of text; record skipped" % bad_key in p.stderr,
     "the wheel is named")
p2 = build(os.path.join(W, "site-norec"), hand_edited("norec-db", "DELETE FROM wheels WHERE key = ?", bad_key))
c.eq(p2.returncode, 0, "the same database without that wheel (%s)" % p2.stderr.strip())
c.ok(tree(os.path.join(W, "site-badrec")) == tree(os.path.join(W, "site-norec")),
     "the site is the one the database without that wheel gives")

# ---- an inferred record with binaries, read before the scanned wheel -------------
# A row's binaries come from the wheel whose code stands for it: the view
# keeps only the ones of the last wheel that took the row.  Here an inferred
# wheel with binary rows (renamed INFERRED/...) sorts first in its group;
# the scanned wheel after it takes the row without binaries of its own (its
# code column emptied): the release page must show no binaries of the
# inferred wheel.
tk_db = os.path.join(W, "takeover-db")
shutil.rmtree(tk_db, ignore_errors=True)
shutil.copytree(DB, tk_db)
con = sqlite3.connect(os.path.join(tk_db, "wheelarch.db"))
with con:
    grp = "project = 'torch' AND version = '2.8.0' AND variant = 'cu126' AND platform = 'linux-x86_64'"
    skey = con.execute("SELECT key FROM wheels WHERE status = 'scanned' AND " + grp).fetchone()[0]
    ikey = con.execute("SELECT key FROM wheels WHERE status = 'inferred' AND " + grp).fetchone()[0]
    scanned = json.loads(con.execute("SELECT record FROM records WHERE key = ?", (skey,)).fetchone()[0])
    inferred = json.loads(con.execute("SELECT record FROM records WHERE key = ?", (ikey,)).fetchone()[0])
    first = "0" * 63 + "1"
    inferred["key"] = first
    inferred["binaries"] = [dict(b, path="INFERRED/" + b["path"]) for b in scanned["binaries"]]
    con.execute("UPDATE wheels SET key = ?, code = (SELECT code FROM wheels WHERE key = ?) WHERE key = ?",
                (first, skey, ikey))
    con.execute("UPDATE records SET key = ?, record = ? WHERE key = ?", (first, json.dumps(inferred), ikey))
    for table in ("binaries", "targets"):
        con.execute("CREATE TEMP TABLE c_%s AS SELECT * FROM %s WHERE wheel = ?" % (table, table), (skey,))
        con.execute("UPDATE c_%s SET wheel = ?, path = 'INFERRED/' || path" % table, (first,))
        con.execute("INSERT INTO %s SELECT * FROM c_%s" % (table, table))
    con.execute("UPDATE wheels SET code = NULL WHERE key = ?", (skey,))
con.close()
tk_site = os.path.join(W, "site-takeover")
p = build(tk_site, tk_db)
c.eq(p.returncode, 0, "build with an inferred record that lists binaries (%s)" % p.stderr.strip())
tk_page = read(os.path.join(tk_site, "release/torch/2.8.0/index.html"))
c.ok("INFERRED/" not in tk_page, "the scanned wheel took the row: no binaries of the inferred wheel")

# ---- a wheel's file name that is not UTF-8 (a hand-edited database) --------------
# matrix.json writes the wheels without a JSON tree; a field jansson would
# refuse is left out as before, and the document stays valid JSON.
u8db = os.path.join(W, "u8-db")
shutil.rmtree(u8db, ignore_errors=True)
shutil.copytree(DB, u8db)
con = sqlite3.connect(os.path.join(u8db, "wheelarch.db"))
with con:
    u8key = con.execute("SELECT key FROM wheels WHERE status = 'inferred' ORDER BY key LIMIT 1").fetchone()[0]
    con.execute("UPDATE wheels SET filename = CAST(X'746f7263682dff2e77686c' AS TEXT) WHERE key = ?", (u8key,))
con.close()
p = build(os.path.join(W, "site-u8"), u8db)
c.eq(p.returncode, 0, "build with a file name that is not UTF-8 (%s)" % p.stderr.strip())
u8rows = json.loads(read(os.path.join(W, "site-u8", "api/v1/matrix.json")))["rows"]
u8wheels = [w for r in u8rows for w in r["wheels"]]
c.eq([sorted(w) for w in u8wheels if w.get("sha256") == u8key], [["sha256", "status", "url"]],
     "matrix.json: the wheel whose name is not UTF-8 keeps its other fields")
c.eq(sum(1 for w in u8wheels if "filename" in w), len(u8wheels) - 1, "and every other wheel its name")

# ---- the simple indexes -----------------------------------------------------------
# PEP 691 JSON only with --simple-json (a static host such as GitHub Pages
# cannot serve it at the index's URL): the same links as the HTML.
c.eq([f for f in files if f.startswith("simple/") and f.endswith("index.json")], [],
     "no PEP 691 JSON in simple/ by default")
jsite = os.path.join(W, "site-simple-json")
p = build(jsite, DB, "--simple-json")
c.eq(p.returncode, 0, "build --simple-json (%s)" % p.stderr.strip())
jfiles = tree(jsite)
simple_dirs = sorted(os.path.dirname(f) for f in files if f.startswith("simple/") and f.endswith("index.html"))
c.eq(sorted(os.path.dirname(f) for f in jfiles if f.startswith("simple/") and f.endswith("index.json")),
     simple_dirs, "--simple-json: an index.json beside every simple/ index.html")
c.ok({f: h for f, h in jfiles.items() if not (f.startswith("simple/") and f.endswith("index.json"))} == files,
     "--simple-json changes no other file")
sj = json.loads(read(os.path.join(jsite, "simple/sm_86/torch/index.json")))
c.eq(sj["meta"], {"api-version": "1.0"}, "PEP 691 meta")
c.eq(sorted(x["filename"] for x in sj["files"]),
     sorted(re.findall(r'>([^<>]+\.whl)</a>', read(os.path.join(jsite, "simple/sm_86/torch/index.html")))),
     "the JSON lists the HTML's wheels")
c.ok(all(x["filename"] in urllib.parse.unquote(x["url"]) for x in sj["files"]), "each JSON file has its URL")
c.ok({"sha256": "dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7"} in
     [x["hashes"] for x in sj["files"] if x["filename"] == "torch-2.9.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl"],
     "the JSON gives a wheel's sha256")
c.ok(any(x.get("requires-python") == '>=3.10"><script>alert(3)</script>' for x in sj["files"]),
     "PEP 691 JSON keeps the hostile requires-python as data")
c.eq(json.loads(read(os.path.join(jsite, "simple/sm_86/index.json")))["projects"],
     [{"name": "torch"}, {"name": "torchvision"}], "the root's PEP 691 project list")
sm86 = read(os.path.join(site, "simple/sm_86/torch/index.html"))
c.ok("torch-2.9.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl</a>" in sm86 and
     "#sha256=dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7" in sm86,
     "sm_86 lists a cu130 wheel with its sha256")
c.ok("torch-2.8.0+cu128" not in sm86, "sm_86 leaves out the wheel without code for 8.6 (libk_fam)")
c.ok("<a " not in read(os.path.join(site, "simple/sm_61/torch/index.html")),
     "sm_61: torch's page is there and empty (no wheel has code for 6.1)")
# One wheel per version and wheel tag: cu128 and cu130 of 2.9.0 both run on
# 8.6, and pip would take either; the index lists the newest CUDA's, and the
# older variant only for a tag the newer one lacks (cu130 has no cp313).
c.ok("torch-2.9.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl<" not in sm86,
     "sm_86 leaves out cu128's cp312 wheel: cu130 has one")
c.ok("torch-2.9.0+cu128-cp313-cp313-manylinux_2_28_x86_64.whl<" in sm86,
     "sm_86 keeps cu128's cp313 wheel: cu130 has none")
tags = re.findall(r">torch-([^+<]+)\+[^-<]+-([^<]+)\.whl</a>", sm86)
c.ok(tags and len(tags) == len(set(tags)), "sm_86: one wheel per version and tag (%d links)" % len(tags))

# A yanked wheel does not hide a good one: with cu128's cp314 wheel beside
# cu130's yanked one, sm_86 lists cu128's (pip passes over yanked files).
good = watest.clone_record(watest.record(DB, "6d57af775f6306db16090bf182bfe9af59f439304179e34645acef0b3c8cf054"),
                           "torch-2.9.0+cu128-cp314-cp314-manylinux_2_28_x86_64.whl", "cu128")  # from cu128 cp313
ydb = os.path.join(W, "yanked-db")
p = watest.db_with_records(args, DB, ydb, [good])
c.eq(p.returncode, 0, "import of a cu128 cp314 wheel (%s)" % p.stderr.strip())
p = build(os.path.join(W, "site-yanked"), ydb)
page = read(os.path.join(W, "site-yanked", "simple/sm_86/torch/index.html"))
c.ok(">torch-2.9.0+cu128-cp314-cp314-manylinux_2_28_x86_64.whl<" in page and
     ">torch-2.9.0+cu130-cp314-cp314-manylinux_2_28_x86_64.whl<" not in page,
     "sm_86: cu128's good cp314 wheel, not cu130's yanked one")
c.ok(">torch-2.9.0+cu130-cp314-cp314-manylinux_2_28_x86_64.whl<" in sm86,
     "without another, the yanked wheel is still listed (pinning it with == installs it)")

# Nightlies: only the newest --nightlies of them (default 30, "all").
def db_with_versions(name, versions, folder):
    """The fixture database plus the scanned torch 2.9.0 cu130 record cloned
    under each version."""
    base = watest.record(DB, SCANNED)
    recs = [watest.clone_record(base, "torch-%s+cu130-cp312-cp312-manylinux_2_28_x86_64.whl" % v, folder)
            for v in versions]
    cache = os.path.join(W, name)
    p = watest.db_with_records(args, DB, cache, recs)
    c.eq(p.returncode, 0, "import of %d versions (%s)" % (len(versions), p.stderr.strip()))
    return cache


ncache = db_with_versions("nightly-db", ["2.10.0.dev202611%02d" % d for d in range(1, 5)], "nightly/cu130")
for opt, want in (([], [1, 2, 3, 4]), (["--nightlies", "2"], [3, 4]), (["--nightlies", "all"], [1, 2, 3, 4]),
                  (["--nightlies", "0"], [])):
    out = os.path.join(W, "site-nightlies")
    p = build(out, ncache, *opt)
    c.eq(p.returncode, 0, "build %s (%s)" % (" ".join(opt), p.stderr.strip()))
    page = read(os.path.join(out, "simple/sm_86/torch/index.html"))
    got = sorted(int(d) for d in re.findall(r">torch-2\.10\.0\.dev202611(\d\d)\+", page))
    c.eq(got, want, "simple/sm_86 with %s lists the nightlies of days %s" % (opt or "the default", want))
    c.ok("torch-2.9.0+cu130-cp312" in page, "and the releases whatever --nightlies says")
    rows = json.loads(read(os.path.join(out, "api/v1/matrix.json")))["rows"]
    got = sorted({int(r["version"][-2:]) for r in rows if ".dev" in r["version"]})
    c.eq(got, want, "matrix.json with %s has the nightly rows of days %s" % (opt or "the default", want))
    mp = read(os.path.join(out, "matrix/index.html"))
    shown = sorted({int(d) for d in re.findall(r">torch 2\.10\.0\.dev202611(\d\d)</a>", mp)})
    c.eq(shown, want[-1:], "matrix page with %s: the newest nightly of the release only" % (opt or "the default"))
    c.eq("Of a release's nightly builds, the newest is shown" in mp, bool(want),
         "matrix page with %s says so when it has nightlies" % (opt or "the default"))
# Many releases: the matrix page shows the newest 40; a GPU page's grid the
# newest 8, and its device page every release, with a history in which a
# run of equal answers takes one line.
mcache = db_with_versions("many-db", ["2.%d.0" % m for m in range(100, 150)], "cu130")
out = os.path.join(W, "site-many")
p = build(out, mcache)
c.eq(p.returncode, 0, "build with 50 more releases (%s)" % p.stderr.strip())
mp = read(os.path.join(out, "matrix/index.html"))
c.ok("The newest 40 releases of each project are here" in mp, "matrix page: says it shows the newest 40 releases")
c.ok(">torch 2.149.0</a>" in mp and ">torch 2.110.0</a>" in mp and ">torch 2.109.0</a>" not in mp
     and ">torch 2.9.0</a>" not in mp, "matrix page: torch 2.149 to 2.110, not 2.109 nor 2.9")
gp = read(os.path.join(out, "gpu/geforce-rtx-3090/index.html"))
m = re.search(r'<caption id="grid-linux-x86_64">.*?</table>', gp, re.S)
c.ok(m, "GPU page: the Linux x86_64 grid")
grid_rows = re.findall(r'<tr><th scope="row">([^<]*)</th>', m.group(0) if m else "")
c.eq(grid_rows[:2], ["2.149", "2.148"], "GPU page: the grid's newest releases first")
c.eq(len(grid_rows), 8, "GPU page: 8 releases in the grid")
c.ok(re.search(r"The newest 8 of \d+ releases; <a href=\"../../device/8.6/\">every release</a>", gp),
     "GPU page: says it shows the newest 8 and links the device page")
dp = read(os.path.join(out, "device/8.6/index.html"))
m = re.search(r'<caption id="grid-linux-x86_64">.*?</table>', dp, re.S)
dev_rows = re.findall(r'<tr><th scope="row">([^<]*)</th>', m.group(0) if m else "")
c.ok("2.149" in dev_rows and "2.100" in dev_rows and len(dev_rows) > 50, "device page: every release in the grid (%d)" % len(dev_rows))
c.ok(re.search(r'>2\.100</a> – <a href="[^"]*">2\.149</a> <span class="small">\(50 releases\)</span>', dp),
     "device page: cu130's 50 equal answers share one history line")
c.ok(len(gp.encode()) <= 40 * 1024, "GPU page: at most 40 KB (%d bytes)" % len(gp.encode()))
p = build(os.path.join(W, "site-nightlies"), ncache, "--nightlies", "-1")
c.ok(p.returncode == 2 and "--nightlies" in p.stderr, "--nightlies -1 is a usage error: " + p.stderr.strip())


# ---- freshness: a release due and absent from the data ----------------------
# A copy of the shipped data with one made-up scheduled release, 9.1, due on
# 2026-01-01; the build judges it on --today.
fdata = watest.data_copy(W, "data-fresh", {"pytorch_release_schedule.csv": watest.SCHEDULE_9_1})
fenv = {"WHEELARCH_DATA_DIR": fdata}
fout = os.path.join(W, "site-fresh")
p = build(fout, DB, "--today", "2025-12-31", env=fenv)
c.eq(p.returncode, 0, "build before the day (%s)" % p.stderr.strip())
c.ok("warning:" not in p.stderr, "no warning before the release is due: " + p.stderr.strip())
c.ok('class="stale"' not in read(os.path.join(fout, "index.html")), "no banner before the day")
meta = json.loads(read(os.path.join(fout, "api/v1/matrix.json")))["meta"]
c.eq(meta.get("overdue", "absent"), None, "meta.overdue is null before the day")
c.ok(re.fullmatch(r"\d+\.\d+\.\d+", meta.get("data-through") or ""), "meta.data-through names a version: %r" % meta.get("data-through"))
p = build(fout, DB, "--today", "2025-12-31", env=fenv)
c.ok("nothing changed" in p.stderr, "the same day again rewrites nothing: " + p.stderr.strip())
p = build(fout, DB, "--today", "2026-01-02", env=fenv)
c.eq(p.returncode, 0, "build after the day (%s)" % p.stderr.strip())
c.ok("nothing changed" not in p.stderr, "the day passing rebuilds the site")
c.ok("warning: torch 9.1 was announced for 2026-01-01 and this data does not include it yet (data through torch " in p.stderr,
     "the build warns, naming the release and its day: " + p.stderr.strip())
for page in ("index.html", "gpu/geforce-rtx-3090/index.html", "matrix/index.html"):
    html = read(os.path.join(fout, page))
    c.ok('class="stale"' in html and "torch 9.1 was announced for 2026-01-01 and this data does not include it yet" in html,
         "%s: the banner names the overdue release" % page)
meta = json.loads(read(os.path.join(fout, "api/v1/matrix.json")))["meta"]
c.ok(meta.get("overdue") and meta["overdue"].get("release") == "9.1" and meta["overdue"].get("scheduled") == "2026-01-01",
     "meta.overdue names it: %r" % meta.get("overdue"))
p = build(fout, DB, "--today", "2026-01-02", env=fenv)
c.ok("nothing changed" in p.stderr and "torch 9.1 was announced" in p.stderr,
     "a rebuild with nothing changed still warns: " + p.stderr.strip())
p = build(fout, DB, "--today", "2026-02-30x", env=fenv)
c.ok(p.returncode == 2 and "--today" in p.stderr, "--today takes a date: " + p.stderr.strip())

# The API page's recipe: an empty driver table is a Python without wheels,
# never "update the driver"
api_html = read(os.path.join(site, "api", "index.html"))
c.ok("None: update the driver" not in api_html and "no build with code for this GPU has a wheel for Python" in api_html,
     "the API page's recipe tells a Python without wheels from an old driver")

# Three builds for what the fixture database never shows (and which the
# names below must meet): a site with no wheel read (declared rows only),
# a site with --base-url (canonical links), and data in which a release
# lists a variant whose arch list it lacks (a change item "no_arch_data").
dout = os.path.join(W, "site-declared")
p = build(dout, os.path.join(W, "no-such-cache"))
c.eq(p.returncode, 0, "a site from the declared data alone: " + p.stderr.strip())
home = read(os.path.join(dout, "index.html"))
c.ok("No wheel read yet: every verdict is declared" in home and re.search(r"checked on \d{4}-\d\d-\d\d", home),
     "its footer says no wheel was read and when the declared data was checked")
bout = os.path.join(W, "site-base")
p = build(bout, DB, "--base-url", "https://example.org/wa%20x")
c.eq(p.returncode, 0, "a site with --base-url: " + p.stderr.strip())
c.ok('<link rel="canonical" href="https://example.org/wa%20x/">' in read(os.path.join(bout, "index.html")),
     "its home page names its canonical URL under the base URL")
c.ok('<link rel="canonical" href="https://example.org/wa%20x/gpu/geforce-rtx-3090/">'
     in read(os.path.join(bout, "gpu/geforce-rtx-3090/index.html")),
     "and so does a GPU page, its folder's URL")
lines = open(os.path.join(watest.ROOT, "data", "pytorch_arch_lists.csv")).read().splitlines(True)
gone = [l for l in lines if l.startswith("torch,2.9,cu126,linux-x86_64,")]
c.eq(len(gone), 1, "the declared row of torch 2.9 cu126 on Linux x86_64 is found")
ndata = watest.data_copy(W, "data-no-arch", {"pytorch_arch_lists.csv": "".join(l for l in lines if l not in gone)})
nout = os.path.join(W, "site-no-arch")
p = build(nout, DB, env={"WHEELARCH_DATA_DIR": ndata})
c.eq(p.returncode, 0, "a site whose data lacks a listed variant's arch list: " + p.stderr.strip())
ch = read(os.path.join(nout, "changes", "index.html"))
c.ok(re.search(r"<b>cu126</b> \(Linux x86_64\): published, but its arch list is not in the data yet", ch),
     "the changes page says torch 2.9's cu126 is published but its arch list is not in the data")
c.ok("arch list not in the data yet" in read(os.path.join(nout, "changes.atom")), "and so does the Atom feed")

# Every {{name}} of every template is a name some page's data has: each
# build above listed the names its templates looked up and whether the
# data answered; a name no build's data answered (or that no page reached)
# is a typo, a field the data lost, or dead template text.
answered, asked = set(), set()
for f in NAMES:
    if not os.path.exists(f):
        continue
    for line in open(f):
        t, name, found = line.rstrip("\n").split("\t")
        asked.add((t, name))
        if found == "1":
            answered.add((t, name))
c.ok(len(NAMES) > 10 and len(answered) > 300, "the builds listed their names (%d builds, %d answered)"
     % (len(NAMES), len(answered)))
TAG = re.compile(r"\{\{(\{|&|#|\^|/|!|>|=)?\s*([^}]*?)\s*\}?\}\}")
written = set()
tdir = os.path.join(watest.ROOT, "templates")
for fn in sorted(os.listdir(tdir)):
    if not fn.endswith(".mustache"):
        continue
    t = fn[:-len(".mustache")]
    for m in TAG.finditer(open(os.path.join(tdir, fn)).read()):
        sigil, name = m.group(1), m.group(2)
        if sigil in ("/", "!", ">", "=") or name == ".":
            continue
        written.add((t, name))
c.ok(len(written) > 300, "the templates' names were read (%d)" % len(written))
c.eq(sorted("%s: {{%s}}" % x for x in written - answered), [],
     "names of templates that no page's data answered")
c.done()
