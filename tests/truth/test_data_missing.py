#!/usr/bin/env python3
"""scripts/data-missing.py on the shipped data (nothing the build matrix
lists may be missing, torch 2.0 to the newest release) and on copies with a
variant or an arch row taken out (each must be named, exit 1).

Usage: test_data_missing.py --work DIR
"""
import argparse
import csv
import io
import os
import shutil
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--work", required=True)
ap.add_argument("--wheelarch")  # unused; the harness passes it to every test
args = ap.parse_args()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPT = os.path.join(ROOT, "scripts", "data-missing.py")
DATA = os.path.join(ROOT, "data")
shutil.rmtree(args.work, ignore_errors=True)
os.makedirs(args.work)

fails = []
passed = 0


def ok(cond, msg):
    global passed
    if cond:
        passed += 1
    else:
        fails.append(msg)
        print("FAIL: " + msg)


def run(data):
    return subprocess.run([sys.executable, SCRIPT, "--data", data], capture_output=True, text=True)


p = run(DATA)
ok(p.returncode == 0, "the shipped data lacks nothing the build matrix lists:\n" + p.stdout)
ok(p.stdout.rstrip().endswith(")") and "0 missing" in p.stdout, "a summary line: " + p.stdout[-200:])
matrix = list(csv.DictReader(open(os.path.join(DATA, "pytorch_build_matrix.csv"))))
ok(min(tuple(int(x) for x in m["release"].split(".")[:2]) for m in matrix) <= (2, 0),
   "the matrix starts at torch 2.0")


def edited(name, table, change):
    d = os.path.join(args.work, name)
    shutil.copytree(DATA, d)
    path = os.path.join(d, table)
    rows = list(csv.DictReader(open(path)))
    cols = list(rows[0].keys())
    rows = change(rows)
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    open(path, "w").write(out.getvalue())
    return d


def drop_variant(rows):
    for r in rows:
        if r["project"] == "torch" and r["release"] == "2.13" and r["platform"] == "linux-aarch64":
            r["variants"] = ";".join(v for v in r["variants"].split(";") if v != "cu129")
    return rows


p = run(edited("no-variant", "pytorch_releases.csv", drop_variant))
ok(p.returncode == 1 and "torch 2.13 linux-aarch64: cu129 is in the build matrix, not in pytorch_releases.csv"
   in p.stdout, "a variant taken out is named:\n" + p.stdout)

p = run(edited("no-arch", "pytorch_arch_lists.csv",
               lambda rows: [r for r in rows if not (r["project"] == "torch" and r["release"] == "2.10"
                                                     and r["variant"] == "cu129")]))
ok(p.returncode == 1 and "torch 2.10 linux-x86_64: cu129 has no arch list" in p.stdout
   and "torch 2.10 linux-aarch64: cu129 has no arch list" in p.stdout, "arch rows taken out are named:\n" + p.stdout)

p = run(edited("no-release", "pytorch_releases.csv",
               lambda rows: [r for r in rows if not (r["project"] == "torch" and r["release"] == "2.4"
                                                     and r["platform"] == "windows-x86_64")]))
ok(p.returncode == 1 and "torch 2.4 windows-x86_64: no row in pytorch_releases.csv" in p.stdout,
   "a release row taken out is named:\n" + p.stdout)

# a variant of one patch only (2.9.0's Windows cu129) must not be listed for
# the later patch: without the 2.9.1 row, the 2.9 row covers 2.9.1 too
p = run(edited("no-patch-row", "pytorch_releases.csv",
               lambda rows: [r for r in rows if not (r["project"] == "torch" and r["release"] == "2.9.1"
                                                     and r["platform"] == "windows-x86_64")]))
ok(p.returncode == 1 and "torch 2.9.1 windows-x86_64: cu129 is listed for this patch (pytorch_releases.csv row 2.9)"
   in p.stdout, "a variant of another patch is named:\n" + p.stdout)

print("%d passed, %d failed" % (passed, len(fails)))
sys.exit(1 if fails else 0)
