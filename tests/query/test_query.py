"""wheelarch query: the field acceptance cases with only the shipped data (no
network, empty database), the forgiving GPU names, the JSON interface, and
verified records beating declared rows, with their differences listed."""
import csv
import json
import re
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402
import pyindex  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
empty = os.path.join(W, "empty-cache")


# The exit statuses of an answer (watest.query_exit).
ANSWERED = (0, 1, 4)


def query(*argv, cache=empty, expect=ANSWERED):
    # the answers here do not depend on the machine's python3 unless a test
    # asks for a Python (crawled rows are judged by their wheels' tags)
    if "--python" not in argv:
        argv = argv + ("--python", "any")
    p = subprocess.run([args.wheelarch, "query", "--json", "--cache", cache] + list(argv),
                       capture_output=True, text=True, timeout=60)
    want = expect if isinstance(expect, tuple) else (expect,)
    c.ok(p.returncode in want, "query %s: exit %d, want %s: %s" % (" ".join(argv), p.returncode, want, p.stderr))
    o = json.loads(p.stdout) if p.returncode in ANSWERED and p.stdout.strip() else None
    if o is not None and "recommendation" in o:
        c.eq(p.returncode, watest.query_exit(o), "query %s: the exit status says what the answer says" % " ".join(argv))
    return o, p


def verdicts(o):
    return {v["variant"]: v["verdict"] for v in o["variants"]}


# ---- the exit status, over a spread of GPUs, drivers and platforms ---------
# query() holds each answer's exit status to its recommendation; here every
# status must also occur.
seen = set()
for gpu in ("GTX 1080 Ti", "RTX 5090", "Tesla K40c", "Jetson AGX Orin", "RX 7900 XTX", "GTX 750 Ti"):
    for drv in (None, "470.256.02", "580.65.06"):
        for plat in ("linux-x86_64", "windows-x86_64", "linux-aarch64"):
            if drv and gpu == "RX 7900 XTX":
                continue
            argv = ("--gpu", gpu, "--platform", plat) + (("--driver", drv) if drv else ())
            o, p = query(*argv, expect=(0, 1, 2, 4))
            seen.add(p.returncode)
# torch 1.5 had SASS up to 7.5 and compute_50 PTX: an 8.6 GPU compiles it
o, p = query("--gpu", "RTX 3090", "--version", "1.5", "--platform", "linux-x86_64", expect=4)
seen.add(p.returncode)
c.eq(sorted(seen), [0, 1, 2, 4], "exit statuses seen: native 0, not natively 4, nothing runs 1, "
     "AMD on Linux aarch64 refused 2")

# ---- a driver branch alone ("580") is any driver of it ----------------------
# Every branch of data/driver_branch_max_cuda.csv supports that CUDA, read
# as a bare number exactly as with the branch's newest full version.
with open(os.path.join(HERE, "..", "..", "data", "driver_branch_max_cuda.csv"), newline="") as f:
    branches = [(r["driver_branch"], r["max_cuda_version_native"]) for r in csv.DictReader(f)]
checked = 0
for branch, cuda in branches:
    if int(branch) < 450 or "no public toolkit" in cuda:
        continue  # before the shipped toolkit table; 565 had no toolkit
    o, p = query("--gpu", "RTX 3090", "--driver", branch, "--platform", "linux-x86_64")
    if o:
        c.eq(o["driver"]["cuda"], cuda, "--driver %s: up to CUDA %s" % (branch, cuda))
        c.ok("read as any %s driver" % branch in p.stderr, "--driver %s says how it is read" % branch)
        checked += 1
c.ok(checked >= 20, "driver branches checked: %d" % checked)
o580, _ = query("--gpu", "RTX 4090", "--driver", "580", "--platform", "linux-x86_64")
ofull, _ = query("--gpu", "RTX 4090", "--driver", "580.95.05", "--platform", "linux-x86_64")
if o580 and ofull:
    c.eq(o580["recommendation"]["index"], ofull["recommendation"]["index"],
         "--driver 580 answers as an R580 driver does (580.95.05)")

# ---- acceptance, from the field -------------------------------------------
o, _ = query("--gpu", "GTX 1080 Ti", "--driver", "570.86.15", "--version", "2.8", "--platform", "linux-x86_64")
if o:
    c.eq(o["recommendation"]["index"], "cu126", "1080 Ti + 570 + torch 2.8 -> cu126")
    c.eq(verdicts(o).get("cu128"), "unsupported", "cu128 lacks sm_61")
    c.eq(verdicts(o).get("cu129"), "unsupported", "cu129 lacks sm_61")
    c.eq(o["recommendation"]["commands"]["pip"],
         'pip install "torch==2.8.*" --index-url https://download.pytorch.org/whl/cu126', "pip command")
    c.eq(o["recommendation"]["commands"]["uv"],
         'uv pip install "torch==2.8.*" --torch-backend cu126', "uv command: uv\'s own form")
    c.eq(o["recommendation"]["commands"]["uv_min_version"], "0.6.9", "which uv its form needs")
    c.eq(o["recommendation"]["commands"]["argv"]["pip"],
         [["pip", "install", "torch==2.8.*", "--index-url", "https://download.pytorch.org/whl/cu126"]],
         "the feed keeps the argv")
    c.eq(o["gpu"]["compute_capability"], "6.1", "compute capability")
    c.eq(o["driver"]["cuda"], "12.8", "driver 570 supports CUDA 12.8")
o, _ = query("--gpu", "rtx 5090", "--driver", "575.51.03", "--version", "2.8", "--platform", "linux-x86_64")
if o:
    c.ok(o["recommendation"]["index"] in ("cu128", "cu129"), "5090 + 575 -> cu128 or cu129")
    c.eq(verdicts(o).get("cu126"), "unsupported", "never cu126 for 12.0")
o, _ = query("--gpu", "H100", "--driver", "535.104.05", "--platform", "linux-x86_64")
if o:
    rec = o["recommendation"]
    c.ok(rec is not None, "H100 + 535 gets a recommendation")
    v = [x for x in o["variants"] if x["variant"] == rec["index"]][0]
    major = int(v["cuda"].split(".")[0])
    c.eq(major, 12, "H100 + 535: a CUDA 12 variant (minor-version compatibility, floor 525.60.13)")
    c.ok(all(x["verdict"] == "driver-too-old" for x in o["variants"] if x["cuda"] and x["cuda"].startswith("13")),
         "CUDA 13 variants need a newer driver")
# torch 2.8's Windows cu128 kept sm_61 (dropped on main by pytorch#164470 in
# October 2025, after 2.8; seen in a published 2.8.0+cu128 Windows list), its
# Linux cu128 did not: the newest CUDA with native code differs.
for plat, want in (("linux-x86_64", "cu126"), ("windows-x86_64", "cu128")):
    o, _ = query("--gpu", "1080ti", "--driver", "570.86.15", "--version", "2.8", "--platform", plat)
    if o:
        c.eq(o["recommendation"]["index"], want, "1080 Ti on " + plat)

# ---- names, options, errors ------------------------------------------------
for name in ("nvidia geforce gtx 1080 ti", "GTX1080Ti", "1080 TI"):
    o, _ = query("--gpu", name, "--version", "2.8")
    c.ok(o and o["gpu"]["name"] == "GeForce GTX 1080 Ti", "forgiving name %r" % name)
o, p = query("--gpu", "titan", expect=2)
c.ok("TITAN" in p.stderr or "Titan" in p.stderr, "ambiguous name lists candidates: " + p.stderr[:200])
o, p = query("--gpu", "voodoo 5", expect=2)
o, p = query("--cc", "6.1", "--gpu", "x", expect=2)
o, p = query("--cc", "sixone", expect=2)
o, p = query("--cc", "6.1", "--version", "0.0", expect=2)
c.ok("no torch 0.0" in p.stderr, "unknown release named: " + p.stderr)
o, p = query("--cc", "6.1", "--project", "nosuch", expect=2)
# a driver version is numbers joined by dots, nothing before or after
for bad in ("580.82.07a", "580..82", "580.", "v580.82.07", "580.82.07 ", "1.2.3.4.5", "99.1"):
    o, p = query("--cc", "8.6", "--driver", bad, expect=2)
    c.ok("is not a driver version" in p.stderr.splitlines()[0],
         "--driver %r refused, the first line says why: %s" % (bad, p.stderr))
o, p = query("--cc", "8.6", "--driver", "580\x1b[31m", expect=2)
c.ok("\x1b" not in p.stderr, "a control character in --driver is escaped in the message: %r" % p.stderr)
o, _ = query("--cc", "8.6", "--driver", "580", "--platform", "linux-x86_64")
c.ok(o is not None, "a driver given as its major version alone is taken")
o, _ = query("--cc", "8.6")
c.ok(o and o["version"] and o["recommendation"], "default version is the newest release")
o, _ = query("--gpu", "Tesla K80", "--driver", "470.82.01", "--platform", "linux-x86_64")
if o:
    c.eq(o["gpu"]["compute_capability"], "3.7", "K80 is 3.7")
    c.eq(o["recommendation"], None, "Kepler 3.7: nothing in the newest release")
    # data/pytorch_arch_lists.csv: cu118 builds keep sm_37 up to 2.7
    c.ok(o["fallback"] and o["fallback"]["version"] == "2.7" and o["fallback"]["index"] == "cu118",
         "names the newest release that works: %s" % o["fallback"])
p = subprocess.run([args.wheelarch, "query", "--gpu", "1080 ti", "--version", "2.8", "--driver", "570.86.15",
                    "--platform", "linux-x86_64", "--cache", empty], capture_output=True, text=True)
c.ok("recommended: cu126" in p.stdout and 'pip install "torch==2.8.*" --index-url https://download.pytorch.org/whl/cu126' in p.stdout,
     "text output: " + p.stdout)

# ---- verified records beat declared rows -----------------------------------
root = os.path.join(W, "host")
os.makedirs(os.path.join(root, "whl", "cu128", "torch"))
name = "torch-2.8.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl"
sha = pyindex.build_wheel(os.path.join(root, "whl", "cu128", name), "torch",
                          [("torch/lib/libtorch_cuda.so", "libk_default.so"),
                           ("torch/lib/libcublasLt.so.12", "libk_fam.so")], data_mb=0)
srv = watest.Server("index", root, W)
url = srv.url
with open(os.path.join(root, "whl", "cu128", "torch", "index.html"), "w") as f:
    f.write(pyindex.page_html("torch", [("/whl/cu128/%s#sha256=%s" % (name.replace("+", "%2B"), sha), name, {})]))
cache = os.path.join(W, "cache")
p = subprocess.run([args.wheelarch, "crawl", "--quiet", "--index", url + "/whl/cu128/", "--project", "torch",
                    "--cache", cache], capture_output=True, text=True, timeout=120)
srv.stop()
c.eq(p.returncode, 0, "crawl for the query test: " + p.stderr)
o, _ = query("--gpu", "1080 ti", "--version", "2.8", "--platform", "linux-x86_64", cache=cache)
if o:
    v = {x["variant"]: x for x in o["variants"]}
    c.eq(v["cu128"]["status"], "verified", "verified row replaces the declared one")
    c.eq(v["cu128"]["version"], "2.8.0", "full version from the wheel")
    c.eq(v["cu126"]["status"], "declared", "other variants stay declared")
    c.eq(v["cu128"]["verdict"], "unsupported", "verified cu128: nothing for 6.1")
    c.ok(v["cu128"]["index_url"].startswith(url), "index URL from the record")
    diffs = " | ".join(v["cu128"]["differences"])
    c.ok("sm_90a (in 1 of 1 modules) is not in the declared list" in diffs, "extra target listed: " + diffs)
    c.ok("declared sm_70 is not in the binaries" in diffs, "missing declared target listed")
    c.ok("compute_120" in diffs, "undeclared PTX listed")
    c.ok("sm_121a" not in diffs, "bundled cuBLASLt not counted as torch's code")
o, _ = query("--gpu", "RTX 4090", "--version", "2.8.0", "--platform", "linux-x86_64", cache=cache)
if o:
    c.ok(o["recommendation"]["commands"]["pip"].startswith('pip install "torch==2.8.0" --index-url '),
         "exact version in the command: " + o["recommendation"]["commands"]["pip"])
# A crawled row's Python comes from its wheels' tags (their file names,
# read with the builds), as the site and doctor judge it: the crawl read
# only a cp312 wheel of 2.8.0 cu128, so Python 3.11 has none there, though
# 2.8's declared Pythons include it (docs/answers.md)
o, _ = query("--gpu", "RTX 4090", "--version", "2.8.0", "--python", "3.11", "--platform", "linux-x86_64",
             cache=cache)
if o:
    v = {x["variant"]: x for x in o["variants"]}
    c.eq(v["cu128"]["python_wheel"], False, "query: the crawled row of 2.8.0 judged by its wheels' tags")
p = subprocess.run([args.wheelarch, "query", "--differences", "--cache", cache], capture_output=True, text=True)
c.ok(p.returncode == 0 and "torch 2.8.0 cu128 linux-x86_64 [verified]" in p.stdout, "--differences lists rows: " + p.stdout)

# ---- AMD GPUs: ROCm rows only, exact processors or generic targets -------------
SITEDB = watest.site_db(args)  # scanned torch 2.9.0 rocm6.3 (generic) and rocm6.4
o, _ = query("--gpu", "RX 7900 XTX", "--version", "2.9.0", "--platform", "linux-x86_64", cache=SITEDB)
if o:
    c.eq((o["gpu"]["vendor"], o["gpu"]["gfx"], o["gpu"]["device"], o["gpu"]["compute_capability"]),
         ("amd", "gfx1100", "gfx1100", None), "RX 7900 XTX: an AMD gfx1100")
    v = verdicts(o)
    c.ok(all(k.startswith("rocm") for k in v), "an AMD GPU is judged against ROCm variants only: %s" % sorted(v))
    c.eq((v.get("rocm6.3"), v.get("rocm6.4")), ("native", "native"), "gfx1100: gfx11-generic and exact code both run")
    c.eq(o["recommendation"]["index"], "rocm6.4", "the newest ROCm that runs is recommended")
    c.ok(o["recommendation"]["commands"]["pip"].endswith("/whl/rocm6.4"), "pip command for rocm6.4")
o, _ = query("--gpu", "gfx1101", "--version", "2.9.0", "--platform", "linux-x86_64", cache=SITEDB)
if o:
    v = verdicts(o)
    c.eq((v.get("rocm6.3"), v.get("rocm6.4")), ("native", "unsupported"),
         "gfx1101 (by processor): only the generic build runs, gfx1100 code does not")
    c.eq(o["recommendation"]["index"], "rocm6.3", "gfx1101: rocm6.3 recommended")
o, _ = query("--gpu", "MI250X", "--version", "2.9.0", "--platform", "linux-x86_64", cache=SITEDB)
if o:
    c.eq(verdicts(o).get("rocm6.4"), "native", "MI250X (gfx90a, xnack off by default) runs gfx90a:xnack- code")
o, _ = query("--gpu", "RX 6700 XT", "--version", "2.8", "--platform", "linux-x86_64")
if o:
    c.eq(o["recommendation"], None, "RX 6700 XT (gfx1031): no declared 2.8 ROCm build has its code")
    reasons = " ".join(x["reason"] for x in o["variants"])
    c.ok("HSA_OVERRIDE_GFX_VERSION=10.3.0" in reasons, "the override is mentioned, not counted: " + reasons)
o, p = query("--gpu", "RX 7900 XTX", "--platform", "linux-aarch64", expect=2)
c.ok("no torch ROCm wheels for linux-aarch64" in p.stderr and "windows-x86_64 (AMD's own index)" in p.stderr,
     "no ROCm wheels for Linux aarch64, said so, with where ROCm builds are: " + p.stderr.strip())
# ---- AMD's whl-next: the GPU's code by an install extra --------------------------
# PyTorch has no ROCm build for Windows: AMD's own index is the answer, with
# the extra that brings the GPU's code and the exact labelled version (PEP 440
# puts 2.13.0+rocm7.14.0 above 2.13.0+rocm10.0.0, so 2.13.* could take the
# wrong one).
o, p = query("--gpu", "RX 9070 XT", "--platform", "windows-x86_64", "--python", "3.12")
if o:
    r = o["recommendation"] or {}
    c.eq((r.get("index"), r.get("extra"), (r.get("vendor") or {}).get("name")),
         ("rocm10.0.0", "device-gfx1201", "AMD"), "RX 9070 XT on Windows: AMD's whl-next, extra device-gfx1201")
    c.eq(r.get("commands", {}).get("pip"),
         'pip install "torch[device-gfx1201]==2.13.0+rocm10.0.0" --index-url https://stable.repo.amd.com/rocm/whl-next',
         "the command names the extra and the exact version")
# On Linux PyTorch's own build goes first where it has the GPU's code, and
# AMD's is listed beside it; where PyTorch's has none (gfx1031), AMD's runs.
o, p = query("--gpu", "RX 7900 XTX", "--version", "2.13", "--platform", "linux-x86_64", "--python", "3.12")
if o:
    c.eq((o["recommendation"] or {}).get("index"), "rocm7.2", "RX 7900 XTX on Linux, 2.13: PyTorch's rocm7.2 first")
    c.eq(verdicts(o).get("rocm10.0.0"), "native", "and AMD's rocm10.0.0 listed beside it")
    c.eq((o["recommendation"] or {}).get("extra"), None, "no extra on PyTorch's index")
o, p = query("--gpu", "RX 6750 XT", "--version", "2.13", "--platform", "linux-x86_64", "--python", "3.12")
if o:
    r = o["recommendation"] or {}
    c.eq((r.get("index"), r.get("extra")), ("rocm10.0.0", "device-gfx1031"),
         "RX 6750 XT (gfx1031), which PyTorch's builds lack: AMD's build with device-gfx1031")
o, p = query("--gpu", "RX 7900 XTX", "--gpu", "RX 9070 XT", "--platform", "windows-x86_64", "--python", "3.12")
if o:
    c.ok('"torch[device-gfx1100,device-gfx1201]==2.13.0+rocm10.0.0"' in (o["recommendation"] or {}).get("commands", {}).get("pip", ""),
         "two AMD GPUs: both extras in one requirement: %s" % (o["recommendation"] or {}).get("commands"))
o, _ = query("--gpu", "1080 Ti", "--version", "2.9.0", "--platform", "linux-x86_64", cache=SITEDB)
if o:
    c.ok(not any(k.startswith("rocm") for k in verdicts(o)), "an NVIDIA GPU is never judged against ROCm rows")
# ---- nightlies answer only when asked for ---------------------------------------
# A nightly of a release newer than any other (2.15.0.dev) is in the
# database: the default answer stays the newest release; --version 2.15
# answers with the nightly, pinned exactly (pip takes a pre-release pinned
# with == without --pre).
nightly_db = os.path.join(W, "nightly-db")
ver = "2.15.0.dev20261120"
rec = watest.clone_record(watest.record(SITEDB, "dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7"),
                          "torch-%s+cu130-cp312-cp312-manylinux_2_28_x86_64.whl" % ver, "nightly/cu130")
p = watest.db_with_records(args, SITEDB, nightly_db, [rec])
c.eq(p.returncode, 0, "import of a nightly (%s)" % p.stderr.strip())
o, _ = query("--gpu", "RTX 4090", "--platform", "linux-x86_64", cache=nightly_db)
if o:
    c.ok(".dev" not in o["version"] and ".dev" not in o["recommendation"]["version"] and
         "nightly" not in o["recommendation"]["commands"]["pip"],
         "by default the newest release is answered, not a nightly: %s %s" % (o["version"], o["recommendation"]))
    c.ok(not any(".dev" in json.dumps(x) for x in o["by_driver"] + o["last_native"]),
         "the driver table and the newest release per variant name no nightly")
o, _ = query("--gpu", "RTX 4090", "--platform", "linux-x86_64", "--version", "2.15", cache=nightly_db)
if o:
    c.eq(o["recommendation"]["version"], ver, "--version 2.15: the nightly, asked for")
    c.ok(o["recommendation"]["commands"]["pip"].endswith("torch==%s\" --index-url "
                                                         "https://download.pytorch.org/whl/nightly/cu130" % ver),
         "pinned exactly, from its nightly index: " + o["recommendation"]["commands"]["pip"])
# ---- the stack: companions checked against torch --------------------------------
# xformers 0.0.33 from download.pytorch.org with the GPU code of two fixture
# wheels: cu126 (sm_75 ... sm_120) and cu128 (sm_100 and newer only).


def companion(src, folder, requires=None):
    fn = "xformers-0.0.33+%s-cp312-cp312-manylinux_2_28_x86_64.whl" % folder
    r = watest.clone_record(watest.record(SITEDB, src), fn, folder)
    r["wheel"].update(project="xformers", normalized_name="xformers")
    if requires is not None:
        r["requires_dist"] = requires
    return r


CU126 = "5bfab464df510417e090120aa3077e848465b23412f6646c6bbb6d91d1712285"
CU128 = "c12c85a51b9ab33ca3ec535b9122bd92364f25535ede1c09d391df231e8c0cec"


def stack(cache, cc):
    p = subprocess.run([args.wheelarch, "query", "--stack", "--json", "--cc", cc, "--platform", "linux-x86_64",
                        "--python", "3.12", "--cache", cache], capture_output=True, text=True, timeout=60)
    c.eq(p.returncode, 0, "query --stack --cc %s: %s" % (cc, p.stderr.strip()))
    return {x["project"]: x for x in json.loads(p.stdout)["stack"]} if p.returncode == 0 else {}


stack_db = os.path.join(W, "stack-db")
p = watest.db_with_records(args, SITEDB, stack_db, [companion(CU126, "cu126"), companion(CU128, "cu128")])
c.eq(p.returncode, 0, "import of the companion's wheels: " + p.stderr.strip())
s = stack(stack_db, "8.9")
x = s.get("xformers", {})
c.eq(list(s)[:1], ["torch"], "torch first")
c.eq(x.get("version"), "0.0.33", "a 0.0.x project's release is its patch: 0.0.33, not 0.0")
c.eq((x.get("recommendation") or {}).get("index"), "cu126", "8.9: xformers runs natively from cu126 only")
torch_ix = (s.get("torch", {}).get("recommendation") or {}).get("index")
c.ok(torch_ix and torch_ix != "cu126", "torch's own best variant is another: %s" % torch_ix)
t = x.get("together") or {}
c.eq(t.get("index"), "cu126", "together: the variant in which both run natively")
c.eq(t.get("commands", {}).get("pip"),
     'pip install "torch==%s.*" "xformers==0.0.33" --index-url https://download.pytorch.org/whl/cu126'
     % s["torch"]["version"], "one command installs both from it")
c.ok("do not work together" in x.get("stack_note", "") and "cu126" in x["stack_note"],
     "the note says why: " + x.get("stack_note", ""))
s = stack(stack_db, "10.0")
x = s.get("xformers", {})
c.eq((x.get("recommendation") or {}).get("index"), "cu128", "10.0: xformers' best is cu128")
c.ok("together" not in x and "no variant of both" in x.get("stack_note", ""),
     "no variant suits both: said so, no command: " + x.get("stack_note", ""))
c.ok("stack_note" not in s.get("torchvision", {}), "torchvision's best variant is torch's: no note")

# The companion pins torch 2.9.0 (Requires-Dist): it is judged with that
# torch, not with the newest.
pinned_db = os.path.join(W, "stack-pinned-db")
p = watest.db_with_records(args, SITEDB, pinned_db, [companion(CU126, "cu126", ["torch==2.9.0"]),
                                                      companion(CU128, "cu128", ["torch==2.9.0"])])
c.eq(p.returncode, 0, "import of pinned companions: " + p.stderr.strip())
s = stack(pinned_db, "8.9")
x = s.get("xformers", {})
t = x.get("together") or {}
c.eq(t.get("versions", {}).get("torch"), "2.9.0", "together: the torch it requires")
c.ok("requires torch 2.9.0" in x.get("stack_note", ""), "the note names the pin: " + x.get("stack_note", ""))
c.ok(t.get("commands", {}).get("pip", "").startswith('pip install "torch==2.9.0" "xformers==0.0.33" --index-url '),
     "the command pins that torch: " + t.get("commands", {}).get("pip", ""))

# ---- a later patch that dropped the GPU: the release's other patch is the answer
o, _ = query("--gpu", "Tesla K40c", "--version", "1.3", "--python", "3.7", "--platform", "linux-x86_64")
if o:
    fb = o.get("fallback") or {}
    c.eq((fb.get("pin"), fb.get("index")), ("1.3.0", "cu101"),
         "K40c, torch 1.3: 1.3.1 dropped sm_35, 1.3.0 (cu101) has it (not torch 1.2)")
    c.ok("another patch of it" in fb.get("reason", ""), "and it says so: " + fb.get("reason", ""))

# ---- several GPUs: judged with the driver and the Python, never "none" where a change helps
o, _ = query("--gpu", "RTX 5090", "--gpu", "GTX 1080 Ti", "--driver", "535.54.03", "--version", "2.8",
             "--python", "3.12", "--platform", "linux-x86_64")
if o:
    c.eq((o["schema_version"], o["driver"]["version"], o["python"]["version"]), (2, "535.54.03", "3.12"),
         "the machine's answer says its schema, driver and Python")
    c.eq(o["recommendation"], None, "5090 + 1080 Ti with driver 535: no torch 2.8 variant runs on both")
    c.ok("RTX 5090 (12.0): none with this driver (torch 2.8 needs 570" in o["reason"],
         "the driver-limited GPU is said to be limited by the driver: " + o["reason"])
    kinds = [(x["gpu"], x["kind"]) for x in o["change"]]
    c.ok(("GeForce RTX 5090 (12.0)", "driver") in kinds, "what to change names the GPU and a driver update: %s" % kinds)
    c.ok(all(x["kind"] != "source" for x in o["change"]), "never a source build where a driver update helps")
o, _ = query("--gpu", "RTX 4090", "--gpu", "RTX 3090", "--driver", "580.65.06", "--version", "2.8",
             "--python", "3.7", "--platform", "linux-x86_64")
if o:
    c.eq(o["recommendation"], None, "Python 3.7: no torch 2.8 wheel")
    fb = o.get("fallback") or {}
    c.eq((fb.get("release"), fb.get("index")), ("1.13", "cu117"),
         "the machine's fallback: the newest release with a variant that runs on both with Python 3.7")
    c.ok(all(v["python_wheel"] is not False or not v["runs"] for g in o["gpus"] for v in g["result"]["variants"]),
         "no row without a wheel for the Python is said to run")
p = subprocess.run([args.wheelarch, "query", "--cache", empty, "--gpu", "RTX 4090", "--gpu", "RTX 3090", "--driver",
                    "580.65.06", "--version", "2.8", "--python", "3.7", "--platform", "linux-x86_64"],
                   capture_output=True, text=True)
c.ok("GeForce RTX 4090 (8.9), GeForce RTX 3090 (8.6): use another Python" in p.stdout,
     "a step both GPUs share is said once, naming both: " + p.stdout)
c.ok('pip install "torch==1.13.*" --index-url https://download.pytorch.org/whl/cu117' in p.stdout,
     "the text prints the machine's fallback command")

p = subprocess.run([args.wheelarch, "query", "--cc", "gfx9999", "--cache", empty], capture_output=True, text=True)
c.ok(p.returncode == 2 and "unknown AMD processor 'gfx9999'" in p.stderr, "an unknown processor is a usage error: " + p.stderr.strip())

# ---- freshness: a release due and absent is said with the answer -----------
# A copy of the data with a made-up release 9.1 announced for 2026-01-01.
fdata = watest.data_copy(W, "data-fresh", {"pytorch_release_schedule.csv": watest.SCHEDULE_9_1})


def fresh_query(today, *argv):
    env = dict(os.environ, WHEELARCH_DATA_DIR=fdata, WHEELARCH_TODAY=today)
    env.pop("SOURCE_DATE_EPOCH", None)
    t = subprocess.run([args.wheelarch, "query", "--cache", empty, "--python", "any", "--gpu", "RTX 3090"] + list(argv),
                       capture_output=True, text=True, timeout=60, env=env)
    j = subprocess.run([args.wheelarch, "query", "--json", "--cache", empty, "--python", "any", "--gpu", "RTX 3090"] + list(argv),
                       capture_output=True, text=True, timeout=60, env=env)
    return t.stdout, json.loads(j.stdout) if j.returncode == 0 else {}


NOTE = "note: torch 9.1 was announced for 2026-01-01 and this data does not include it yet"
out, j = fresh_query("2025-12-31")
c.ok(NOTE not in out and j.get("overdue", "absent") is None, "no note before the day")
c.ok(re.fullmatch(r"\d+\.\d+\.\d+", j.get("data_through") or ""), "data_through names a version: %r" % j.get("data_through"))
out, j = fresh_query("2026-01-02")
c.ok(NOTE in out, "after the day the answer ends with the note: " + out[-300:])
c.ok((j.get("overdue") or {}).get("release") == "9.1" and j["overdue"].get("project") == "torch",
     "the JSON names it: %r" % j.get("overdue"))
out, j = fresh_query("2026-01-02", "--version", "2.8")
c.ok(NOTE not in out and j.get("overdue") is None, "an answer about a given release has no note")
out, j = fresh_query("2026-01-02", "--project", "torchvision")
c.ok(NOTE not in out, "a torchvision answer has no torch note")

# ---- the driver floor: one rule over both of NVIDIA's tables -----------------
# A variant's floor is the lower of its CUDA major's minor-version
# compatibility floor (Table 2) and its toolkit's own driver (Table 3):
# CUDA 11.0 shipped with 450.36.06 (450.80.02 is 11.1's and later's
# compatibility floor), 12.x builds load from 525.60.13, 13.x from R580.
# Each held at its boundary: one patch below loads none of that variant.
FLOORS = [
    # (GPU, release, platform, variant, floor, one below)
    ("NVIDIA A100-SXM4-40GB", "1.7", "linux-x86_64", "cu110", "450.36.06", "450.36.05"),
    ("NVIDIA A100-SXM4-40GB", "1.7", "windows-x86_64", "cu110", "451.22", "451.21"),
    ("GeForce GTX 1080 Ti", "2.14", "linux-x86_64", "cu126", "525.60.13", "525.60.12"),
    ("NVIDIA H100", "2.14", "linux-x86_64", "cu130", "580", "579.99.99"),
]
for gpu, rel, plat, variant, floor, below in FLOORS:
    base = ("--gpu", gpu, "--version", rel, "--platform", plat)
    o, p = query(*base)
    row = [v for v in o["variants"] if v["variant"] == variant] if o else []
    c.ok(row and row[0].get("min_driver") == floor, "%s %s %s: %s's floor is %s: %s" %
         (gpu, rel, plat, variant, floor, row[0].get("min_driver") if row else None))
    o, p = query(*base, "--driver", floor)
    at = {v["variant"]: v["verdict"] for v in o["variants"]} if o else {}
    c.ok(at.get(variant) in ("native", "ptx-jit"), "%s %s at driver %s: %s loads (%s)" % (gpu, rel, floor, variant, at.get(variant)))
    o, p = query(*base, "--driver", below)
    at = {v["variant"]: v["verdict"] for v in o["variants"]} if o else {}
    c.eq(at.get(variant), "driver-too-old", "%s %s at driver %s: %s does not load" % (gpu, rel, below, variant))
# the issue's own case: a native 1.7.1+cu110 for an A100 with the 11.0 driver
o, p = query("--gpu", "NVIDIA A100-SXM4-40GB", "--version", "1.7", "--python", "3.8", "--driver", "450.51.06",
             "--platform", "linux-x86_64")
c.ok(o and o["recommendation"] and o["recommendation"]["index"] == "cu110" and o["recommendation"]["pin"] == "1.7.1",
     "A100, torch 1.7, Python 3.8, driver 450.51.06: cu110 1.7.1 natively (%s)" % (o and o["recommendation"]))

# The reason names what decided: a CUDA 12.8 driver supports torch 2.9's
# cu128 in full, which has no code for 6.1, so cu126 is not "the newest
# CUDA this driver supports"; a 12.6 driver loads cu128 only through
# minor-version compatibility, and cu126 is the newest it supports.
for drv, want, wrong in (("570.86.15", "newer ones this driver supports have no native code", "the newest CUDA this driver supports"),
                         ("560.35.03", "the newest CUDA this driver supports", "newer ones this driver supports")):
    o, p = query("--gpu", "GTX 1080 Ti", "--version", "2.9", "--driver", drv, "--platform", "linux-x86_64")
    why = o["recommendation"]["reason"] if o and o["recommendation"] else ""
    c.ok(o and o["recommendation"]["index"] == "cu126" and want in why and wrong not in why,
         "GTX 1080 Ti, torch 2.9, driver %s: cu126, and why: %s" % (drv, why))

# ---- companions: pinned only where the data has a wheel of them ----------
# torchaudio had no Windows wheels before 0.6.0: the K40c's torch 1.3.1 on
# Windows pins torchvision only and says why torchaudio is left out; on
# Linux both are pinned.  torchaudio 2.7 has no CUDA wheel for Linux
# aarch64 in the release table: the GH200's torch 2.7 leaves it out.
for gpu, plat, ver, py, want_audio in (("Tesla K40c", "windows-x86_64", None, "3.7", None),
                                       ("Tesla K40c", "linux-x86_64", None, "3.7", True),
                                       ("GH200", "linux-aarch64", "2.7", "3.12", None),
                                       ("GH200", "linux-aarch64", "2.9", "3.12", True)):
    argv = ["--gpu", gpu, "--platform", plat, "--python", py] + (["--version", ver] if ver else [])
    o, p = query(*argv)
    ans = o and (o["recommendation"] or o["fallback"])
    k = (ans or {}).get("companions") or {}
    cmd = ((ans or {}).get("commands") or {}).get("pip_with_companions") or ""
    c.ok(bool(k.get("torchaudio")) == bool(want_audio), "%s on %s: torchaudio pin %r" % (gpu, plat, k.get("torchaudio")))
    if want_audio:
        c.ok("torchaudio==" in cmd and not k.get("omitted"), "%s on %s: in the command: %s" % (gpu, plat, cmd))
    else:
        c.ok("torchaudio" not in cmd and "torchaudio" in (k.get("omitted") or ""),
             "%s on %s: left out of the command, and said why: %r / %r" % (gpu, plat, cmd, k.get("omitted")))

# ---- plain pip's build in words: never "a none build" ----------------------
p = subprocess.run([args.wheelarch, "query", "--cache", empty, "--gpu", "GTX 1080 Ti", "--version", "1.6",
                    "--platform", "windows-x86_64", "--python", "any"], capture_output=True, text=True, timeout=60)
c.ok("none build" not in p.stdout and "cpu build" not in p.stdout and "plain `pip install torch` (PyPI" in p.stdout,
     "plain pip's line names no 'none build': %s" % [l for l in p.stdout.splitlines() if "plain" in l])
c.done()
