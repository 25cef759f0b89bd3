"""The seed cases of the answer engine as golden answers, text and JSON:
the sentences people act on, reviewed by hand when they change
(UPDATE_GOLDEN=1 rewrites tests/expected/answers/).  Shipped data only (an
empty database), and a fixed Python, so the answers do not depend on the
machine's python3."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
EXPECTED = os.path.join(HERE, "..", "expected", "answers")
update = os.environ.get("UPDATE_GOLDEN") == "1"
empty = os.path.join(args.work, "empty-cache")

# name: the query's arguments
CASES = {
    # Pascal with a CUDA 12.8 driver: cu126 carries sm_60/61; cu128 and
    # newer do not, and are "no", never "driver too old"
    "gtx-1080-ti-driver-570": ["--gpu", "GTX 1080 Ti", "--driver", "570.86.15"],
    # a laptop Pascal on torch 2.9 with a CUDA 13 driver
    "mx330-torch-2.9-driver-580": ["--gpu", "MX330", "--version", "2.9", "--driver", "580.65.06"],
    # Ampere on torch 1.7: only cu110 (1.7.1) has sm_80; 1.7.1 has no wheel
    # for Python 3.12: another Python is the change, named with its versions
    "a100-torch-1.7": ["--gpu", "A100", "--version", "1.7"],
    "a100-torch-1.7-python-3.9": ["--gpu", "A100", "--version", "1.7", "--python", "3.9"],
    # Kepler on Windows: the last code is 1.3.1 cu101, Python 3.5-3.7 only
    "tesla-k40c-windows": ["--gpu", "Tesla K40c", "--platform", "windows-x86_64"],
    # Blackwell with three drivers: too old for 12.0 at all, CUDA 12.8 only
    # (a driver update or torch 2.11 cu128, never a source build), CUDA 13
    "rtx-5090-driver-535": ["--gpu", "RTX 5090", "--driver", "535.104.05"],
    "rtx-5090-driver-570": ["--gpu", "RTX 5090", "--driver", "570.26"],
    "rtx-5090-driver-570-torch-2.6": ["--gpu", "RTX 5090", "--driver", "570.26", "--version", "2.6"],
    "rtx-5090-driver-580": ["--gpu", "RTX 5090", "--driver", "580.65.06"],
    # Hopper with a CUDA 12.2 driver: cu126 through minor-version
    # compatibility; PyPI's cu130 build needs 580
    "h100-driver-535": ["--gpu", "NVIDIA H100", "--driver", "535.104.05"],
    # Jetson: NVIDIA's own builds, not these wheels
    "jetson-agx-orin": ["--gpu", "Jetson AGX Orin", "--platform", "linux-aarch64"],
    # AMD: ROCm variants, no NVIDIA driver
    "rx-7900-xtx": ["--gpu", "RX 7900 XTX"],
}


def run(argv):
    full = [args.wheelarch, "query", "--cache", empty] + argv
    if "--python" not in argv:
        full += ["--python", "3.12"]
    if "--platform" not in argv:
        full += ["--platform", "linux-x86_64"]
    return subprocess.run(full, capture_output=True, text=True, timeout=60)


for name, argv in CASES.items():
    text, js = run(argv), run(argv + ["--json"])
    # the exit status: 0 the release asked about runs natively, 4 it runs
    # but not natively, 1 none of its builds runs as things are
    want = watest.query_exit(json.loads(js.stdout or "null") or {})
    c.eq((text.returncode, js.returncode), (want, want), "%s: exit (%s)" % (name, text.stderr.strip()))
    got = {"txt": text.stdout, "json": json.dumps(json.loads(js.stdout or "null"), indent=1, sort_keys=True) + "\n"}
    for ext, body in got.items():
        path = os.path.join(EXPECTED, "%s.%s" % (name, ext))
        if update:
            os.makedirs(EXPECTED, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(body)
            continue
        want = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if not c.ok(body == want, "%s.%s differs from tests/expected/answers (UPDATE_GOLDEN=1 after review)" % (name, ext)):
            sys.stdout.writelines(watest.short_diff(want, body))

# The sentences themselves, held apart from the goldens: what blocks is
# named, and the wrong ways of the seeds never come back.
def q(argv):
    p = run(argv + ["--json"])
    return json.loads(p.stdout)


o = q(CASES["gtx-1080-ti-driver-570"])
labels = {v["variant"]: v["verdict"] for v in o["variants"]}
c.ok(labels.get("cu130") == "unsupported" and labels.get("cu132") == "unsupported",
     "1080 Ti + 570: cu130/cu132 have no sm_6x: 'no', not 'driver too old': %s" % labels)
o = q(["--gpu", "Tesla K40", "--driver", "470.256.02", "--python", "any"])
c.ok(all(v["verdict"] != "driver-too-old" for v in o["variants"]), "K40 + 470: no 'driver too old' on torch 2.14")
o = q(CASES["h100-driver-535"])
c.ok(o["pypi"]["runs"] is False and "580" in o["pypi"]["reason"], "H100 + 535: plain pip (cu130) needs 580: %s" % o["pypi"])
o = q(CASES["rtx-5090-driver-570-torch-2.6"])
kinds = [x["kind"] for x in o["change"]]
c.ok(o["way_forward"] is None and kinds[:1] == ["driver"] and "release" in kinds,
     "5090 + 570 on 2.6: a driver update first, then torch 2.11 cu128; never a source build: %s" % kinds)
c.eq(o["newest_with_code"]["release"], "2.14", "5090: torch 2.14 has code for 12.0")
o = q(CASES["a100-torch-1.7"])
c.ok(o["recommendation"] is None and o["change"] and o["change"][0]["kind"] == "python"
     and "3.9" in o["change"][0]["python_versions"], "A100 on 1.7 with Python 3.12: another Python first: %s" % o["change"][:1])
o = q(CASES["a100-torch-1.7-python-3.9"])
c.eq(o["recommendation"]["commands"].get("pip_with_companions"),
     'pip install "torch==1.7.1" "torchvision==0.8.2" "torchaudio==0.7.2" --index-url https://download.pytorch.org/whl/cu110',
     "torch 1.7.1 with its torchvision and torchaudio, pinned exactly")
o = q(CASES["rtx-5090-driver-580"])
k = o["recommendation"]["companions"]
c.ok(k["torchvision"] == "0.29.*" and k["torchaudio"] is None and "2.11" in k["note"],
     "torch 2.14: torchvision 0.29.*, no torchaudio (it stopped at 2.11), said so: %s" % k)
# An exact patch asked for is judged by its own Python set: 1.7.0 has
# wheels for 3.6-3.8 (1.7.1 added 3.9), so no `torch==1.7.0` for 3.9.
o = q(["--cc", "8.6", "--driver", "595.45.04", "--version", "1.7.0", "--python", "3.9"])
rec = o["recommendation"] or o["fallback"] or {}
c.ok(rec.get("pin") != "1.7.0" and o["variants"][-1]["python_wheel"] is False,
     "torch 1.7.0 for Python 3.9: no command for it: %s" % rec.get("pin"))
# What blocks first is named first: Python 3.8 before the driver.
o = q(["--gpu", "GTX 1080 Ti", "--driver", "470.256.02", "--python", "3.8"])
c.ok("has no wheel for Python 3.8 (and needs a newer driver" in o["fallback"]["reason"],
     "1080 Ti + 470 + 3.8: the fallback names Python first: %s" % o["fallback"]["reason"])
# Rows of a platform that does not apply say so, whatever their code.
o = q(["--gpu", "Jetson AGX Orin", "--driver", "450.80.02", "--version", "1.13", "--platform", "windows-x86_64"])
c.ok(all(v["label"] == "not for this system" and v["blocked_by"] == "platform" for v in o["variants"]),
     "Jetson on Windows: every row 'not for this system', none 'driver too old'")
o = q(CASES["tesla-k40c-windows"])
c.ok(o["recommendation"] is None and o["fallback"] is None, "K40c on Windows, Python 3.12: no command printed")
sys.exit(c.done())
