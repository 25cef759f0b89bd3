#!/usr/bin/env python3
"""Lists the torch builds PyTorch's build matrix names that the data lacks.

Usage: scripts/data-missing.py [--data DIR] [--from-test-infra GIT_DIR]

data/pytorch_build_matrix.csv records, per torch release (2.0 on) and
platform, the CUDA and ROCm versions the release was built for, as read from
the build matrix at the release branch (its file and commit are named per
row).  This script checks, for every release and platform from 2.0 to the
newest in that file:

  - every variant it names is listed in data/pytorch_releases.csv's
    `variants` for that release and platform;
  - every such torch variant has a row in data/pytorch_arch_lists.csv (its
    arch list), for the release or a patch of it;
  - a variant that pytorch_releases.csv lists and the matrix does not is
    reported as a note (the data may know a build the matrix file does not
    show, e.g. a CUDA added to one channel only; the row's source must say
    so).

Builds a vendor publishes on its own index (data/vendor_indexes.csv:
NVIDIA's Windows on Arm torch) are not PyTorch's and are left out: no build
matrix of PyTorch's lists them.

It prints one line per finding and exits 1 when anything is missing, 0 when
nothing is.

--from-test-infra GIT_DIR prints, instead, the CUDA/ROCm lists that
pytorch/test-infra's tools/scripts/generate_binary_build_matrix.py names at
each release/X.Y branch of that git directory (the `test` channel, which a
release branch builds, with 12.9 added where the branch appends it to the
Linux test channel), as CSV rows to compare with the shipped file.
"""
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def ver(s):
    return tuple(int(x) for x in re.findall(r"\d+", s))


def variant_of(kind, v):
    return ("cu" + v.replace(".", "")) if kind == "cuda" else "rocm" + v


def check(data):
    matrix = list(csv.DictReader(open(os.path.join(data, "pytorch_build_matrix.csv"))))
    releases = [r for r in csv.DictReader(open(os.path.join(data, "pytorch_releases.csv")))
                if r["project"] == "torch"]
    arch = [r for r in csv.DictReader(open(os.path.join(data, "pytorch_arch_lists.csv")))
            if r["project"] == "torch"]
    # builds a vendor publishes on its own index are not PyTorch's, and no
    # build matrix of PyTorch's lists them
    vendor = set()
    vpath = os.path.join(data, "vendor_indexes.csv")
    if os.path.exists(vpath):
        for r in csv.DictReader(open(vpath)):
            if r["project"] == "torch":
                vendor.add((".".join(r["version"].split(".")[:2]), r["platform"], r["variant"]))
    have = {}      # (X.Y, platform) -> the variants of all its patches
    patches = {}   # (X.Y, platform) -> [(version, variants)] as written
    for r in releases:
        rel = ".".join(r["release"].split(".")[:2])
        vs = {v for v in r["variants"].split(";") if v and (rel, r["platform"], v) not in vendor}
        have.setdefault((rel, r["platform"]), set()).update(vs)
        patches.setdefault((rel, r["platform"]), []).append((r["release"], vs))
    rows = set()
    for r in arch:
        rel = ".".join(r["release"].split(".")[:2])
        rows.add((rel, r["variant"], r["platform"]))
    missing = notes = 0
    seen = set()

    # A matrix row of one patch ("2.9.1"): the release row covering that
    # patch (the newest at or before it) must list exactly its variants.
    for m in matrix:
        rel = m["release"]
        if rel.count(".") != 2 or ver(rel) < (2, 0):
            continue
        key = (".".join(rel.split(".")[:2]), m["platform"])
        rows_of = [p for p in patches.get(key, []) if p[0].count(".") == 1 or ver(p[0]) <= ver(rel)]
        if not rows_of:
            continue
        at = max(rows_of, key=lambda p: ver(p[0]) + ((0,) if p[0].count(".") == 1 else ()))
        want = {variant_of("cuda", v) for v in m["cuda"].split(";") if v}
        want |= {variant_of("rocm", v) for v in m["rocm"].split(";") if v}
        for v in sorted(want - at[1]):
            print("torch %s %s: %s is in the build matrix for this patch, not in pytorch_releases.csv's "
                  "row %s" % (rel, m["platform"], v, at[0]))
            missing += 1
        for v in sorted(at[1] - want):
            print("torch %s %s: %s is listed for this patch (pytorch_releases.csv row %s), "
                  "not in the build matrix" % (rel, m["platform"], v, at[0]))
            missing += 1
    # A matrix row may be of one patch ("2.12.1": a variant added for that
    # patch); the data keeps a release's variants on its X.Y row (a
    # release pin picks whichever patch the index has).  The variants of a
    # release are the union of its patches'.
    merged = {}
    for m in matrix:
        rel = ".".join(m["release"].split(".")[:2])
        k = (rel, m["platform"])
        if k in merged:
            for col in ("cuda", "rocm"):
                vs = merged[k][col].split(";") + m[col].split(";")
                merged[k][col] = ";".join(sorted({v for v in vs if v}, key=ver))
            merged[k]["notes"] += " | " + m["notes"]
        else:
            merged[k] = dict(m, release=rel)
    for m in merged.values():
        rel, plat = m["release"], m["platform"]
        if ver(rel) < (2, 0):
            continue
        seen.add((rel, plat))
        want = [variant_of("cuda", v) for v in m["cuda"].split(";") if v]
        want += [variant_of("rocm", v) for v in m["rocm"].split(";") if v]
        got = have.get((rel, plat))
        if got is None:
            print("torch %s %s: no row in pytorch_releases.csv (the matrix lists %s)"
                  % (rel, plat, ";".join(want) or "no GPU variant"))
            missing += 1
            continue
        for v in want:
            if v not in got:
                print("torch %s %s: %s is in the build matrix, not in pytorch_releases.csv"
                      % (rel, plat, v))
                missing += 1
            if (rel, v, plat) not in rows:
                print("torch %s %s: %s has no arch list in pytorch_arch_lists.csv"
                      % (rel, plat, v))
                missing += 1
        for v in sorted(got - set(want)):
            if (rel, v, plat) not in rows:
                print("torch %s %s: %s is listed as published but has no arch list"
                      % (rel, plat, v))
                missing += 1
            else:
                print("note: torch %s %s: %s is in the data, not in the matrix row (%s)"
                      % (rel, plat, v, m["notes"] or "no note"))
                notes += 1
    for (rel, plat) in sorted(have, key=lambda k: (ver(k[0]), k[1])):
        if ver(rel) >= (2, 0) and (rel, plat) not in seen and have[(rel, plat)]:
            print("torch %s %s: in pytorch_releases.csv but not in pytorch_build_matrix.csv"
                  % (rel, plat))
            missing += 1
    newest = max((m["release"] for m in matrix), key=ver)
    print("%d missing, %d notes (torch 2.0 to %s)" % (missing, notes, newest))
    return 1 if missing else 0


def from_test_infra(git_dir):
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["release", "platform", "cuda", "rocm", "file", "commit", "notes"])
    refs = subprocess.run(["git", "-C", git_dir, "for-each-ref", "--format=%(refname:short)",
                           "refs/heads/release/"], capture_output=True, text=True).stdout.split()
    path = "tools/scripts/generate_binary_build_matrix.py"
    refs = [r for r in refs if re.fullmatch(r"release/\d+\.\d+", r)]
    for ref in sorted(refs, key=ver):
        rel = ref.split("/")[-1]
        commit = subprocess.run(["git", "-C", git_dir, "rev-parse", ref],
                                capture_output=True, text=True).stdout.strip()
        text = subprocess.run(["git", "-C", git_dir, "show", "%s:%s" % (ref, path)],
                              capture_output=True, text=True).stdout

        def channel(name, key="test"):
            m = re.search(name + r"\s*=\s*\{(.*?)\n\}", text, re.S)
            if not m:
                return None
            c = re.search(r'"%s"\s*:\s*\[([^\]]*)\]' % key, m.group(1))
            return re.findall(r'"([\d.]+)', c.group(1)) if c else None

        cuda = channel("CUDA_ARCHES_DICT") or []
        rocm = channel("ROCM_ARCHES_DICT") or []
        a64 = channel("CUDA_AARCH64_ARCHES_DICT")
        if a64 is None:
            m = re.search(r"CUDA_AARCH64_ARCHES\s*=\s*\[([^\]]*)\]", text)
            a64 = re.findall(r'"([\d.]+)', m.group(1)) if m else []
        linux_129 = bool(re.search(r'CUDA_ARCHES(\.append\("12\.9"\)| = CUDA_ARCHES \+ \["12\.9"\])',
                                   text))
        no_win = re.search(r"CUDA_ARCHES_NO_WINDOWS[^=]*=\s*\[([^\]]*)\]", text)
        no_win = re.findall(r'"([\d.]+)', no_win.group(1)) if no_win else []
        lin = cuda + (["12.9"] if linux_129 and "12.9" not in cuda else [])
        a64 = a64 + (["12.9"] if linux_129 and "12.9" not in a64 and a64 else [])
        src = "pytorch/test-infra:" + path
        note = "test channel" + ("; 12.9 appended for Linux" if linux_129 else "")
        out.writerow([rel, "linux-x86_64", ";".join(lin), ";".join(rocm), src, commit, note])
        out.writerow([rel, "linux-aarch64", ";".join(sorted(set(a64), key=ver)), "", src, commit,
                      note])
        out.writerow([rel, "windows-x86_64", ";".join(v for v in cuda if v not in no_win), "",
                      src, commit, "test channel"])
    return 0


def main(argv):
    data = os.path.join(HERE, "..", "data")
    git_dir = None
    i = 1
    while i < len(argv):
        if argv[i] == "--data" and i + 1 < len(argv):
            data, i = argv[i + 1], i + 2
        elif argv[i] == "--from-test-infra" and i + 1 < len(argv):
            git_dir, i = argv[i + 1], i + 2
        else:
            sys.stderr.write(__doc__)
            return 2
    return from_test_infra(git_dir) if git_dir else check(data)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
