#!/usr/bin/env python3
"""Acceptance run on real third-party CUDA builds (fetched by fetch.sh; not in
the repository, not run by CI).  Each is packed into a wheel the way its
project ships binaries, scanned, and checked against what that project's own
build configuration declares:

- PyTorch 2.6 as Debian builds it (libtorch-cuda-2.6, CUDA 12.4): the arch
  list libtorch embeds (CUDA_ARCH_FLAGS, sm_50..sm_90 + compute_90), plus the
  few sm_90a kernels PyTorch builds for Hopper-only code paths; PTX ISA 8.4 is
  CUDA 12.4's (data/ptx_isa_versions.csv).
- llama.cpp CUDA builds from npm (@node-llama-cpp 3.22.1 Linux, 3.21.1
  Windows, CUDA 13): llama.cpp's default CMAKE_CUDA_ARCHITECTURES for CUDA >= 13,
  `75-virtual 80-virtual 86-real 89-real 90-virtual 120a-real 121a-real`
  (ggml/src/ggml-cuda/CMakeLists.txt), node-llama-cpp setting none itself.
- cuBLAS 12.4 (libcublas.so.12.4.5.8): 1412 entries, 1220 cubins and 192 PTX,
  as cuobjdump 12.4 lists them (docs/formats.md).
- Debian packages built with nvcc's default architecture (sm_52 + compute_52)
  and a PTX-only build (compute_50/60/70/80).
- rocSPARSE 5.3 as Debian builds it (librocsparse0): ROCm 5.x's default
  AMDGPU_TARGETS (gfx803 ... gfx90a:xnack+, gfx1030), as LLVM's
  clang-offload-bundler lists them.

usage: tests/acceptance/run.py --wheelarch build/wheelarch --dir DIR"""
import argparse
import glob
import json
import os
import subprocess
import sys
import zipfile

ap = argparse.ArgumentParser()
ap.add_argument("--wheelarch", required=True)
ap.add_argument("--dir", required=True)
a = ap.parse_args()
X = os.path.join(a.dir, "x")
out = os.path.join(a.dir, "wheels")
os.makedirs(out, exist_ok=True)
failures = 0


def check(cond, msg):
    global failures
    print(("ok   " if cond else "FAIL ") + msg)
    if not cond:
        failures += 1


def wheel(name, members):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        with zipfile.ZipFile(path + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
            for arc, src in members:
                z.write(src, arc)
        os.rename(path + ".tmp", path)
    return path


def scan(path):
    p = subprocess.run([a.wheelarch, "scan", "--json", path], capture_output=True, text=True)
    check(p.returncode == 0, "%s scans (exit %d %s)" % (os.path.basename(path), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def binary(o, suffix):
    for b in o["binaries"]:
        if b["path"].endswith(suffix):
            return b
    return None


# PyTorch 2.6, Debian build.
lib = os.path.join(X, "libtorch-cuda-2.6", "usr", "lib", "x86_64-linux-gnu")
w = wheel("torch-2.6.0+debian-cp313-cp313-linux_x86_64.whl",
          [("torch/lib/" + os.path.basename(f).replace(".2.6.0", ""), f)
           for f in sorted(glob.glob(os.path.join(lib, "lib*.so.2.6.0")))])
o = scan(w)
b = binary(o, "torch/lib/libtorch_cuda.so")
check(b is not None, "libtorch_cuda.so holds GPU code")
if b:
    declared = ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
    check(b["declared"]["sass"] == declared and b["declared"]["ptx"] == ["compute_90"],
          "embedded CUDA_ARCH_FLAGS read: %s %s" % (b["declared"]["sass"], b["declared"]["ptx"]))
    check(b["sass"] == declared[:7] + ["sm_90a"], "SASS = declared + sm_90a: %s" % b["sass"])
    check(0 < b["targets"]["sm_90a"]["modules"] < b["targets"]["sm_90"]["modules"] / 10,
          "sm_90a only in a few modules (%d of %d)" % (b["targets"]["sm_90a"]["modules"], b["modules"]))
    check(all(b["targets"][t]["modules"] == b["modules"] for t in declared),
          "every declared target in every module")
    check(b["ptx"] == ["compute_90"] and b["targets"]["compute_90"]["isa"] == "8.4",
          "PTX compute_90, ISA 8.4 (CUDA 12.4)")
    check(b["warnings"] == [], "no warnings")
check([x["path"] for x in o["binaries"]] == ["torch/lib/libtorch_cuda.so"],
      "only libtorch_cuda.so holds GPU code: %s" % [x["path"] for x in o["binaries"]])

# llama.cpp, CUDA 13, Linux and Windows.
llama_sass = ["sm_86", "sm_89", "sm_120a", "sm_121a"]
llama_ptx = ["compute_75", "compute_80", "compute_90"]
for plat, pkg, member, tag in (
        ("linux", "node-llama-cpp-linux-x64-cuda-3.22.1", "libggml-cuda.so", "manylinux_2_28_x86_64"),
        ("windows", "node-llama-cpp-win-x64-cuda-3.21.1", "ggml-cuda.dll", "win_amd64")):
    bins = glob.glob(os.path.join(X, pkg, "package", "bins", "*"))
    if not bins:
        check(False, "%s fetched" % pkg)
        continue
    files = sorted(f for f in glob.glob(os.path.join(bins[0], "*")) if os.path.isfile(f))
    w = wheel("llama_cpp_cuda-%s-py3-none-%s.whl" % (pkg.rsplit("-", 1)[1], tag),
              [("llama_cpp_cuda/lib/" + os.path.basename(f), f) for f in files])
    o = scan(w)
    b = binary(o, member)
    check(b is not None, "%s: %s holds GPU code" % (plat, member))
    if b:
        check(b["sass"] == llama_sass, "%s: SASS %s" % (plat, b["sass"]))
        check(b["ptx"] == llama_ptx, "%s: PTX %s" % (plat, b["ptx"]))
        check(b["format"] == ("pe" if plat == "windows" else "elf"), "%s: format %s" % (plat, b["format"]))
        check(b["warnings"] == [], "%s: no warnings %s" % (plat, b["warnings"]))
    check(len(o["binaries"]) == 1, "%s: one binary with GPU code" % plat)

# cuBLAS 12.4: entry counts as cuobjdump 12.4 lists them.
so = glob.glob(os.path.join(X, "libcublas12", "usr", "lib", "*", "libcublas.so.12.*"))
if so:
    o = scan(so[0])
    b = o["binaries"][0]
    cubins = sum(t["entries"] for n, t in b["targets"].items() if n.startswith("sm_"))
    ptx = sum(t["entries"] for n, t in b["targets"].items() if n.startswith("compute_"))
    check((cubins, ptx) == (1220, 192), "cuBLAS 12.4: %d cubins + %d PTX (1220 + 192)" % (cubins, ptx))
    check(b["modules"] == 200, "cuBLAS 12.4: 200 modules (%d)" % b["modules"])

# nvcc's default architecture, and a PTX-only build.
for pattern, sass, ptx in (
        ("python3-pycudwt/usr/lib/python3/dist-packages/pycudwt*.so", ["sm_52"], ["compute_52"]),
        ("bart-cuda/usr/bin/bart", ["sm_52"], ["compute_52"]),
        ("python3-pyhst2-cuda/usr/lib/python3/dist-packages/PyHST2_2020c/libgputomo*.so", [],
         ["compute_50", "compute_60", "compute_70", "compute_80"])):
    f = glob.glob(os.path.join(X, pattern))
    if not f:
        check(False, pattern + " fetched")
        continue
    o = scan(f[0])
    check(o["sass"] == sass and o["ptx"] == ptx, "%s: %s %s" % (os.path.basename(f[0]), o["sass"], o["ptx"]))

# rocSPARSE 5.3 as Debian builds it: ROCm 5.x's default AMDGPU_TARGETS, the
# 1.3 GB library inside a wheel, read in one streaming pass.
ROCM53 = ["gfx803", "gfx900:xnack-", "gfx906:xnack-", "gfx908:xnack-", "gfx90a:xnack-", "gfx90a:xnack+", "gfx1030"]
so = glob.glob(os.path.join(X, "librocsparse0", "usr", "lib", "*", "librocsparse.so.0.*"))
if not so:
    check(False, "librocsparse0 fetched")
else:
    w = wheel("rocsparse_demo-5.3.0+rocm5.3-cp312-cp312-manylinux_2_28_x86_64.whl",
              [("rocsparse_demo/lib/librocsparse.so.0", so[0])])
    o = scan(w)
    b = binary(o, "librocsparse.so.0")
    check(b is not None, "rocSPARSE: the library holds GPU code")
    if b:
        check(b["gfx"] == ROCM53, "rocSPARSE: gfx %s" % b["gfx"])
        check(all(b["targets"][t]["modules"] == b["modules"] for t in ROCM53),
              "rocSPARSE: every target in every module (%d)" % b["modules"])
        check(b["warnings"] == [], "rocSPARSE: no warnings %s" % b["warnings"])

print("%d failures" % failures)
sys.exit(1 if failures else 0)
