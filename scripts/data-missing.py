#!/usr/bin/env python3
"""Lists what data/pytorch_releases.csv lacks against a copy of pytorch/test-infra's
tools/scripts/generate_binary_build_matrix.py (read offline: pass the file).

Usage: scripts/data-missing.py MATRIX_FILE [RELEASE]
Prints the CUDA and ROCm versions the file's 'release' lists name that the data's
newest (or given) torch release does not list, per platform.
"""
import csv, os, re, sys

if len(sys.argv) < 2:
    sys.exit(__doc__)
text = open(sys.argv[1]).read()
def lst(name):
    m = re.search(name + r'\s*=\s*\{[^}]*?"release"\s*:\s*\[([^\]]*)\]', text, re.S)
    return re.findall(r'"([\d.]+)"', m.group(1)) if m else []
cuda = ["cu" + v.replace(".", "") for v in lst("CUDA_ARCHES_DICT")]
rocm = ["rocm" + v for v in lst("ROCM_ARCHES_DICT")]
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "pytorch_releases.csv")
rows = [r for r in csv.DictReader(open(data)) if r["project"] == "torch"]
def ver(s): return tuple(int(x) for x in s.split("."))
rel = sys.argv[2] if len(sys.argv) > 2 else max((r["release"] for r in rows), key=ver)
missing = 0
for r in rows:
    if r["release"] != rel:
        continue
    have = set(r["variants"].split(";"))
    want = cuda + (rocm if r["platform"] == "linux-x86_64" else [])
    for v in want:
        if v not in have:
            print("torch %s %s: %s is in the matrix, not in the data" % (rel, r["platform"], v))
            missing += 1
print("%d missing" % missing)
