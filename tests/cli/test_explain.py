#!/usr/bin/env python3
"""wheelarch explain on the texts people paste (tests/fixtures/error-texts/):
what it reads from each (messages, GPU, device code, driver, the installed
build's arch list), the installed build judged against that list, and the
answer that follows, which must be query's for that GPU and driver.

Usage: test_explain.py --wheelarch BIN --work DIR
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--wheelarch", required=True)
ap.add_argument("--work", required=True)
args = ap.parse_args()
c = watest.Checker()
TEXTS = os.path.join(HERE, "..", "fixtures", "error-texts")
os.makedirs(args.work, exist_ok=True)
empty = os.path.join(args.work, "empty-cache")
ENV = {k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")}


def explain(text, *argv):
    p = subprocess.run([args.wheelarch, "explain", "--cache", empty] + list(argv), input=text,
                       capture_output=True, text=True, timeout=60, env=ENV)
    return p


def explain_json(name, *argv):
    text = open(os.path.join(TEXTS, name)).read()
    p = explain(text, "--json", *argv)
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    read = json.loads(lines[0]) if lines else None
    answer = json.loads(lines[1]) if len(lines) > 1 else None
    return p, read, answer


def query(*argv):
    p = subprocess.run([args.wheelarch, "query", "--json", "--cache", empty, "--python", "any"] +
                       list(argv), capture_output=True, text=True, timeout=60, env=ENV)
    return json.loads(p.stdout) if p.stdout.strip() else None


def runs(a):
    return a and (a.get("recommendation") or a.get("fallback"))


# (file, messages it must hold, device, driver, installed verdict, query argv it equals)
CASES = [
    ("uv-14742-gtx-1080-ti.txt", {"not-compatible"}, "6.1", None, "unsupported",
     ["--gpu", "GeForce GTX 1080 Ti"]),
    ("mx330-no-kernel-image.txt", {"no-kernel-image", "nvidia-smi"}, "6.1", None, None,
     ["--gpu", "GeForce MX330"]),
    ("k40c-nvidia-smi.txt", {"nvidia-smi"}, "3.5", "470.256.02", None,
     ["--gpu", "Tesla K40c", "--driver", "470.256.02"]),
    ("ptx-unsupported-toolchain.txt", {"ptx-unsupported-toolchain", "nvidia-smi"}, "8.6",
     "535.104.05", None, ["--gpu", "GeForce RTX 3060", "--driver", "535.104.05"]),
    ("gt-710-too-old.txt", {"too-old"}, "3.5", None, None, ["--gpu", "GeForce GT 710"]),
    ("titan-x-capability-table.txt", {"capability-table"}, "5.2", None, "unsupported",
     ["--gpu", "GeForce GTX TITAN X"]),
    ("rocm-invalid-device-function.txt", {"invalid-device-function", "hsa-override"}, "gfx1031",
     None, None, ["--cc", "gfx1031"]),
]
for name, msgs, device, driver, installed, qargv in CASES:
    p, read, answer = explain_json(name)
    c.ok(p.returncode in (0, 1, 4), "%s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
    if not c.ok(read is not None and answer is not None, "%s: two JSON lines: %r" % (name, p.stdout[:300])):
        continue
    c.ok(msgs <= set(read["messages"]), "%s: messages %s hold %s" % (name, read["messages"], sorted(msgs)))
    c.eq(read["device"], device, "%s: the device code" % name)
    c.eq(read["driver"], driver, "%s: the driver" % name)
    if installed:
        c.eq((read["installed_verdict"] or {}).get("verdict"), installed,
             "%s: the installed build judged against its arch list %s" % (name, read["installed_arch_list"]))
    want = query(*qargv)
    got = runs(answer)
    exp = runs(want)
    c.eq(got and (got["index"], got["pin"]), exp and (exp["index"], exp["pin"]),
         "%s: the answer is query's for %s" % (name, " ".join(qargv)))
    if device == "3.5":
        c.eq((answer["gpu"]["last_driver_branch"] or {}).get("branch"), "R470",
             "%s: the Kepler GPU's drivers end at R470" % name)

# the warning's arch list: every target of it read
_, read, _ = explain_json("uv-14742-gtx-1080-ti.txt")
c.eq(read and read["installed_arch_list"],
     ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"], "the arch list as printed")
c.eq(read and read["gpu"], "NVIDIA GeForce GTX 1080 Ti", "the GPU's name as torch prints it")

# the same text as operands, and the text report
text = open(os.path.join(TEXTS, "uv-14742-gtx-1080-ti.txt")).read()
p = subprocess.run([args.wheelarch, "explain", "--cache", empty, text], capture_output=True, text=True,
                   timeout=60, env=ENV)
c.ok(p.returncode == 0 and "GPU: NVIDIA GeForce GTX 1080 Ti (compute capability 6.1)" in p.stdout and
     'pip install "torch==' in p.stdout and "whl/cu126" in p.stdout,
     "operands: read, and the cu126 command: %s" % p.stdout[:600])
c.ok("the installed build on this GPU: no: no code for 6.1" in p.stdout, "the installed build is judged")

# a message without a GPU says what to paste; a text with nothing known is a usage error
p = explain("RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.")
c.ok(p.returncode == 1 and "nvidia-smi --query-gpu=name,compute_cap" in p.stdout,
     "no GPU in the text: exit 1 and what to paste: %s" % p.stdout)
p = explain("hello world")
c.ok(p.returncode == 2 and "holds no message wheelarch knows" in p.stderr and len(p.stderr.splitlines()) <= 3,
     "nothing known: exit 2, one line: %r" % p.stderr)
# hostile bytes: control characters never reach the terminal raw
p = explain("\x1b[31mEvil\x1b[0m GPU with CUDA capability sm_61 is not compatible with the current PyTorch installation.")
c.ok("\x1b" not in p.stdout and "\x1b" not in p.stderr, "escape sequences are not echoed: %r" % p.stdout[:200])

c.done()
