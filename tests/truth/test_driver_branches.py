#!/usr/bin/env python3
"""Each GPU's last NVIDIA driver branch (data/cuda_arch_support.csv, per
compute capability) against NVIDIA's own per-branch supported-GPU lists as
Debian's nvidia-detect ships them (tests/fixtures/nvidia-driver-lists.tsv):
for every GPU of data/gpus.csv whose source names its PCI ids,

  - a GPU in the R390 list and not in R470's ends at R390;
  - a GPU in the R470 list and not in R535's ends at R470;
  - a GPU in the R535 list ends at R535 or later (580 for Maxwell to Volta,
    none for Turing on);

and `query --json` says the same branch for it (gpu.last_driver_branch),
with no driver it requires or lists beyond it.

Usage: test_driver_branches.py --wheelarch BIN --work DIR
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--wheelarch", required=True)
ap.add_argument("--work", required=True)
args = ap.parse_args()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
DATA = os.path.join(ROOT, "data")

fails = []
passed = 0


def ok(cond, msg):
    global passed
    if cond:
        passed += 1
    else:
        fails.append(msg)
        print("FAIL: " + msg)


lists = {}
with open(os.path.join(ROOT, "tests", "fixtures", "nvidia-driver-lists.tsv")) as f:
    rows = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#")]
for br, pci in rows[1:]:
    lists.setdefault(int(br), set()).add(pci.upper())

ends = {}
with open(os.path.join(DATA, "cuda_arch_support.csv"), newline="") as f:
    for r in csv.DictReader(f):
        if r["last_driver_branch"]:
            ends[r["compute_capability"]] = (int(r["last_driver_branch"]), int(r["dropped_in_branch"]))

# Where the per-branch lists leave a GPU out that later drivers still run:
# the Tesla P4 (PCI 1BB3) is missing from the R535 README's list that Debian
# copies, yet NVIDIA's data-centre driver documentation for R535 to R580
# lists it among the supported Pascal products.
LIST_OMISSIONS = {"1BB3": 535}
for pci, br in LIST_OMISSIONS.items():
    lists[br].add(pci)

checked = {390: 0, 470: 0, 535: 0}
samples = {}
with open(os.path.join(DATA, "gpus.csv"), newline="") as f:
    for g in csv.DictReader(f):
        cc = g["compute_capability"]
        if g["other_cc"]:
            continue  # sold with chips of several capabilities: the name does not decide
        pcis = set()
        for pci in re.findall(r"PCI ([0-9A-F]{4}(?:,[0-9A-F]{4})*)", g["source"]):
            pcis.update(pci.split(","))
        if not pcis:
            continue
        # the newest list that carries any chip of the name
        newest = max((b for b in (390, 470, 535) if pcis & lists[b]), default=None)
        if newest is None:
            continue
        end = ends.get(cc)
        last = end[0] if end else None
        where = "%s (%s, PCI %s): table says %s, the lists R%d" % (
            g["name"], cc, ",".join(sorted(pcis)), last, newest)
        if newest < 535:
            ok(last == newest, where)
        else:
            ok(last is None or last >= 535, where + " or later")
        checked[newest] += 1
        samples.setdefault(last, g["name"])
for br, n in checked.items():
    ok(n > 0, "no GPU of the table checked against the R%d list" % br)

# The engine says the same, and asks for no driver beyond it.
for last, name in sorted(samples.items(), key=lambda x: x[0] or 0):
    for platform in ("linux-x86_64", "windows-x86_64"):
        p = subprocess.run([args.wheelarch, "query", "--gpu", name, "--python", "any", "--platform",
                            platform, "--json"], capture_output=True, text=True)
        # 0: runs, 1: nothing runs as things are, 4: not natively
        ok(p.returncode in (0, 1, 4), "query %s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
        if p.returncode not in (0, 1, 4):
            continue
        a = json.loads(p.stdout)
        b = a["gpu"]["last_driver_branch"]
        ok((b and b["branch"]) == ("R%d" % last if last else None),
           "%s: last_driver_branch %r, the table %r" % (name, b, last))
        if not last:
            continue
        dropped = ends[a["gpu"]["compute_capability"]][1]
        drivers = []
        for k in ("newest_that_runs", "newest_with_code"):
            x = a.get(k)
            if x:
                drivers += [x.get("min_driver"), x.get("full_driver")]
        for x in a.get("by_driver") or []:
            drivers.append(x.get("min_driver"))
        for x in a.get("change") or []:
            drivers.append(x.get("min_driver"))
        for d in drivers:
            if d:
                ok(int(d.split(".")[0]) < dropped,
                   "%s on %s: driver %s asked of a GPU whose drivers end at R%d" % (name, platform, d, last))

print("%d passed, %d failed (GPUs checked against R390 %d, R470 %d, R535 %d)" %
      (passed, len(fails), checked[390], checked[470], checked[535]))
sys.exit(1 if fails else 0)
