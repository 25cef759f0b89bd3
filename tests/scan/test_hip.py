"""AMD GPU code: scan the committed HIP fixtures (tests/fixtures/hip, built by
its make-fixtures.sh with Debian's clang-14 and clang-19) against the
targets their --offload-arch flags ask for, then build fresh HIP libraries
with clang-14 here (random target sets, one or two translation units) and
check the same way; wheels holding them; damaged bundles."""
import json
import os
import random
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
HIP = os.path.join(watest.FIXTURES, "hip")
manifest = json.load(open(os.path.join(HIP, "manifest.json")))["fixtures"]


def check(obj, path, want_gfx, modules, partial, compression, fmt=None, label=None):
    label = label or os.path.basename(path)
    if not c.ok(obj and not obj.get("error") and obj.get("binaries"), "%s scanned (%s)" % (label, obj and obj.get("error"))):
        return
    b = obj["binaries"][0]
    c.eq(b["gfx"], want_gfx, label + " gfx")
    c.eq(b["sass"] + b["ptx"], [], label + " no CUDA targets")
    c.eq(b["modules"], modules, label + " modules")
    if fmt:
        c.eq(b["format"], fmt, label + " format")
    for t in want_gfx:
        c.eq(b["targets"][t]["modules"], partial.get(t, modules), "%s %s modules" % (label, t))
    c.eq(sorted(b["compression"]), [compression], label + " compression")
    c.eq(b["warnings"], [], label + " warnings (ids and code object e_flags agree)")


# ---- the committed fixtures ---------------------------------------------------
for fx in manifest:
    objs, p = watest.scan_json(args, os.path.join(HIP, fx["file"]))
    check(objs[0] if objs else None, fx["file"], fx["gfx"], fx["modules"], fx["partial"], fx["compression"],
          fx["format"])
p = watest.run(args, "scan", os.path.join(HIP, "libhip_two.so"))
c.ok("gfx gfx906:sramecc+:xnack-(1/2) gfx1031" in p.stdout, "text output marks the partial target: " + p.stdout)

# ---- fresh builds with clang-14 -------------------------------------------------
CLANG = shutil.which("clang-14") or shutil.which("clang")
SRC = os.path.join(HIP, "src")
ARCHS = ["gfx803", "gfx900", "gfx906", "gfx906:xnack-", "gfx906:sramecc+:xnack-", "gfx908", "gfx908:xnack+",
         "gfx90a", "gfx90a:xnack-", "gfx90a:xnack+", "gfx1010", "gfx1030", "gfx1031", "gfx1034", "gfx1036"]
common = ["-x", "hip", "-nogpulib", "-nogpuinc", "-fPIC", "-O1", "-I", SRC]


def sort_targets(names):
    # wheelarch's order: processor number (hex digits), then features any < off < on.
    def key(n):
        proc, _, feats = n.partition(":")
        f = dict((x[:-1], x[-1]) for x in feats.split(":") if x)
        rank = {None: 0, "-": 1, "+": 2}
        return (int(proc[3:], 16), rank[f.get("sramecc")], rank[f.get("xnack")])
    return sorted(set(names), key=key)


rnd = random.Random(11)
if c.ok(CLANG, "clang-14 is installed (scripts/install-deps.sh)"):
    built = []
    for i in range(4):
        a1 = rnd.sample(ARCHS, rnd.randint(1, 4))
        # Features of one processor must agree within a compilation.
        procs = {}
        for a in a1:
            procs.setdefault(a.split(":")[0], a)
        a1 = list(procs.values())
        two = i % 2 == 1
        out = os.path.join(W, "libfresh%d.so" % i)
        objs = []
        for k, (src, archs) in enumerate([("k1.hip", a1)] + ([("k2.hip", a1[:1])] if two else [])):
            o = os.path.join(W, "fresh%d_%d.o" % (i, k))
            p = subprocess.run([CLANG] + common + ["--offload-arch=" + a for a in archs] +
                               ["-c", os.path.join(SRC, src), "-o", o], capture_output=True, text=True)
            c.eq(p.returncode, 0, "clang-14 %s for %s (%s)" % (src, archs, p.stderr.strip()[-300:]))
            objs.append(o)
        p = subprocess.run([CLANG, "-shared"] + objs + ["-o", out], capture_output=True, text=True)
        c.eq(p.returncode, 0, "link %s (%s)" % (out, p.stderr.strip()[-200:]))
        want = sort_targets(a1)
        partial = {a: 1 for a in a1[1:]} if two else {}
        objs_, _ = watest.scan_json(args, out)
        check(objs_[0] if objs_ else None, out, want, 2 if two else 1, partial, "none",
              label="fresh %s%s" % (",".join(a1), " +1 TU" if two else ""))
        built.append((out, want))

    # A wheel with the fresh libraries and a bundle file: the union.
    whl = os.path.join(W, "torch-2.9.0+rocm6.4-cp312-cp312-manylinux_2_28_x86_64.whl")
    members = [("torch/lib/libfresh%d.so" % i, path) for i, (path, _) in enumerate(built)]
    members.append(("torch/lib/kernels/k.co", os.path.join(HIP, "kern_zlib_v2.co")))
    members.append(("torch/__init__.py", b""))
    watest.make_wheel(whl, members)
    objs_, _ = watest.scan_json(args, whl)
    want = sort_targets([t for _, w in built for t in w] + ["gfx908", "gfx1100"])
    if c.ok(objs_ and not objs_[0]["error"], "wheel scanned"):
        c.eq(objs_[0]["gfx"], want, "wheel: union of gfx targets")
        c.eq(objs_[0]["wheel"]["local"], "rocm6.4", "wheel: ROCm local label")
        c.eq(len(objs_[0]["binaries"]), len(built) + 1, "wheel: every member with GPU code, .co included")

# ---- damaged bundles --------------------------------------------------------------
plain = open(os.path.join(HIP, "kern_bundle.co"), "rb").read()
cases = {
    "truncated.co": plain[: len(plain) // 2],
    "badcount.co": plain[:24] + struct.pack("<Q", 1 << 40) + plain[32:],
    "overrun.co": plain[:32] + struct.pack("<QQ", 4096, 1 << 50) + plain[48:],
}
ccob = open(os.path.join(HIP, "kern_zlib_v2.co"), "rb").read()
cases["ccob_cut.co"] = ccob[:-100]
cases["ccob_method.co"] = ccob[:6] + struct.pack("<H", 7) + ccob[8:]
for name, data in cases.items():
    path = os.path.join(W, name)
    open(path, "wb").write(data)
    objs_, p = watest.scan_json(args, path)
    err = objs_[0]["error"] if objs_ else None
    c.ok(p.returncode != 0 and err and "\n" not in err, "%s: one-line error, exit %d (%s)" % (name, p.returncode, err))
# A compressed stream that is damaged inside still gives a result with a warning.
bad = bytearray(ccob)
for k in range(40, 80):
    bad[k] ^= 0x5A
path = os.path.join(W, "ccob_garbled.co")
open(path, "wb").write(bytes(bad))
objs_, p = watest.scan_json(args, path)
c.ok(objs_ and (objs_[0]["error"] or objs_[0]["binaries"] == [] or objs_[0]["binaries"][0]["warnings"]),
     "a garbled compressed bundle is reported, not misread: %s" % (objs_[0] if objs_ else p.stderr))
c.done()
