#!/usr/bin/env python3
"""Builds a sample CUDA wheel from the committed nvcc fixtures, for the
README's quick start: a Linux wheel with three GPU libraries and one
without GPU code.
usage: scripts/make-sample-wheel.py OUTDIR"""
import os
import sys
import zipfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cuda = os.path.join(root, "tests", "fixtures", "cuda")
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
name = "samplepkg-1.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl"
members = [("samplepkg/lib/libk_default.so", "libk_default.so"),
           ("samplepkg/lib/libk_two.so", "libk_two.so"),
           ("samplepkg/lib/libk_fam.so", "libk_fam.so"),
           ("samplepkg/lib/nogpu.so", "nogpu.so")]
with zipfile.ZipFile(os.path.join(out, name), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("samplepkg/__init__.py", (2026, 1, 1, 0, 0, 0)), "")
    for arc, src in members:
        info = zipfile.ZipInfo(arc, (2026, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(os.path.join(cuda, src), "rb") as f:
            z.writestr(info, f.read())
    z.writestr(zipfile.ZipInfo("samplepkg-1.0+cu130.dist-info/WHEEL", (2026, 1, 1, 0, 0, 0)),
               "Wheel-Version: 1.0\nGenerator: wheelarch\nRoot-Is-Purelib: false\n"
               "Tag: cp312-cp312-manylinux_2_28_x86_64\n")
print(os.path.join(out, name))
