#!/usr/bin/env python3
"""Builds the large wheel bench/scan.sh measures, from real nvcc output.

Source "debian" (default when present): PyTorch 2.6's libraries as Debian
builds them with nvcc (libtorch_cuda.so is 1.18 GB, 341 fatbin modules,
LZ4-compressed entries like PyTorch's own CUDA 12 wheels), packed the way a
torch wheel is: torch/lib/*.so plus Python files.  Source "nvcc": a library
compiled here from generated kernels for 8 architectures, replicated under
renamed symbols until it reaches --size MB (slower to build, less varied).

usage: make-big-wheel.py OUT_DIR --source debian --debian-dir DIR
       make-big-wheel.py OUT_DIR --source nvcc [--size MB]
Prints the wheel path and the name of its largest member."""
import argparse
import glob
import os
import subprocess
import sys
import zipfile

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--source", choices=["debian", "nvcc"], required=True)
ap.add_argument("--debian-dir")
ap.add_argument("--size", type=int, default=1200)
ap.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)


def write_wheel(path, members):
    if os.path.exists(path):
        return
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for arc, src in members:
            if isinstance(src, bytes):
                z.writestr(arc, src)
            else:
                z.write(src, arc)
    os.rename(tmp, path)


if a.source == "debian":
    lib = os.path.join(a.debian_dir, "usr", "lib", "x86_64-linux-gnu")
    members = [("torch/__init__.py", b"# wheelarch benchmark wheel\n")]
    for f in sorted(glob.glob(os.path.join(lib, "lib*.so.2.6.0"))):
        members.append(("torch/lib/" + os.path.basename(f).replace(".2.6.0", ""), f))
    for i in range(2000):  # a torch wheel has thousands of small files
        members.append(("torch/_bench/mod%04d.py" % i, ("x = %d\n" % i).encode() * 40))
    wheel = os.path.join(a.out, "torch-2.6.0+debian-cp313-cp313-linux_x86_64.whl")
    write_wheel(wheel, members)
    print(wheel)
    print("torch/lib/libtorch_cuda.so")
    sys.exit(0)

# nvcc: generated kernels, four variants, replicated.
work = os.path.join(a.out, "nvcc")
os.makedirs(work, exist_ok=True)
archs = [75, 80, 86, 89, 90, 100, 120]
gencode = []
for x in archs:
    gencode += ["-gencode", "arch=compute_%d,code=sm_%d" % (x, x)]
gencode += ["-gencode", "arch=compute_120,code=compute_120"]
objs = []
for v in range(4):
    src = os.path.join(work, "gen%d.cu" % v)
    obj = os.path.join(work, "gen%d.o" % v)
    objs.append(obj)
    if os.path.exists(obj):
        continue
    with open(src, "w") as f:
        f.write("template <int N> __global__ void k%d(float *x, const float *y, int n) {\n" % v)
        f.write("  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;\n")
        f.write("  float a = x[i];\n#pragma unroll\n  for (int r = 0; r < (N %% 13) + 4; r++)\n")
        f.write("    a = fmaf(a, y[(i + r * N) %% n], __sinf(a * %d.0f + N));\n  x[i] = a; }\n" % (v + 3))
        for n in range(1, 301):
            f.write("template __global__ void k%d<%d>(float *, const float *, int);\n" % (v, n))
    subprocess.check_call([a.nvcc, "-c", "-Xcompiler", "-fPIC", "-Xfatbin=-compress-all",
                           "--compress-mode=speed"] + gencode + [src, "-o", obj])
copies = []
total = 0
i = 0
while total < a.size << 20:
    obj = objs[i % len(objs)]
    dst = os.path.join(work, "copy%04d.o" % i)
    if not os.path.exists(dst):
        subprocess.check_call(["objcopy", "--prefix-symbols=c%d_" % i, obj, dst])
    copies.append(dst)
    total += os.path.getsize(dst)
    i += 1
so = os.path.join(work, "libbig_cuda.so")
if not os.path.exists(so):
    subprocess.check_call(["gcc", "-shared", "-o", so] + copies)
wheel = os.path.join(a.out, "bigcuda-1.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl")
members = [("bigcuda/__init__.py", b""), ("bigcuda/lib/libbig_cuda.so", so)]
for k in range(2000):
    members.append(("bigcuda/_bench/mod%04d.py" % k, ("x = %d\n" % k).encode() * 40))
write_wheel(wheel, members)
print(wheel)
print("bigcuda/lib/libbig_cuda.so")
