"""AMD GPU code in a real ROCm library that is not in the repository:
Debian's rocRAND 5.3 (package librocrand1, installed by
scripts/install-deps.sh), scanned as a file and inside a wheel, and checked
two independent ways:

- against LLVM's own reader: the .hip_fatbin section is cut out with
  objcopy, split into its offload bundles, and each bundle listed with
  clang-offload-bundler (clang-tools-14); the targets and the number of
  bundles holding each must match what wheelarch reports;
- against the build's declared targets: ROCm 5.x libraries build for their
  default AMDGPU_TARGETS, gfx803;gfx900:xnack-;gfx906:xnack-;gfx908:xnack-;
  gfx90a:xnack-;gfx90a:xnack+;gfx1030 (rocm_check_target_ids in the
  libraries' CMakeLists.txt of ROCm 5.3; Debian sets none itself)."""
import glob
import os
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work

DECLARED = ["gfx803", "gfx900:xnack-", "gfx906:xnack-", "gfx908:xnack-", "gfx90a:xnack-", "gfx90a:xnack+",
            "gfx1030"]
MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"

libs = sorted(glob.glob("/usr/lib/*/librocrand.so.1.*"))
bundler = shutil.which("clang-offload-bundler-14") or shutil.which("clang-offload-bundler")
if not c.ok(libs, "librocrand1 is installed (scripts/install-deps.sh)") or \
        not c.ok(bundler, "clang-offload-bundler is installed (clang-tools-14)"):
    c.done()
lib = libs[0]


def llvm_view(path):
    """{target: bundles holding it} and the bundle count, as LLVM reads them."""
    sec = os.path.join(W, "hip_fatbin.bin")
    p = subprocess.run(["objcopy", "-O", "binary", "--only-section=.hip_fatbin", path, sec],
                       capture_output=True, text=True)
    c.eq(p.returncode, 0, "objcopy cuts out .hip_fatbin (%s)" % p.stderr.strip())
    data = open(sec, "rb").read()
    starts = []
    i = data.find(MAGIC)
    while i >= 0:
        starts.append(i)
        i = data.find(MAGIC, i + len(MAGIC))
    counts = {}
    for k, s in enumerate(starts):
        one = os.path.join(W, "bundle%d.bin" % k)
        with open(one, "wb") as f:
            f.write(data[s:starts[k + 1] if k + 1 < len(starts) else len(data)])
        p = subprocess.run([bundler, "-list", "-type=o", "-inputs=" + one], capture_output=True, text=True)
        c.eq(p.returncode, 0, "clang-offload-bundler lists bundle %d (%s)" % (k, p.stderr.strip()))
        for line in p.stdout.split():
            if line.startswith("hip"):  # hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-
                t = line.split("--", 1)[1]
                counts[t] = counts.get(t, 0) + 1
    return counts, len(starts)


want, nbundles = llvm_view(lib)
c.ok(nbundles >= 1, "the library has offload bundles (%d)" % nbundles)
c.eq(sorted(want), sorted(DECLARED), "LLVM's listing is the declared ROCm 5.3 target list")

objs, p = watest.scan_json(args, lib)
o = objs[0] if objs else {}
c.ok(p.returncode == 0 and not o.get("error"), "scan %s (%s)" % (lib, p.stderr.strip()))
b = (o.get("binaries") or [{}])[0]
c.eq(b.get("gfx"), DECLARED, "wheelarch: the same targets, in processor order (gfx90a:xnack- < gfx90a:xnack+)")
c.eq(b.get("modules"), nbundles, "wheelarch: one module per offload bundle")
c.eq({t: v["modules"] for t, v in (b.get("targets") or {}).items()}, want, "per target, the bundles holding it")
c.eq(b.get("sass", []) + b.get("ptx", []), [], "no CUDA targets")
c.eq(b.get("warnings"), [], "no warnings: every bundle id agrees with its code object's e_flags")

# The same library inside a wheel, read in one streaming pass.
whl = os.path.join(W, "rocrand_demo-5.3.3+rocm5.3-cp312-cp312-manylinux_2_28_x86_64.whl")
with zipfile.ZipFile(whl, "w", zipfile.ZIP_DEFLATED) as z:
    z.write(lib, "rocrand_demo/lib/librocrand.so.1")
    z.writestr("rocrand_demo/__init__.py", "")
objs, p = watest.scan_json(args, whl)
o = objs[0] if objs else {}
c.ok(p.returncode == 0 and not o.get("error"), "scan the wheel (%s)" % p.stderr.strip())
c.eq(o.get("gfx"), DECLARED, "wheel: union of gfx targets")
c.eq([x["path"] for x in o.get("binaries", [])], ["rocrand_demo/lib/librocrand.so.1"], "wheel: the member holding GPU code")
c.eq((o.get("wheel") or {}).get("local"), "rocm5.3", "wheel: local label parsed")
c.done()
