#!/usr/bin/env python3
"""Writes N crawl records for the build benchmark: the `scan --json` object
of a real fixture scan, decorated as `wheelarch crawl` decorates it, one
scanned record and the rest inferred from it per (project, version,
variant, platform) group.

Two mixes:
  pytorch  what 100,000 wheels of download.pytorch.org look like: torch,
           torchvision and torchaudio, their stable releases (1.8 to 2.11,
           with patch releases) and, for the rest, daily nightlies
           (2.12.0.devYYYYMMDD, newest first), four CUDA variants, three
           platforms, eight Python versions each.
  stress   one project whose every group is a stable release: 2.100.0,
           2.100.1, ... (four patches per minor release), ten Python
           versions; at 100,000 records that is 834 minor releases, far more
           than any real project has, so every per-release page and table
           is at its largest.

usage: make-records.py WHEELARCH OUT_DIR N [pytorch|stress]"""
import datetime
import hashlib
import json
import os
import subprocess
import sys

wheelarch, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
mix = sys.argv[4] if len(sys.argv) > 4 else "pytorch"
if mix not in ("pytorch", "stress"):
    sys.exit("make-records.py: the mix is pytorch or stress, not %r" % mix)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fx = os.path.join(root, "tests", "fixtures", "cuda")
scans = {}
for f in ("libk_default.so", "libk_two.so", "libk_fam.so", "test.dll"):
    scans[f] = json.loads(subprocess.run([wheelarch, "scan", "--json", os.path.join(fx, f)],
                                         capture_output=True, text=True, check=True).stdout)
platforms = [("linux-x86_64", "manylinux_2_28_x86_64", "libk_default.so"),
             ("linux-aarch64", "manylinux_2_28_aarch64", "libk_fam.so"),
             ("windows-x86_64", "win_amd64", "test.dll")]


def groups_stress():
    """(project, version, index id, variants' folder, pythons) per group."""
    pys = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp313t", "cp314", "cp314t", "cp315", "cp316"]
    release = 0
    while True:
        version = "%d.%d.%d" % (2, 100 + release // 4, release % 4)
        release += 1
        for v in ("cu126", "cu128", "cu129", "cu130"):
            yield "torch", version, v, v, pys


# torch's minor releases with their patch counts, and the CUDA variants of
# each (four, as download.pytorch.org keeps them).
STABLE = [("1.8", 2), ("1.9", 2), ("1.10", 3), ("1.11", 1), ("1.12", 2), ("1.13", 2),
          ("2.0", 2), ("2.1", 3), ("2.2", 3), ("2.3", 2), ("2.4", 2), ("2.5", 2),
          ("2.6", 1), ("2.7", 2), ("2.8", 1), ("2.9", 2), ("2.10", 1), ("2.11", 1)]
CUDAS = ["cu102", "cu111", "cu113", "cu116", "cu117", "cu118", "cu121", "cu124", "cu126", "cu128",
         "cu129", "cu130"]
PROJECTS = ("torch", "torchvision", "torchaudio")


def companion(project, version):
    """torchvision 0.(minor+15) for torch 2.minor (0.(minor+1) for 1.minor);
    torchaudio shares torch's version."""
    if project != "torchvision":
        return version
    major, minor, rest = version.split(".", 2)
    return "0.%d.%s" % (int(minor) + (15 if major == "2" else 1), rest)


def groups_pytorch():
    pys = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp313t", "cp314", "cp314t"]
    for i, (mm, patches) in enumerate(reversed(STABLE)):
        k = len(STABLE) - 1 - i  # a sliding window of four CUDA versions
        variants = CUDAS[min(k * len(CUDAS) // len(STABLE), len(CUDAS) - 4):][:4]
        for p in range(patches - 1, -1, -1):
            for project in PROJECTS:
                for v in variants:
                    yield project, companion(project, "%s.%d" % (mm, p)), v, v, pys
    day = datetime.date(2026, 11, 20)
    while True:
        for project in PROJECTS:
            version = companion(project, "2.12.0.dev%s" % day.strftime("%Y%m%d"))
            for v in ("cu126", "cu128", "cu129", "cu130"):
                yield project, version, v, "nightly/" + v, pys
        day -= datetime.timedelta(days=1)


written = 0
for project, version, v, folder, pys in (groups_pytorch() if mix == "pytorch" else groups_stress()):
    if written >= n:
        break
    for plat, tag, fixture in platforms:
        source = None
        for i, py in enumerate(pys):
            if written >= n:
                break
            fname = "%s-%s+%s-%s-%s-%s.whl" % (project, version, v, py, py, tag)
            url = "https://download.pytorch.org/whl/%s/%s" % (folder, fname.replace("+", "%2B"))
            key = hashlib.sha256(url.encode()).hexdigest()
            s = dict(scans[fixture])
            binaries = [dict(b, path="%s/lib/%s" % (project, os.path.basename(b["path"])))
                        for b in s["binaries"]]
            rec = dict(s, input=url, url=url, key=key, filename=fname, index=v, indexes=[v],
                       index_url="https://download.pytorch.org/whl/%s/" % folder, variant=v,
                       variant_source="label", index_sha256=key, sha256=key,
                       upload_time=None, requires_python=">=3.9", yanked=None,
                       record_version=1, status="scanned" if i == 0 else "inferred",
                       inferred_from=None if i == 0 else source, sha256_verified=False,
                       size=123456789, scanned_at="2026-11-%02d" % (1 + written % 20),
                       wheelarch_version="0.1.0", binaries=binaries,
                       wheel={"filename": fname, "project": project, "normalized_name": project,
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
print("wrote %d records (%s mix)" % (written, mix))
