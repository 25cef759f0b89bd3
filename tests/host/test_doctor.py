"""wheelarch doctor against fake site-packages folders built from the nvcc
fixtures: a "torch" without code for the GPU (exit 1, with the fix), one
with PTX only (exit 4), one that runs (exit 0), one whose pinned cuDNN lacks
the GPU (partial, naming cuDNN), bundled NVIDIA libraries left out, files
outside the folder never read, and --python asking an interpreter for its
folders.  The GPU is given (--cc) or overridden (WHEELARCH_GPUS): expected
verdicts follow the rules (docs/compat.md)."""
import json
import os
import shutil
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args(lambda ap: ap.add_argument("--cuda-dir", required=True))
c = watest.Checker()
W = args.work
CUDA = os.path.join(HERE, "..", "fixtures", "cuda")
EMPTY = os.path.join(W, "empty-cache")  # fixes from the shipped declared lists


def dist(site, name, version, files, requires=()):
    """Installs a distribution: files = {path in the folder: fixture name}."""
    info = os.path.join(site, "%s-%s.dist-info" % (name.replace("-", "_"), version))
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version))
        for r in requires:
            f.write("Requires-Dist: %s\n" % r)
        f.write("\nA description that says Name: nothing\n")
    record = []
    for path, fixture in files.items():
        full = os.path.normpath(os.path.join(site, path))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        shutil.copyfile(os.path.join(CUDA, fixture), full)
        record.append('"%s",sha256=x,1' % path if "," in path else "%s,sha256=x,1" % path)
    record.append("%s/METADATA,," % os.path.basename(info))
    with open(os.path.join(info, "RECORD"), "w") as f:
        f.write("\n".join(record) + "\n")


def doctor(*argv, expect, env=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")}
    e.update(env or {})
    driver = [] if "--driver" in argv else ["--driver", "580.82.07"]  # CUDA 13.0
    p = subprocess.run([args.wheelarch, "doctor", "--json", "--cache", EMPTY, "--platform", "linux-x86_64"]
                       + driver + list(argv), capture_output=True, text=True, timeout=120, env=e)
    c.ok(p.returncode == expect, "doctor %s: exit %d, want %d: %s" % (" ".join(argv), p.returncode, expect,
                                                                     p.stderr.strip()))
    try:
        return json.loads(p.stdout), p
    except ValueError:
        return None, p


def by_name(o):
    return {d["name"]: d for d in o["distributions"]} if o else {}


# 12.0 (RTX 5090): libk_two.so has SASS sm_80 sm_86 sm_90a, no PTX: nothing for 12.0.
none = os.path.join(W, "none")
dist(none, "torch", "2.8.0+cu126", {"torch/lib/libtorch_cuda.so": "libk_two.so"})
dist(none, "numpy", "2.3.0", {"numpy/_core/_multiarray_umath.so": "nogpu.so"})
o, _ = doctor("--site-packages", none, "--cc", "12.0", expect=1)
t = by_name(o).get("torch", {})
c.eq((t.get("verdict"), t.get("variant"), t.get("gpu_files")), ("unsupported", "cu126", 1),
     "a torch without code for 12.0: no")
c.ok("numpy" not in by_name(o) and o and o["installed"] == 2, "numpy: installed, no GPU code, not judged")
c.eq(o and o["without_record"], [], "every RECORD read")

# A distribution whose RECORD is gone: its files are unknown, so it is named
# as not checked, neither judged nor counted as without GPU code.
norec = os.path.join(W, "norec")
dist(norec, "torch", "2.8.0+cu126", {"torch/lib/libtorch_cuda.so": "libk_two.so"})
dist(norec, "numpy", "2.3.0", {"numpy/_core/_multiarray_umath.so": "nogpu.so"})
os.remove(os.path.join(norec, "torch-2.8.0+cu126.dist-info", "RECORD"))
o, _ = doctor("--site-packages", norec, "--cc", "12.0", expect=0)
c.eq(o and [(x["name"], x["version"]) for x in o["without_record"]], [("torch", "2.8.0+cu126")],
     "torch without a RECORD: not checked, and said so")
c.eq(o and (o["without_gpu_code"], by_name(o)), (1, {}), "only numpy counts as without GPU code")
p = subprocess.run([args.wheelarch, "doctor", "--cache", EMPTY, "--platform", "linux-x86_64", "--driver",
                    "580.82.07", "--site-packages", norec, "--cc", "12.0"], capture_output=True, text=True,
                   timeout=120, env={k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")})
c.ok("not checked: torch 2.8.0+cu126 in %s has no readable RECORD" % norec in p.stdout,
     "the text report names it: " + p.stdout)
c.ok("everything checked runs natively; see above for what could not be checked" in p.stdout,
     "and does not claim that everything runs")
fix = t.get("fix") or {}
c.ok(fix.get("index") in ("cu128", "cu129", "cu130") and fix.get("verdict") == "native",
     "the fix: a variant of torch 2.8 with native code for 12.0 (%s)" % fix.get("index"))
c.eq(fix.get("commands", {}).get("pip", ""),
     'pip uninstall -y torch && pip install "torch==2.8.*" --index-url https://download.pytorch.org/whl/%s'
     % fix.get("index"), "the exact pip command, which replaces the installed build")
c.ok(fix.get("commands", {}).get("uv", "").startswith('uv pip install --reinstall-package torch "torch==2.8.*" --torch-backend '),
     "and uv's")

# PTX only: libk_debug.so has sm_80 and compute_80 (PTX ISA 9.0, nvcc 13):
# 12.0 JIT-compiles it with a CUDA 13 driver (580 here).
ptx = os.path.join(W, "ptx")
dist(ptx, "torch", "2.8.0+cu128", {"torch/lib/libtorch_cuda.so": "libk_debug.so"})
o, _ = doctor("--site-packages", ptx, "--cc", "12.0", expect=4)
t = by_name(o).get("torch", {})
c.eq(t.get("verdict"), "ptx-jit", "PTX only: runs through JIT, exit 4")
o, _ = doctor("--site-packages", ptx, "--cc", "12.0", "--driver", "575.51.03", expect=1)
v = (by_name(o).get("torch", {}).get("verdicts") or [{}])[0]
c.eq(v.get("verdict"), "driver-too-old", "the same PTX with a CUDA 12.9 driver: driver too old")
c.ok("PTX of ISA 9.0" in v.get("reason", "") and "580" in v.get("reason", ""),
     "it names the PTX ISA and the driver floor: " + v.get("reason", ""))

# Runs: libk_default.so has sm_120.
good = os.path.join(W, "good")
dist(good, "torch", "2.8.0+cu128", {"torch/lib/libtorch_cuda.so": "libk_default.so",
                                    # a bundled cuDNN without 12.0 code is not torch's own
                                    "torch/lib/libcudnn_ops.so.9": "libk_two.so",
                                    # outside the folder: never read
                                    "../../bin/evil.so": "libk_two.so"})
o, _ = doctor("--site-packages", good, "--cc", "12.0", expect=0)
t = by_name(o).get("torch", {})
c.eq((t.get("verdict"), t.get("fix"), t.get("gpu_files")), ("native", None, 2),
     "native on 12.0, no fix; the bundled library scanned but not counted, the outside file not read")
# The same build and machine in the index's variant-metadata terms: the
# distribution's own code as api/v1/variants/ lists a build (the bundled
# cuDNN left out), the machine's as `wheelarch variants` prints them, and
# the machine's select the build that runs on it.
scanned = json.loads(subprocess.run([args.wheelarch, "scan", "--json", os.path.join(CUDA, "libk_default.so")],
                                    capture_output=True, text=True).stdout)
want_sm = sorted(["%s_real" % x[3:] for x in scanned["sass"] if x[-1].isdigit()] +
                 ["%s_virtual" % x[8:] for x in scanned["ptx"] if x[-1].isdigit()])
c.eq(t.get("variant_properties"), {"nvidia": {"sm_arch": want_sm, "cuda_version_lower_bound": ["12.8"]}},
     "doctor gives the build's variant properties, as the index's metadata would")
vm = subprocess.run([args.wheelarch, "variants", "--json", "--cc", "12.0", "--driver", "580.82.07",
                     "--platform", "linux-x86_64"], capture_output=True, text=True)
c.eq(o.get("machine_variant_properties"), json.loads(vm.stdout) if vm.returncode == 0 else vm.stderr,
     "and the machine's, as wheelarch variants prints them")
c.eq(t.get("selected_by_machine"), True, "the machine's properties select the build that runs on it")
o, _ = doctor("--site-packages", good, "--cc", "7.0", expect=1)
t = by_name(o).get("torch", {})
c.eq((t.get("verdict"), t.get("selected_by_machine")), ("unsupported", False),
     "a 7.0 machine's properties do not select code for 7.5 and later")

# A folder inside site-packages that is a link to elsewhere: Python loads
# its files from there, so they are read wherever the link leads (the
# target holds code without 12.0: the verdict is "partial", exit 1).
linked = os.path.join(W, "linked")
elsewhere = os.path.join(W, "elsewhere")
dist(linked, "torch", "2.8.0+cu128", {"torch/lib/libtorch_cuda.so": "libk_default.so"})
os.makedirs(os.path.join(elsewhere, "lib"), exist_ok=True)
shutil.copyfile(os.path.join(CUDA, "libk_two.so"), os.path.join(elsewhere, "lib", "libtorch_extra.so"))
os.symlink(elsewhere, os.path.join(linked, "torch", "ext"))
with open(os.path.join(linked, "torch-2.8.0+cu128.dist-info", "RECORD"), "a") as f:
    f.write("torch/ext/lib/libtorch_extra.so,sha256=x,1\n")
o, _ = doctor("--site-packages", linked, "--cc", "12.0", expect=1)
t = by_name(o).get("torch", {})
c.eq((t.get("verdict"), t.get("gpu_files")), ("partial", 2), "a file behind a linked folder is read, as Python loads it")

# A view of links (Spack, Nix, a venv built with links): every library is a
# link to a store elsewhere; the verdict is the same as with copies.
for name, make in (("copies", shutil.copyfile), ("links", os.symlink)):
    site = os.path.join(W, "view-" + name)
    store = os.path.join(W, "store-" + name)
    dist(site, "torch", "2.8.0+cu126", {})
    os.makedirs(os.path.join(store, "lib"), exist_ok=True)
    os.makedirs(os.path.join(site, "torch", "lib"), exist_ok=True)
    shutil.copyfile(os.path.join(CUDA, "libk_two.so"), os.path.join(store, "lib", "libtorch_cuda.so"))
    make(os.path.join(store, "lib", "libtorch_cuda.so"), os.path.join(site, "torch", "lib", "libtorch_cuda.so"))
    with open(os.path.join(site, "torch-2.8.0+cu126.dist-info", "RECORD"), "a") as f:
        f.write("torch/lib/libtorch_cuda.so,sha256=x,1\n")
    o, p = doctor("--site-packages", site, "--cc", "12.0", expect=1)
    t = by_name(o).get("torch", {}) if o else {}
    c.eq((t.get("verdict"), t.get("gpu_files")), ("unsupported", 1),
         "a site-packages of %s: the library's code is judged (no sm_120 in it), exit 1" % name)

# A listed library that cannot be read: named, and never exit 0 ("could
# not check", exit 5); a dangling link likewise.
for name, spoil in (("unreadable", "chmod"), ("dangling", "link")):
    site = os.path.join(W, "cannot-" + name)
    dist(site, "torch", "2.8.0+cu128", {"torch/lib/libtorch_cuda.so": "libk_default.so"})
    lib = os.path.join(site, "torch", "lib", "libtorch_cuda.so")
    if spoil == "chmod":
        if os.geteuid() == 0:
            # root reads any file: a FIFO in its place stands in
            os.remove(lib)
            os.mkfifo(lib)
        else:
            os.chmod(lib, 0)
    else:
        os.remove(lib)
        os.symlink(os.path.join(W, "nowhere", "libtorch_cuda.so"), lib)
    o, p = doctor("--site-packages", site, "--cc", "12.0", expect=5)
    why = " ".join(x.get("why", "") for x in (o or {}).get("incomplete", []))
    c.ok("torch/lib/libtorch_cuda.so" in why and "could not be read" in why,
         "%s: the library is named as not checked: %r" % (name, why))
    p = subprocess.run([args.wheelarch, "doctor", "--site-packages", site, "--cc", "12.0"],
                       capture_output=True, text=True, timeout=60)
    c.ok(p.returncode == 5 and "torch/lib/libtorch_cuda.so" in p.stdout + p.stderr,
         "%s: the text names it, exit 5 (%d): %s" % (name, p.returncode, (p.stdout + p.stderr)[-300:]))

# The GPU library torch pins lacks 12.0: partial, and the reason names it.
pinned = os.path.join(W, "pinned")
dist(pinned, "torch", "2.8.0", {"torch/lib/libtorch_cuda.so": "libk_default.so"},
     requires=['nvidia-cudnn-cu12==9.10.2.21; platform_system == "Linux"', "filelock"])
dist(pinned, "nvidia-cudnn-cu12", "9.10.2.21", {"nvidia/cudnn/lib/libcudnn_engines.so.9": "libk_two.so"})
o, _ = doctor("--site-packages", pinned, "--cc", "12.0", expect=1)
d = by_name(o)
t = d.get("torch", {})
c.eq(t.get("verdict"), "partial", "torch runs, the cuDNN it pins does not: partial")
c.ok("cuDNN 9.10.2.21 has no code for 12.0" in (t.get("verdicts") or [{}])[0].get("reason", ""),
     "the reason names cuDNN: %s" % (t.get("verdicts") or [{}])[0].get("reason"))
c.eq(t.get("libraries"), ["cuDNN 9.10.2.21"], "the library judged with it")
c.eq(t.get("variant"), "cu128", "PyTorch's PyPI torch 2.8: the release's default variant")
c.ok("nvidia-cudnn-cu12" not in d, "the library is judged with torch, not alone")
o, _ = doctor("--site-packages", pinned, "--cc", "8.6", expect=0)
c.eq(by_name(o).get("torch", {}).get("verdict"), "native", "8.6: torch and cuDNN both have code")

# Several GPUs (WHEELARCH_GPUS): each judged; the worst decides the exit.
o, _ = doctor("--site-packages", good, expect=1, env={"WHEELARCH_GPUS": "12.0,6.1"})
t = by_name(o).get("torch", {})
c.eq([v["verdict"] for v in t.get("verdicts", [])], ["native", "unsupported"], "12.0 runs it, 6.1 does not")
c.eq(o and o.get("detected", {}).get("gpus", [{}])[0].get("via"), "WHEELARCH_GPUS", "the GPUs' source said")

# A GPU library pinned only by a distribution without GPU code is judged
# alone; a FIFO in place of METADATA is skipped, not read forever; a name
# that is not ASCII is made printable.
odd = os.path.join(W, "odd")
dist(odd, "nvidia-cudnn-cu12", "9.10.2.21", {"nvidia/cudnn/lib/libcudnn_engines.so.9": "libk_two.so"})
dist(odd, "meta", "1.0", {}, requires=["nvidia-cudnn-cu12==9.10.2.21"])
dist(odd, "fifo", "1.0", {"fifo/lib.so": "libk_two.so"})
os.remove(os.path.join(odd, "fifo-1.0.dist-info", "METADATA"))
os.mkfifo(os.path.join(odd, "fifo-1.0.dist-info", "METADATA"))
dist(odd, "plain", "1.0", {"plain/k.so": "libk_default.so"})
with open(os.path.join(odd, "plain-1.0.dist-info", "METADATA"), "wb") as f:
    f.write(b"Name: pl\xe9in\nVersion: 1.0\n\n")
o, _ = doctor("--site-packages", odd, "--cc", "12.0", expect=1)
d = by_name(o)
c.eq(d.get("nvidia-cudnn-cu12", {}).get("verdict"), "unsupported", "the library, pinned by no GPU code, judged alone")
c.ok("pl?in" in d and "fifo" not in d, "printable name; the FIFO skipped: %s" % sorted(d))

# --python: the interpreter names its folders.
py = os.path.join(W, "python")
with open(py, "w") as f:
    f.write("#!/bin/sh\necho '[\"%s\", \"%s\"]'\n" % (good, good))
os.chmod(py, os.stat(py).st_mode | stat.S_IXUSR)
o, _ = doctor("--python", py, "--cc", "12.0", expect=0)
c.eq(o and o["site_packages"], [good], "--python: its purelib and platlib, once")
_, p = doctor("--site-packages", os.path.join(W, "nowhere"), "--cc", "12.0", expect=2)
c.ok("no such site-packages folder" in p.stderr, "a missing folder: " + p.stderr.strip())
_, p = doctor("--python", os.path.join(W, "no-python"), "--cc", "12.0", expect=2)
c.ok("cannot ask it for its site-packages" in p.stderr, "a missing python: " + p.stderr.strip())

# Limits: each one hit is named ("incomplete") and the exit status is 5
# when nothing checked fails; nothing is dropped without a word.
# 1. A RECORD listing more files that can hold GPU code than are scanned:
#    the one that matters is listed last.
many = os.path.join(W, "many")
dist(many, "torch", "2.8.0+cu126", {"torch/lib/real.so": "libk_two.so"})
rec = os.path.join(many, "torch-2.8.0+cu126.dist-info", "RECORD")
with open(rec) as f:
    real = f.read()
with open(rec, "w") as f:
    for i in range(20000):
        f.write("torch/lib/missing_%d.so,sha256=x,1\n" % i)
    f.write(real)
o, p = doctor("--site-packages", many, "--cc", "12.0", expect=5)
inc = (o or {}).get("incomplete", [])
c.ok(len(inc) == 1 and inc[0]["name"] == "torch" and "more than 20000 files" in inc[0]["why"],
     "more files than are scanned: named (%s)" % inc)
p = subprocess.run([args.wheelarch, "doctor", "--cache", EMPTY, "--driver", "580.82.07",
                    "--platform", "linux-x86_64", "--site-packages", many, "--cc", "12.0"],
                   capture_output=True, text=True, timeout=120)
c.ok("not fully checked: torch 2.8.0+cu126" in p.stdout and "could be checked" in p.stdout
     and p.returncode == 5,
     "the text says what was not checked: %r" % p.stdout[-400:])
# 2. One file listed 100,000 times is scanned once.
dup = os.path.join(W, "dup")
dist(dup, "torch", "2.8.0+cu126", {"torch/lib/libtorch_cuda.so": "libk_default.so"})
rec = os.path.join(dup, "torch-2.8.0+cu126.dist-info", "RECORD")
with open(rec, "a") as f:
    f.write("torch/lib/libtorch_cuda.so,sha256=x,1\n" * 100000)
    for i in range(25000):  # other spellings of the same file
        f.write("torch/%slib/%slibtorch_cuda.so,sha256=x,1\n" % ("./" * (i % 7), "/" * (i // 7 % 5 + 1)))
o, _ = doctor("--site-packages", dup, "--cc", "12.0", expect=0)
c.eq((by_name(o).get("torch", {}).get("gpu_files"), (o or {}).get("incomplete")), (1, []),
     "a file listed 125,000 times, under many spellings: scanned once, no limit hit")
# 2b. A link listed before the file it leads to (libx.so -> libx.so.1), in
#     either order: the file is scanned once, and judged.
for order in ("link-first", "file-first"):
    lk = os.path.join(W, "link-" + order)
    dist(lk, "torch", "2.8.0+cu126", {"torch/lib/libx.so.1": "libk_two.so"})
    os.symlink("libx.so.1", os.path.join(lk, "torch", "lib", "libx.so"))
    rec = os.path.join(lk, "torch-2.8.0+cu126.dist-info", "RECORD")
    lines = open(rec).read().splitlines()
    link_line = "torch/lib/libx.so,,"
    lines = [link_line] + lines if order == "link-first" else lines[:1] + [link_line] + lines[1:]
    with open(rec, "w") as f:
        f.write("\n".join(lines) + "\n")
    o, _ = doctor("--site-packages", lk, "--cc", "12.0", expect=1)
    t = by_name(o).get("torch", {})
    c.eq((t.get("verdict"), t.get("gpu_files")), ("unsupported", 1),
         "%s: the library is judged once, whichever is listed first" % order)
# 3. A METADATA whose Name comes after the 1 MiB that is read.
bigmeta = os.path.join(W, "bigmeta")
dist(bigmeta, "torch", "2.8.0+cu126", {"torch/lib/libtorch_cuda.so": "libk_default.so"})
dist(bigmeta, "late", "1.0", {"late/k.so": "libk_two.so"})
with open(os.path.join(bigmeta, "late-1.0.dist-info", "METADATA"), "w") as f:
    f.write("Metadata-Version: 2.1\n" + "Classifier: x\n" * 100000 + "Name: late\nVersion: 1.0\n\n")
o, _ = doctor("--site-packages", bigmeta, "--cc", "12.0", expect=5)
inc = (o or {}).get("incomplete", [])
c.ok(len(inc) == 1 and inc[0]["name"] == "late-1.0.dist-info" and "larger than 1 MiB" in inc[0]["why"],
     "a METADATA over 1 MiB: named, not dropped (%s)" % inc)
# 3b. An interpreter that answers at once and leaves a child holding its
#     output: its answer is taken when it ends, not 30 s later.
quick = os.path.join(W, "quick-python")
with open(quick, "w") as f:
    f.write("#!/bin/sh\nsleep 601 &\necho '[\"%s\", \"%s\"]'\n" % (good, good))
os.chmod(quick, 0o755)
import time  # noqa: E402
t0 = time.time()
o, _ = doctor("--python", quick, "--cc", "12.0", expect=0)
c.ok(time.time() - t0 < 10, "an answer with a child left behind is taken at once (%.1f s)"
     % (time.time() - t0))
subprocess.run(["pkill", "-f", "sleep 601"], capture_output=True)
# 4. An interpreter that never answers is stopped, whether it keeps its
#    output open or closes it and sleeps on (both at once: 30 s each).
import time  # noqa: E402
hung = []
for name, body in (("hang", "sleep 600"), ("hang-closed", "exec 1>&-\nsleep 600")):
    path = os.path.join(W, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n%s\n" % body)
    os.chmod(path, 0o755)
    hung.append((name, subprocess.Popen([args.wheelarch, "doctor", "--python", path, "--cc", "12.0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
t0 = time.time()
for name, proc in hung:
    try:
        _, err = proc.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    c.ok(proc.returncode == 2 and "did not say where its site-packages are within 30 s" in err,
         "%s: a hung --python is stopped after 30 s (exit %s): %r" % (name, proc.returncode, err))
c.ok(time.time() - t0 < 60, "both stopped within a minute (%.0f s)" % (time.time() - t0))
# ---- --verify: the driver's own answer (a stand-in libcuda.so.1) -----------
# libk_debug.so: SASS sm_80 and PTX compute_80 in one module;
# libk_two.so: SASS sm_80 sm_86 sm_90a in two modules, no PTX.
vsite = os.path.join(W, "verify")
dist(vsite, "torch", "2.8.0+cu126", {"torch/lib/libtorch_cuda.so": "libk_debug.so",
                                    "torch/lib/libtorch_extra.so": "libk_two.so"})
fake = {"LD_LIBRARY_PATH": args.cuda_dir}


def verified(cc, expect, extra=None):
    env = dict(fake, FAKE_CUDA_CC=cc, **(extra or {}))
    o, p = doctor("--site-packages", vsite, "--cc", cc, "--verify", expect=expect, env=env)
    return o, (by_name(o).get("torch") or {}).get("verify") or {}


# 8.6: every module has SASS that runs: the driver loads all natively
o, v = verified("8.6", 0)
c.ok(o and o["verify"]["available"] and o["verify"]["compute_capability"] == "8.6",
     "the stand-in driver is found: %s" % (o or {}).get("verify"))
c.eq((v.get("modules"), v.get("checked"), v.get("native"), v.get("jit"), v.get("none"), v.get("disagreements")),
     (3, 3, 3, 0, 0, 0), "8.6: three modules, all native, as the rules say")
# 12.0: the sm_80 module has PTX (JIT, timed); libk_two's have nothing
o, v = verified("12.0", 1)
c.eq((v.get("native"), v.get("jit"), v.get("none"), v.get("disagreements")), (0, 1, 2, 0),
     "12.0: one module by JIT, two not at all, as the rules say: %s" % v)
c.ok(isinstance(v.get("jit_seconds"), float), "the JIT is timed")
c.eq(v.get("static"), {"native": 0, "jit": 1, "none": 2}, "the rules' verdict beside the driver's")
# a planted disagreement: a driver that refuses every cubin
o, v = verified("8.6", 6, {"FAKE_CUDA_NO_SASS": "1"})
c.eq((v.get("native"), v.get("jit"), v.get("none"), v.get("disagreements")), (0, 1, 2, 3),
     "a driver refusing SASS: every module disagrees: %s" % v)
c.ok("the rules say native, the driver loaded PTX JIT only" in (v.get("first_disagreement") or ""),
     "the first disagreement is named: %r" % v.get("first_disagreement"))
p = subprocess.run([args.wheelarch, "doctor", "--site-packages", vsite, "--cc", "8.6", "--driver", "580.82.07",
                    "--platform", "linux-x86_64", "--verify"], capture_output=True, text=True, timeout=60,
                   env=dict(os.environ, LD_LIBRARY_PATH=args.cuda_dir, FAKE_CUDA_CC="8.6", FAKE_CUDA_NO_SASS="1"))
c.ok(p.returncode == 6 and "DISAGREEMENT" in p.stdout and "trust the driver" in p.stdout,
     "the text says DISAGREEMENT, exit 6 (%d): %s" % (p.returncode, p.stdout[-400:]))
# a device name with control characters and bytes that are not UTF-8: the
# verify key stays in --json, and nothing raw reaches the terminal
raw_name = "\x1b[31mEvil\x07 GPU \xff\xfe"
env_raw = dict(os.environ, LD_LIBRARY_PATH=args.cuda_dir, FAKE_CUDA_CC="8.6")
env_raw = {k: v for k, v in env_raw.items() if not k.startswith("WHEELARCH_")}
env_raw_b = {k.encode(): v.encode() for k, v in env_raw.items()}
env_raw_b[b"FAKE_CUDA_NAME"] = b"\x1b[31mEvil\x07 GPU \xff\xfe"
pj = subprocess.run([args.wheelarch, "doctor", "--json", "--cache", EMPTY, "--site-packages", vsite, "--cc", "8.6",
                     "--driver", "580.82.07", "--platform", "linux-x86_64", "--verify"],
                    capture_output=True, timeout=60, env=env_raw_b)
oj = json.loads(pj.stdout) if pj.stdout.strip() else {}
dev = (oj.get("verify") or {}).get("device") or ""
c.ok(dev and all(0x20 <= ord(ch) < 0x7f for ch in dev) and "Evil" in dev,
     "a raw device name: kept as printable ASCII in --json (%r)" % dev)
pt = subprocess.run([args.wheelarch, "doctor", "--cache", EMPTY, "--site-packages", vsite, "--cc", "8.6",
                     "--driver", "580.82.07", "--platform", "linux-x86_64", "--verify"],
                    capture_output=True, timeout=60, env=env_raw_b)
c.ok(b"\x1b" not in pt.stdout and b"\x07" not in pt.stdout and b"\xff" not in pt.stdout,
     "and the text report shows none of its raw bytes")
# A driver that crashes, aborts, exits 0 or hangs, in cuInit or in a module
# load: the check fails (exit 1) with one line naming how and where, the
# report is whole (--json parses), and the text says FAILED; never exit 0.
t0 = time.time()
for what, where, words in (("crash", "init", ["signal 11", "cuInit"]),
                           ("crash", "load", ["signal 11", "loading the modules of torch/lib/", "(torch 2.8.0+cu126)"]),
                           ("abort", "load", ["signal 6"]),
                           ("exit0", "init", ["exit status 0", "before it finished", "cuInit"]),
                           ("exit0", "load", ["exit status 0", "loading the modules of"]),
                           ("hang", "load", ["no answer from the driver within 2 s", "stopped"]),
                           # a forged "done" in wheelarch's pipe, out of its order
                           ("forge", "load", ["wrote something that is not wheelarch's", "loading the modules of"]),
                           # a signal to its process group reaches only itself
                           ("termgroup", "load", ["signal 15"])):
    env = dict(fake, FAKE_CUDA_CC="8.6", FAKE_CUDA_FAULT="%s:%s" % (what, where))
    o, p = doctor("--site-packages", vsite, "--cc", "8.6", "--verify", "--verify-timeout", "2", expect=1, env=env)
    failed = ((o or {}).get("verify") or {}).get("failed") or ""
    accepted = [words]
    if watest.sanitized(args):
        # ASan turns the child's SIGSEGV into an abort, and LeakSanitizer
        # its exit(0) too when it finds memory no longer reachable (whether
        # it does depends on what the child holds then): the same failed check
        accepted.append([w for w in ("signal 6" if w in ("signal 11", "exit status 0") and
                                     (what == "crash" or where == "load") else w for w in words)
                         if w != "before it finished" or where == "init"])
    c.ok(any(all(w in failed for w in ws) for ws in accepted),
         "a driver that does %s in %s: the check fails and says %s: %r"
         % (what, where, " or ".join(str(ws) for ws in accepted), failed))
    tv = (by_name(o).get("torch") or {}).get("verify") or {}
    if where == "load":
        c.ok(o["verify"].get("available") and tv.get("failed") == failed,
             "%s in a load: the device is known, and the distribution being loaded carries the failure: %s" % (what, tv))
    else:
        c.ok(o["verify"].get("available") is False and not tv, "%s in cuInit: no device, no counts" % what)
    pt = subprocess.run([args.wheelarch, "doctor", "--cache", EMPTY, "--site-packages", vsite, "--cc", "8.6",
                         "--driver", "580.82.07", "--platform", "linux-x86_64", "--verify", "--verify-timeout", "2"],
                        capture_output=True, text=True, timeout=60, env=dict(os.environ, **env))
    c.ok(pt.returncode == 1 and "--verify FAILED: " in pt.stdout and "not as a pass" in pt.stdout,
         "%s:%s, the text report: exit 1 and FAILED (%d): %s" % (what, where, pt.returncode, pt.stdout[-300:]))
c.ok(time.time() - t0 < 90, "the hung driver is stopped at its limit (%.0f s for all)" % (time.time() - t0))
# a driver that leaves a process holding the result pipe, then crashes: the
# crash is seen at once, not after the time limit
# (doctor's output goes to files: the sleeping process holds the pipes a
# capture would wait on)
t1 = time.time()
with open(os.path.join(W, "forkcrash.out"), "w+") as out:
    e = {k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")}
    e.update(fake, FAKE_CUDA_CC="8.6", FAKE_CUDA_FAULT="forkcrash:load")
    proc = subprocess.Popen([args.wheelarch, "doctor", "--json", "--cache", EMPTY, "--platform", "linux-x86_64",
                             "--driver", "580.82.07", "--site-packages", vsite, "--cc", "8.6", "--verify",
                             "--verify-timeout", "25"], stdout=out, stderr=subprocess.DEVNULL, env=e)
    rc = proc.wait(timeout=60)
    took = time.time() - t1
    out.seek(0)
    o = json.loads(out.read() or "{}")
failed = (o.get("verify") or {}).get("failed") or ""
c.ok(rc == 1 and ("signal 11" in failed or "signal 6" in failed) and took < 15,
     "a crash with the pipe still held elsewhere: exit %d, reported in %.1f s: %r" % (rc, took, failed))
# a driver that hangs in its teardown after the last module: the counts are
# whole, so the check stands, and doctor goes on after a few seconds
t1 = time.time()
o, p = doctor("--site-packages", vsite, "--cc", "8.6", "--verify", "--verify-timeout", "30", expect=0,
              env=dict(fake, FAKE_CUDA_CC="8.6", FAKE_CUDA_FAULT="hang:close"))
c.ok(o and (by_name(o).get("torch") or {}).get("verify", {}).get("native") == 3 and time.time() - t1 < 15,
     "a driver hanging in its teardown: the check stands, done in %.1f s" % (time.time() - t1))
# a driver writing to stdout cannot break --json; the check goes on
o, p = doctor("--site-packages", vsite, "--cc", "8.6", "--verify", expect=0,
              env=dict(fake, FAKE_CUDA_CC="8.6", FAKE_CUDA_FAULT="chatter:load"))
c.ok(o and (by_name(o).get("torch") or {}).get("verify", {}).get("native") == 3 and "chatter" in p.stderr,
     "a chatty driver: --json whole, its text on stderr: %r" % p.stderr[-200:])
o, p = doctor("--site-packages", vsite, "--cc", "8.6", "--verify", "--verify-timeout", "0", expect=2, env=fake)
c.ok("--verify-timeout" in p.stderr, "--verify-timeout 0 is refused: " + p.stderr.strip())
# no GPU (the driver loads, cuInit fails) and no driver at all: one line,
# and the exit of a check without --verify
for label, env in (("no GPU", fake), ("no driver", {"LD_LIBRARY_PATH": os.path.join(W, "nowhere")})):
    o, p = doctor("--site-packages", vsite, "--cc", "8.6", "--verify", expect=0, env=env)
    c.ok(o and o["verify"]["available"] is False and o["verify"]["why"], "%s: said: %s" % (label, (o or {}).get("verify")))
    c.ok(o and "verify" not in by_name(o).get("torch", {}), "%s: no driver counts" % label)

# The environment's Python limits the fixes: in lib/python3.8/site-packages
# no torch with SASS for 12.0 has a cp38 wheel (2.7 and later start at
# 3.9): the fix is torch 1.5 cu102, whose compute_75 PTX JITs; in python3.12
# it is the cu129 build of 2.8.
for pyver, want_fix in (("3.8", ("cu102", "1.5")), ("3.12", ("cu129", "2.8"))):
    site = os.path.join(W, "venv-" + pyver, "lib", "python" + pyver, "site-packages")
    dist(site, "torch", "2.8.0+cu126", {"torch/lib/libtorch_cuda.so": "libk_two.so"})
    o, _ = doctor("--site-packages", site, "--cc", "12.0", expect=1)
    fix = by_name(o).get("torch", {}).get("fix") or {}
    c.eq((fix.get("index"), fix.get("version")), want_fix, "Python %s (from the folder's path): the fix has a wheel for it" % pyver)

# Only the driver keeps the code from running (a cu130 torch on driver 535):
# the fix names the driver update, then a build that runs with this driver,
# and never a source build.
old = os.path.join(W, "old-driver")
dist(old, "torch", "2.9.0+cu130", {"torch/lib/libtorch_cuda.so": "libk_two.so"})
o, _ = doctor("--site-packages", old, "--cc", "8.6", "--driver", "535.104.05", expect=1)
t = by_name(o).get("torch", {})
fix = t.get("fix") or {}
c.eq((t.get("verdict"), fix.get("driver")), ("driver-too-old", "580"),
     "a cu130 build on driver 535: driver too old, the fix names driver 580, the CUDA 13 floor (%s)" % fix)
p = subprocess.run([args.wheelarch, "doctor", "--cache", EMPTY, "--platform", "linux-x86_64", "--driver",
                    "535.104.05", "--site-packages", old, "--cc", "8.6"], capture_output=True, text=True,
                   timeout=120, env={k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")})
c.ok("fix: update the NVIDIA driver to 580 or newer" in p.stdout and "from source" not in p.stdout,
     "the text: the driver update, no source build: " + p.stdout[-600:])

# No distribution with GPU code (a CPU-only environment): nothing was
# checked, which is exit 5 and said so, never "everything runs natively".
cpu = os.path.join(W, "cpu-only")
dist(cpu, "numpy", "2.3.0", {"numpy/_core/_multiarray_umath.so": "nogpu.so"})
o, _ = doctor("--site-packages", cpu, "--cc", "8.6", expect=5)
c.eq(o and (o["distributions"], o["exit"]), ([], 5), "nothing with GPU code: exit 5 in --json too")
p = subprocess.run([args.wheelarch, "doctor", "--cache", EMPTY, "--platform", "linux-x86_64",
                    "--site-packages", cpu, "--cc", "8.6"], capture_output=True, text=True, timeout=120,
                   env={k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")})
c.ok(p.returncode == 5 and "nothing to check: no installed distribution has GPU code" in p.stdout and
     "runs natively" not in p.stdout, "the text says nothing was checked (%d): %s" % (p.returncode, p.stdout))

c.done()
