"""AMD kernel archives (.kpack): the per-GPU code of AMD's split ROCm wheels
(amd_torch_device_gfx1100's torch/.kpack/torch_gfx1100.kpack).  Archives are
written around real code objects (the committed kern_gfx1100.hsaco and ones
clang-14 builds here) by tests/lib/kpackfile.py; scan must list each host
binary's targets, check each blob's ELF header against the table, read a
device wheel holding one, and refuse damaged archives with one line."""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import kpackfile  # noqa: E402
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
os.makedirs(W, exist_ok=True)
HIP = os.path.join(watest.FIXTURES, "hip")
objs = {"gfx1100": open(os.path.join(HIP, "kern_gfx1100.hsaco"), "rb").read()}
for arch in ("gfx1030", "gfx90a"):
    obj, why = kpackfile.code_object(W, arch)
    if c.ok(obj is not None, "clang builds a %s code object (%s)" % (arch, why[:200])):
        objs[arch] = obj


def scan_one(path, label):
    got, p = watest.scan_json(args, path)
    o = got[0] if got else {}
    c.ok(o and not o.get("error") and o.get("binaries"), "%s scanned (%s)" % (label, o.get("error") or p.stderr.strip()))
    return o


# ---- one archive, two host binaries, one target (a device package's) ------------
one = os.path.join(W, "torch_gfx1100.kpack")
kpackfile.write(one, [("lib/libtorch_hip.so", "gfx1100", objs["gfx1100"]),
                      ("lib/libc10_hip.so", "gfx1100", objs["gfx1100"])], family="gfx1100")
o = scan_one(one, "torch_gfx1100.kpack")
if o.get("binaries"):
    b = o["binaries"][0]
    c.eq((b["format"], b["gfx"], b["modules"]), ("kpack", ["gfx1100"], 2),
         "a kernel archive: format kpack, its target, a module per host binary")
    c.eq(b["warnings"], [], "the table and the code objects' headers agree")
    c.eq(b["sass"] + b["ptx"], [], "no CUDA targets")

# ---- several targets in one archive, in the order wheelarch sorts ------------------
if len(objs) == 3:
    many = os.path.join(W, "blas_lib_gfx10x.kpack")
    kpackfile.write(many, [("lib/librocblas.so.4", a, objs[a]) for a in ("gfx1100", "gfx90a", "gfx1030")],
                    family="mixed")
    o = scan_one(many, "three targets")
    if o.get("binaries"):
        c.eq(o["binaries"][0]["gfx"], ["gfx90a", "gfx1030", "gfx1100"], "three targets, in target order")

# ---- the table lies about a blob: said, not believed silently -----------------------
if "gfx1030" in objs:
    lie = os.path.join(W, "lie.kpack")
    kpackfile.write(lie, [("lib/libtorch_hip.so", "gfx1201", objs["gfx1030"])])
    o = scan_one(lie, "a table naming the wrong target")
    if o.get("binaries"):
        w = " ".join(o["binaries"][0]["warnings"])
        c.ok("gfx1201" in w and "gfx1030" in w, "the mismatch is a warning naming both: " + w)

# ---- a compressed archive: the table's word, its blobs not read --------------------
z = os.path.join(W, "torch_gfx1201.kpack")
data = kpackfile.write(None, [("lib/libtorch_hip.so", "gfx1201", b"\x28\xb5\x2f\xfd" + b"\0" * 60)])
data = data.replace(kpackfile.pack("none"), kpackfile.pack("zstd-per-kernel"))
# the table is the last thing in the file: a longer string there moves nothing
open(z, "wb").write(data)
o = scan_one(z, "zstd-per-kernel archive")
if o.get("binaries"):
    b = o["binaries"][0]
    c.eq((b["gfx"], sorted(b["compression"])), (["gfx1201"], ["zstd"]), "compressed: the table's target, zstd")

# ---- a device wheel holding one ------------------------------------------------------
whl = os.path.join(W, "amd_torch_device_gfx1100-2.13.0+rocm10.0.0-cp312-cp312-linux_x86_64.whl")
watest.make_wheel(whl, [("torch/.kpack/torch_gfx1100.kpack", open(one, "rb").read()),
                        ("amd_torch_device_gfx1100-2.13.0+rocm10.0.0.dist-info/METADATA",
                         b"Metadata-Version: 2.1\nName: amd-torch-device-gfx1100\nVersion: 2.13.0+rocm10.0.0\n"
                         b"Requires-Dist: rocm-sdk-device-gfx1100 ==10.0.0\n")])
got, p = watest.scan_json(args, whl)
w = got[0] if got else {}
c.eq([x.get("path") for x in w.get("binaries", [])], ["torch/.kpack/torch_gfx1100.kpack"],
     "the device wheel's archive is the binary with GPU code (%s)" % (w.get("error") or ""))
c.eq(w.get("gfx"), ["gfx1100"], "the wheel's gfx union")

# ---- damaged archives: one line each, no crash --------------------------------------------
good = open(one, "rb").read()
cases = {
    "truncated table": good[:-5],
    "table offset past the end": good[:8] + struct.pack("<Q", len(good) + 100) + good[16:],
    "table not a map": good[:toc_offset] + b"\x93\x01\x02\x03" if (toc_offset := struct.unpack("<Q", good[8:16])[0]) else good,
    "header only": good[:16],
    "target not gfx": good.replace(kpackfile.pack("gfx1100"), kpackfile.pack("sm_90a ")),
}
for label, data in cases.items():
    path = os.path.join(W, "bad-%s.kpack" % label.replace(" ", "-"))
    open(path, "wb").write(data)
    got, p = watest.scan_json(args, path)
    o = got[0] if got else {}
    err = o.get("error") or ""
    c.ok(p.returncode != 0 and err.startswith("kernel archive:") and "\n" not in err,
         "%s: refused with one line (exit %d: %s)" % (label, p.returncode, err or p.stderr.strip()[:200]))
c.done()
