#!/usr/bin/env python3
"""Writes N crawl records for the build benchmark: the `scan --json` object
of a real fixture scan, decorated as `wheelarch crawl` decorates it, spread
over releases x variants x platforms, one scanned record and nine inferred
ones per group.
usage: make-records.py WHEELARCH OUT_DIR N"""
import hashlib
import json
import os
import subprocess
import sys

wheelarch, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fx = os.path.join(root, "tests", "fixtures", "cuda")
scans = {}
for f in ("libk_default.so", "libk_two.so", "libk_fam.so", "test.dll"):
    scans[f] = json.loads(subprocess.run([wheelarch, "scan", "--json", os.path.join(fx, f)],
                                         capture_output=True, text=True, check=True).stdout)
variants = ["cu126", "cu128", "cu129", "cu130"]
platforms = [("linux-x86_64", "manylinux_2_28_x86_64", "libk_default.so"),
             ("linux-aarch64", "manylinux_2_28_aarch64", "libk_fam.so"),
             ("windows-x86_64", "win_amd64", "test.dll")]
pys = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp313t", "cp314", "cp314t", "cp315", "cp316"]
written = 0
release = 0
while written < n:
    major, minor, patch = 2, 100 + release // 4, release % 4
    release += 1
    for v in variants:
        for plat, tag, fixture in platforms:
            source = None
            for i, py in enumerate(pys):
                if written >= n:
                    break
                version = "%d.%d.%d" % (major, minor, patch)
                fname = "torch-%s+%s-%s-%s-%s.whl" % (version, v, py, py, tag)
                url = "https://download.pytorch.org/whl/%s/%s" % (v, fname.replace("+", "%2B"))
                key = hashlib.sha256(url.encode()).hexdigest()
                s = dict(scans[fixture])
                binaries = [dict(b, path="torch/lib/" + os.path.basename(b["path"])) for b in s["binaries"]]
                rec = dict(s, input=url, url=url, key=key, filename=fname, index=v, indexes=[v],
                           index_url="https://download.pytorch.org/whl/%s/" % v, variant=v,
                           variant_source="label", index_sha256=key, sha256=key,
                           upload_time=None, requires_python=">=3.9", yanked=None,
                           record_version=1, status="scanned" if i == 0 else "inferred",
                           inferred_from=None if i == 0 else source, sha256_verified=False,
                           size=123456789, scanned_at="2026-11-%02d" % (1 + written % 20),
                           wheelarch_version="0.1.0", binaries=binaries,
                           wheel={"filename": fname, "project": "torch", "normalized_name": "torch",
                                  "version": version + "+" + v, "public_version": version, "local": v,
                                  "build": None, "python": py, "abi": py, "platform": tag,
                                  "platform_id": plat})
                if i == 0:
                    source = key
                else:  # as crawl writes them: identity, unions, and the source's key
                    for k in ("binaries", "members", "binaries_read"):
                        rec.pop(k, None)
                with open(os.path.join(out, key + ".json"), "w") as f:
                    json.dump(rec, f, indent=2, sort_keys=True)
                written += 1
print("wrote %d records" % written)
