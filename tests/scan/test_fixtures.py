"""wheelarch scan against the nvcc-built fixtures: every target list, module
count, codec and relocatable set must equal what the build flags say
(tests/fixtures/cuda/manifest.json, written by make-fixtures.sh from the
-gencode flags, never from wheelarch's output)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
fixtures = watest.manifest()


def codecs_of(binary, kinds):
    names = set()
    for name, t in binary["targets"].items():
        if any(name.startswith(k) for k in kinds):
            names.update(t["codecs"])
    return names


for name, fx in sorted(fixtures.items()):
    path = os.path.join(watest.CUDA, name)
    objs, p = watest.scan_json(args, path)
    if not c.ok(p.returncode == 0 and len(objs) == 1, "%s: scan exit %d: %s" % (name, p.returncode, p.stderr)):
        continue
    o = objs[0]
    c.eq(o["error"], None, name + " error")
    c.eq(o["binaries"][0]["format"], fx["format"], name + " format")
    b = o["binaries"][0]
    c.eq(b["sass"], fx["sass"], name + " sass")
    c.eq(b["ptx"], fx["ptx"], name + " ptx")
    c.eq(b["lto"], fx.get("lto", []), name + " lto")
    c.eq(o["sass"], fx["sass"], name + " input-level sass")
    c.eq(b["modules"], fx["modules"], name + " modules")
    for t, n in fx.get("module_counts", {}).items():
        c.eq(b["targets"].get(t, {}).get("modules"), n, "%s %s module count" % (name, t))
    c.eq(b["dlink_modules"], fx.get("stub_modules", 0), name + " nvlink stub modules")
    rel = b.get("relocatable")
    want_rel = fx.get("relfatbin_targets", [])
    got_rel = (rel["sass"] + rel["ptx"] + rel["lto"]) if rel else []
    c.eq(sorted(got_rel), sorted(want_rel), name + " relocatable targets")
    c.eq(rel["modules"] if rel else 0, fx.get("rel_modules", 0), name + " relocatable modules")
    codec = fx.get("codec", {})
    if "sass" in codec:
        c.eq(codecs_of(b, ["sm_"]), {codec["sass"]}, name + " SASS codec")
    if "ptx" in codec:
        c.eq(codecs_of(b, ["compute_"]), {codec["ptx"]}, name + " PTX codec")
    if fx.get("ptx_isa") and b["ptx"]:
        for t in b["ptx"]:
            c.eq(b["targets"][t]["isa"], fx["ptx_isa"], "%s %s ISA" % (name, t))
    c.eq(b["warnings"], [], name + " warnings")
    if fx.get("arch_flags_string"):
        c.eq(b["arch_flags"], [fx["arch_flags_string"]], name + " arch flags")
        c.eq(b["declared"]["sass"], fx["sass"], name + " declared sass from the flags")
    else:
        c.eq(b["arch_flags"], [], name + " no arch flags")
    c.ok(len(o["sha256"] or "") == 64, name + " sha256")

# Wheels made from the fixtures: members found by path, union of targets.
linux = os.path.join(args.work, "fixturepkg-1.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl")
watest.make_wheel(linux, [
    ("fixturepkg/__init__.py", b"# nothing\n"),
    ("fixturepkg/lib/libk_default.so", os.path.join(watest.CUDA, "libk_default.so")),
    ("fixturepkg/lib/libk_two.so.1", os.path.join(watest.CUDA, "libk_two.so")),
    ("fixturepkg/lib/libk_fam.so", os.path.join(watest.CUDA, "libk_fam.so")),
    ("fixturepkg/lib/nogpu.so", os.path.join(watest.CUDA, "nogpu.so")),
    ("fixturepkg/data/blob.bin", os.path.join(watest.CUDA, "kern.fatbin")),
])
objs, p = watest.scan_json(args, linux)
c.eq(p.returncode, 0, "linux wheel exit")
if objs:
    o = objs[0]
    w = o["wheel"]
    c.eq((w["project"], w["version"], w["public_version"], w["local"], w["python"], w["abi"], w["platform"]),
         ("fixturepkg", "1.0+cu130", "1.0", "cu130", "cp312", "cp312", "manylinux_2_28_x86_64"), "wheel name")
    c.eq(w["platform_id"], "linux-x86_64", "platform id")
    paths = [b["path"] for b in o["binaries"]]
    c.eq(paths, ["fixturepkg/lib/libk_default.so", "fixturepkg/lib/libk_two.so.1",
                 "fixturepkg/lib/libk_fam.so", "fixturepkg/data/blob.bin"], "members with GPU code")
    union = set()
    for f in ("libk_default.so", "libk_two.so", "libk_fam.so", "kern.fatbin"):
        union.update(fixtures[f]["sass"])
    order = {b["path"]: b for b in o["binaries"]}
    c.eq(set(o["sass"]), union, "wheel sass union")
    c.eq(order["fixturepkg/lib/libk_two.so.1"]["targets"]["sm_90a"]["modules"], 1, "sm_90a in 1 of 2 modules")
    import hashlib
    with open(linux, "rb") as f:
        c.eq(o["sha256"], hashlib.sha256(f.read()).hexdigest(), "wheel sha256")

# A Windows wheel: the DLL under a .pyd and a .dll name.
win = os.path.join(args.work, "fixturepkg-1.0+cu130-cp312-cp312-win_amd64.whl")
watest.make_wheel(win, [
    ("fixturepkg/_C.pyd", os.path.join(watest.CUDA, "test.dll")),
    ("fixturepkg/lib/kern64_13.dll", os.path.join(watest.CUDA, "test_longname.dll")),
], compression=watest.zipfile.ZIP_STORED)
objs, p = watest.scan_json(args, win)
c.eq(p.returncode, 0, "windows wheel exit")
if objs:
    o = objs[0]
    c.eq(o["wheel"]["platform_id"], "windows-x86_64", "windows platform id")
    c.eq([b["format"] for b in o["binaries"]], ["pe", "pe"], "PE members")
    c.eq(o["sass"], fixtures["test.dll"]["sass"], "windows sass")

# Text output: one line per binary, partial coverage shown as (n/N).
p = watest.run(args, "scan", linux)
c.eq(p.returncode, 0, "text exit")
lines = p.stdout.splitlines()
c.ok(lines and lines[0].startswith(linux + ": fixturepkg 1.0 (cu130) linux-x86_64, 4 of"), "text heading: %r" % lines[:1])
two = [l for l in lines if "libk_two.so.1" in l]
c.ok(two and "sm_90a(1/2)" in two[0] and "sass sm_80 sm_86 sm_90a(1/2)" in two[0], "text partial: %r" % two)
c.done()
