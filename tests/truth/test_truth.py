#!/usr/bin/env python3
"""Hand-written answers, worked out from the rules (docs, compat.h) and the
data files by hand -- never from wheelarch's output -- checked on every
surface that gives them: `wheelarch query --json`, the GPU page and
api/v1/gpus.json (the same-answer test), plus the data's own invariants:
the newest CUDA release is not older than the newest ROCm one, and the
changes feed never calls a variant dropped without coverage.

Usage: test_truth.py --wheelarch EXE --work DIR
"""
import argparse, csv, json, os, re, shutil, subprocess, sys, html

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import watest  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--wheelarch", required=True)
ap.add_argument("--work", required=True)
args = ap.parse_args()
exe, work = args.wheelarch, args.work
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

fails = []
def ok(cond, msg):
    if not cond:
        fails.append(msg)
        print("FAIL: " + msg)

def run(*args):
    env = dict(os.environ, WHEELARCH_DATA_DIR=data)
    return subprocess.run([exe] + list(args), capture_output=True, text=True, env=env)

# Worked out by hand (see each comment for the reasoning):
CASES = [
    # GTX 1080 Ti, 6.1. torch 2.14 linux-x86_64: cu126 = 5.0;6.0;7.0;...;9.0 -> sm_60 runs on
    # 6.1 (R1) -> native; cu130/cu132 start at 7.5, no PTX -> no. PyPI 2.14 = cu130 -> no.
    dict(gpu="GTX 1080 Ti", slug="geforce-gtx-1080-ti", platform="linux-x86_64",
         index="cu126", pin="2.14.*", verdict="native", min_driver="525.60.13",
         full_driver="560.28.03",  # CUDA 12.6 GA's own driver (Table 3)
         pypi_runs=False, fallback=False),
    # RTX 5090, 12.0: cu132 has 12.0 -> native, the newest CUDA wins; CUDA 13 floor 580.
    # PyPI 2.14 = cu130 (7.5..12.0) -> runs.
    dict(gpu="RTX 5090", slug="geforce-rtx-5090", platform="linux-x86_64",
         index="cu132", pin="2.14.*", verdict="native", min_driver="580",
         full_driver="595.45.04",  # CUDA 13.2's own driver (Table 3)
         pypi_runs=True, fallback=False),
    # A100, 8.0: every 2.14 variant has 8.0; newest CUDA is cu132.
    dict(gpu="A100", slug="nvidia-a100", platform="linux-x86_64",
         index="cu132", pin="2.14.*", verdict="native", min_driver="580",
         full_driver="595.45.04",
         pypi_runs=True, fallback=False),
    # Tesla K40c, 3.5: nothing since Linux moved to 3.7 in 1.3.1 (pytorch/builder
    # 2aac90bd); torch 1.3.0 cu101 (3.5;5.0;...) is the last: pin 1.3.0, CUDA 10.1 needs 418.39.
    dict(gpu="Tesla K40c", slug="tesla-k40c", platform="linux-x86_64",
         index="cu101", pin="1.3.0", verdict="native", min_driver="418.39",
         full_driver=None,  # before CUDA 11 the toolkit's own driver is the floor
         pypi_runs=False, fallback=True, newest_with_code="1.3.0"),
    # RX 7900 XTX, gfx1100: torch 2.14's ROCm variants rocm7.2 (medium confidence) and
    # rocm7.14 (low) both list gfx1100; the newest known with more than low confidence wins.
    dict(gpu="RX 7900 XTX", slug="amd-radeon-rx-7900-xtx", platform="linux-x86_64",
         index="rocm7.2", pin="2.14.*", verdict="native", min_driver=None, full_driver=None,
         pypi_runs=False, fallback=False),
]

site = os.path.join(work, "site")
p = run("build", "--cache", os.path.join(work, "nocache"), "--out", site)
ok(p.returncode == 0, "build: " + p.stderr[-300:])
gpus = {g["slug"]: g for g in json.load(open(os.path.join(site, "api/v1/gpus.json")))["gpus"]}

for case in CASES:
    # the feed answers for any Python, as query does with --python any
    p = run("query", "--gpu", case["gpu"], "--platform", case["platform"], "--python", "any", "--json")
    # 0 native, 4 not natively, 1 nothing of the newest release runs
    ok(p.returncode in (0, 1, 4), "%s: query exit %d %s" % (case["gpu"], p.returncode, p.stderr))
    q = json.loads(p.stdout)
    ok(p.returncode == watest.query_exit(q),
       "%s: the exit status says what the answer says (%d)" % (case["gpu"], p.returncode))
    ans = q["fallback"] if case["fallback"] else q["recommendation"]
    ok(ans is not None, "%s: an answer" % case["gpu"])
    if not ans:
        continue
    for k in ("index", "pin", "verdict", "min_driver", "full_driver"):
        ok(ans.get(k) == case[k], "%s: query %s = %r, want %r" % (case["gpu"], k, ans.get(k), case[k]))
    ok(ans["status"] == "declared" and ans["confidence"], "%s: provenance %r/%r" % (case["gpu"], ans["status"], ans["confidence"]))
    ok(q["pypi"]["runs"] == case["pypi_runs"], "%s: pypi runs %r" % (case["gpu"], q["pypi"]["runs"]))
    if "newest_with_code" in case:
        # an official build has code: no source build is offered, and the
        # newest release with code is the one recommended
        ok(q["way_forward"] is None, "%s: no source build while 1.3.0 has code: %r" % (case["gpu"], q["way_forward"]))
        ok(q["newest_with_code"]["pin"] == case["newest_with_code"],
           "%s: newest with code %r" % (case["gpu"], q["newest_with_code"]))
    # the feed: the same decision
    g = gpus[case["slug"]]["recommendations"][case["platform"]]
    fa = g["fallback"] if case["fallback"] else g["recommendation"]
    for k in ("index", "pin", "verdict", "min_driver", "full_driver", "status", "confidence"):
        ok(fa.get(k) == ans.get(k), "%s: feed %s %r != query %r" % (case["gpu"], k, fa.get(k), ans.get(k)))
    ok(g["by_driver"] == [] or g["by_driver"][0]["index"] == q["by_driver"][0]["index"],
       "%s: feed driver table" % case["gpu"])
    # the page: the command, the provenance in words, the driver
    page = re.sub(r"<[^>]+>", "", html.unescape(open(os.path.join(site, "gpu", case["slug"], "index.html")).read()))
    ok(ans["commands"]["pip"] in page, "%s: page shows %s" % (case["gpu"], ans["commands"]["pip"]))
    ok("Source: declared (PyTorch's build configuration, %s confidence)" % ans["confidence"] in page,
       "%s: page names the provenance" % case["gpu"])
    if case["min_driver"]:
        ok("Needs NVIDIA driver %s or newer" % case["min_driver"] in page, "%s: page min driver" % case["gpu"])
    if case["full_driver"]:
        ok("%s or newer recommended" % case["full_driver"] in page, "%s: page full driver" % case["gpu"])

# Jetson Orin NX: the guidance everywhere, no download.pytorch.org command anywhere.
p = run("query", "--gpu", "Jetson Orin NX", "--platform", "windows-x86_64", "--json")
q = json.loads(p.stdout)
ok(q["recommendation"] is None and q["fallback"] is None and q["guidance"]["kind"] == "jetson",
   "Jetson: no recommendation, Jetson guidance (%r)" % q["guidance"])
page = open(os.path.join(site, "gpu/jetson-orin-nx/index.html")).read()
ok("download.pytorch.org/whl" not in page, "Jetson page recommends no download.pytorch.org wheel")
# the grids are the download.pytorch.org wheels', which do not apply on Jetson
ok('class="rgrid"' not in page and 'class="v v-' not in page.split("<footer")[0],
   "Jetson page shows no verdicts of platforms that do not apply")
ok("PyTorch for Jetson" in page, "Jetson page links NVIDIA's Jetson wheels")
for plat, r in gpus["jetson-orin-nx"]["recommendations"].items():
    ok(r["recommendation"] is None and r["fallback"] is None, "Jetson feed %s has no recommendation" % plat)

# Every Jetson, on every platform, in the feed and in `query`: NVIDIA's own
# builds are data/jetson_pytorch.csv's rows whose devices include the GPU's
# compute capability, in the file's order (newest JetPack first), read here
# from the file itself; Jetson Thor (SBSA, JetPack 7) and the TK1 have none,
# nor do the Tegra parts of DRIVE and IGX systems (DRIVE OS, IGX OS: kind
# "tegra", not "jetson").
with open(os.path.join(data, "jetson_pytorch.csv"), newline="") as f:
    jp_rows = list(csv.DictReader(f))
def jp_want(cc):
    return [(r["jetpack"], [v for v in r["torch"].split(";") if v], r["index_url"] or None) for r in jp_rows
            if cc in r["devices"].split(";")]
jetsons = [g for g in gpus.values() if g["tegra"]]
ok(len(jetsons) >= 10, "the GPU table has Jetsons (%d)" % len(jetsons))
with_builds = 0
for g in jetsons:
    jetpack = g["segment"] == "jetson" or g["name"].startswith("Tegra ")
    want = jp_want(g["compute_capability"]) if jetpack else []
    with_builds += bool(want)
    for plat, r in sorted(g["recommendations"].items()):
        gd = (r or {}).get("guidance") or {}
        got = [(b["jetpack"], b["torch"], b["index_url"]) for b in gd.get("jetson_builds", [])]
        ok(gd.get("kind") == ("jetson" if jetpack else "tegra") and got == want,
           "%s on %s: the feed's Jetson builds %r, want %r" % (g["name"], plat, got, want))
    q = json.loads(run("query", "--gpu", g["name"], "--platform", "linux-aarch64", "--json").stdout)
    got = [(b["jetpack"], b["torch"], b["index_url"]) for b in (q.get("guidance") or {}).get("jetson_builds", [])]
    ok(got == want, "%s: query's Jetson builds %r, want %r" % (g["name"], got, want))
ok(with_builds >= 8, "Jetsons with NVIDIA builds: %d" % with_builds)
p = run("query", "--gpu", "Jetson Orin NX", "--platform", "linux-aarch64")
ok("JetPack 6.1 and 6.2 (L4T R36.4, CUDA 12.6, Python 3.10)" in p.stdout and
   "pip install torch --index-url https://pypi.jetson-ai-lab.io/jp6/cu126" in p.stdout,
   "query's text names JetPack 6's build and its index: " + p.stdout[-600:])

# NVIDIA GH200 (9.0, like the H100) comes only in Grace (Arm) systems: x86_64 and Windows
# wheels do not apply; Linux aarch64's every 2.14 variant has sm_90, so the newest CUDA, cu132.
for plat in ("linux-x86_64", "windows-x86_64"):
    q = json.loads(run("query", "--gpu", "NVIDIA GH200", "--platform", plat, "--json").stdout)
    ok(q["recommendation"] is None and q["fallback"] is None and not q["applies"] and
       q["guidance"]["kind"] == "arm-host", "GH200 on %s: no recommendation, Arm guidance" % plat)
    r = gpus["nvidia-gh200"]["recommendations"][plat]
    ok(r["recommendation"] is None and not r["applies"], "GH200 feed %s: no recommendation" % plat)
q = json.loads(run("query", "--gpu", "NVIDIA GH200", "--platform", "linux-aarch64", "--json").stdout)
ok(q["recommendation"] and q["recommendation"]["index"] == "cu132", "GH200 on linux-aarch64: cu132")
page = open(os.path.join(site, "gpu/nvidia-gh200/index.html")).read()
ok("on Linux x86_64</h2>" not in page and "on Windows x86_64</h2>" not in page and
   "on Linux aarch64</h2>" in page, "GH200 page answers for Linux aarch64 only")
ok('id="grid-linux-x86_64"' not in page and 'id="grid-linux-aarch64"' in page,
   "GH200 page has a Linux aarch64 grid only")
# GH200's device file is its compute capability's: the same Linux aarch64 answer
dev = json.load(open(os.path.join(site, "api/v1/gpu/9.0.json")))
ok(dev["platforms"]["linux-aarch64"]["answer"] == gpus["nvidia-gh200"]["recommendations"]["linux-aarch64"],
   "api/v1/gpu/9.0.json has GH200's Linux aarch64 answer")
ok('href="../../device/9.0/"' in page and 'data-src="../../api/v1/gpu/9.0.json"' in page,
   "GH200 page links its compute capability's device page and file")
# the H100, same compute capability, keeps its x86_64 answer
ok(gpus["nvidia-h100"]["recommendations"]["linux-x86_64"]["recommendation"]["index"] == "cu132",
   "H100 on linux-x86_64 still answered")

# Dates: data-as-of set, no 1970 in the Atom feed.
meta = json.load(open(os.path.join(site, "api/v1/matrix.json")))["meta"]
ok(re.match(r"^\d{4}-\d{2}-\d{2}", meta["data-as-of"] or ""), "data-as-of %r" % meta["data-as-of"])
atom = open(os.path.join(site, "changes.atom")).read()
ok("1970-01-01" not in atom, "Atom dates")

# The data: newest CUDA release >= newest ROCm release (torch).
def ver(s): return tuple(int(x) for x in s.split("."))
rows = list(csv.DictReader(open(os.path.join(data, "pytorch_arch_lists.csv"))))
cuda = max(ver(r["release"]) for r in rows if r["project"] == "torch" and r["variant"].startswith("cu"))
rocm = max(ver(r["release"]) for r in rows if r["project"] == "torch" and r["variant"].startswith("rocm"))
ok(cuda >= rocm, "newest CUDA release %r older than newest ROCm release %r" % (cuda, rocm))
rel = {(r["project"], r["release"], r["platform"]): r for r in csv.DictReader(open(os.path.join(data, "pytorch_releases.csv")))}
for r in rows:
    ok(any(k[0] == r["project"] and ver(k[1])[:2] == ver(r["release"])[:2] and k[2] == r["platform"] for k in rel),
       "arch row %s %s %s has no release row" % (r["project"], r["release"], r["platform"]))

# Changes: "dropped" only where the data lists the variants of both releases.
ch = html.unescape(open(os.path.join(site, "changes/index.html")).read())
for sec in re.findall(r'<section aria-labelledby="[^"]*">(.*?)</section>', ch, re.S):
    m = re.search(r"<h2[^>]*>(\S+) (\S+) <span class=\"status\">against (\S+)</span>", sec)
    if not m:
        continue
    proj, new, old = m.groups()
    names = {"Linux x86_64": "linux-x86_64", "Linux aarch64": "linux-aarch64", "Windows x86_64": "windows-x86_64"}
    for var, pname in re.findall(r"<li><b>([^<]+)</b> \(([^)]+)\): dropped: this release", sec):
        pl = names[pname]
        newr = [v for k, v in rel.items() if k[0] == proj and k[2] == pl and ver(k[1])[:2] == ver(new)]
        oldr = [v for k, v in rel.items() if k[0] == proj and k[2] == pl and ver(k[1])[:2] == ver(old)]
        ok(newr and oldr and "?" not in newr[-1]["variants"] and var not in newr[-1]["variants"].split(";")
           and var in ";".join(o["variants"] for o in oldr).split(";"),
           "changes: %s %s %s dropped without coverage" % (proj, new, var))

print("%d failures" % len(fails))
sys.exit(1 if fails else 0)
