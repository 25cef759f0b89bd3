"""wheelarch query without --gpu/--cc: this machine's GPUs and driver, from a
stand-in libnvidia-ml.so.1 (tests/host/fake_nvml.c, on LD_LIBRARY_PATH),
fixture /proc and /sys trees (WHEELARCH_SYSROOT), a stand-in nvidia-smi,
and the overrides WHEELARCH_GPUS and WHEELARCH_DRIVER.  Several GPUs: one
answer that runs on all of them, naming the GPU that decided."""
import json
import os
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args(lambda ap: ap.add_argument("--nvml-dir", required=True))
c = watest.Checker()
W = args.work
EMPTY = os.path.join(W, "empty-cache")  # only the shipped declared data
NOWHERE = os.path.join(W, "no-nvml")     # a folder without libnvidia-ml.so.1
os.makedirs(NOWHERE)


# An answer's exit status (0 native, 4 not natively, 1 nothing of the
# release runs): any of them is an answer here.
ANSWERED = (0, 1, 4)


def query(*argv, env=None, expect=ANSWERED, as_json=True, cache=EMPTY):
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("WHEELARCH_", "FAKE_NVML_", "HSA_")) and k != "LD_LIBRARY_PATH"}
    # by default: no NVML, no nvidia-smi, an empty machine
    e.update(LD_LIBRARY_PATH=NOWHERE, WHEELARCH_NVIDIA_SMI=os.path.join(W, "no-smi"),
             WHEELARCH_SYSROOT=os.path.join(W, "empty-root"))
    e.update(env or {})
    cmd = [args.wheelarch, "query", "--cache", cache, "--platform", "linux-x86_64"] + list(argv)
    if as_json:
        cmd.append("--json")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=e)
    want = expect if isinstance(expect, tuple) else (expect,)
    c.ok(p.returncode in want, "query %s with %s: exit %d, want %s: %s" % (
        " ".join(argv), {k: v for k, v in (env or {}).items()}, p.returncode, want, p.stderr.strip()))
    return (json.loads(p.stdout) if as_json and p.returncode in ANSWERED and p.stdout.strip() else None), p


def nvml(gpus, driver="570.86.15", cuda="12080", **more):
    env = {"LD_LIBRARY_PATH": args.nvml_dir, "FAKE_NVML_GPUS": gpus, "FAKE_NVML_DRIVER": driver,
           "FAKE_NVML_CUDA": cuda}
    env.update(more)
    return env


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# ---- NVML: one GPU -------------------------------------------------------------
o, p = query("--version", "2.8", env=nvml("NVIDIA GeForce GTX 1080 Ti:6.1"))
if o:
    d = o["detected"]
    c.eq((d["driver"], d["driver_cuda"]), ("570.86.15", "12.8"), "driver and its CUDA from NVML")
    c.eq([(g["name"], g["code"], g["via"]) for g in d["gpus"]],
         [("NVIDIA GeForce GTX 1080 Ti", "6.1", "NVML")], "the device from NVML")
    c.eq(o["gpu"]["name"], "GeForce GTX 1080 Ti", "NVML's name found in the GPU table")
    c.eq(o["driver"]["version"], "570.86.15", "the detected driver judges the variants")
    c.eq(o["recommendation"]["index"], "cu126", "1080 Ti + 570 + torch 2.8: cu126, as with --gpu")
_, p = query("--version", "2.8", env=nvml("NVIDIA GeForce GTX 1080 Ti:6.1;NVIDIA GeForce GTX 1080 Ti:6.1"),
             as_json=False)
first = p.stdout.splitlines()[0] if p.stdout else ""
c.eq(first, "detected: 2 \u00d7 NVIDIA GeForce GTX 1080 Ti (6.1) via NVML, driver 570.86.15 (CUDA 12.8)",
     "what was detected and how, first")

# ---- NVML: several GPUs ---------------------------------------------------------
mixed = nvml("NVIDIA GeForce GTX 1080 Ti:6.1;NVIDIA GeForce RTX 2080:7.5", driver="575.51.03", cuda="12090")
o, _ = query("--version", "2.8", env=mixed)
if o:
    c.eq([(g["label"], g["count"]) for g in o["gpus"]],
         [("NVIDIA GeForce GTX 1080 Ti (6.1)", 1), ("NVIDIA GeForce RTX 2080 (7.5)", 1)], "both GPUs judged")
    own = [g["result"]["recommendation"]["index"] for g in o["gpus"]]
    c.eq(own[0], "cu126", "the 1080 Ti alone: cu126")
    c.ok(own[1] != "cu126", "the 2080 alone: a newer CUDA (%s)" % own[1])
    c.eq(o["recommendation"]["index"], "cu126", "the machine: the variant that runs on both")
    c.eq(o["decided_by"], "NVIDIA GeForce GTX 1080 Ti (6.1)", "the 1080 Ti decided")
    c.ok("no code for 6.1" in o["reason"], "and why: " + o["reason"])
o, _ = query("--version", "2.8", "--gpu-index", "1", env=mixed)
if o:
    c.eq(o["gpu"]["compute_capability"], "7.5", "--gpu-index 1: the second GPU alone")
    c.ok(o["recommendation"]["index"] != "cu126", "and its own best variant")
_, p = query("--gpu-index", "2", env=mixed, expect=2, as_json=False)
c.ok("--gpu-index wants 0 to 1" in p.stderr, "an index past the GPUs: " + p.stderr.strip())
o, _ = query("--version", "2.8", env=nvml("NVIDIA GeForce GTX 1080 Ti:6.1;NVIDIA GeForce RTX 5090:12.0",
                                            driver="575.51.03", cuda="12090"))
if o:
    c.eq((o["recommendation"], o["decided_by"]), (None, None), "6.1 with 12.0: no torch 2.8 variant runs on both")
    c.ok("--gpu-index" in o["reason"], "it says how to answer for one: " + o["reason"])

o, _ = query("--driver", "580.82.07", env=nvml("NVIDIA GeForce RTX 3090:8.6;NVIDIA H100:9.0"))
if o:
    own = {g["result"]["recommendation"]["index"] for g in o["gpus"]}
    c.eq({o["recommendation"]["index"]}, own,
         "two GPUs that agree: the machine's answer is theirs, within what the driver supports (%s)" % own)

# ---- without NVML: /proc and nvidia-smi -------------------------------------------
root = os.path.join(W, "root-nvidia")
write(os.path.join(root, "proc/driver/nvidia/version"),
      "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.51.03  Release Build  "
      "(dvs-builder@U16-I3-B03-4-3)  Tue Apr 22 18:58:16 UTC 2025\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
smi = os.path.join(W, "nvidia-smi")
write(smi, "#!/bin/sh\n"
      "case \"$*\" in *--query-gpu=name,compute_cap,driver_version*--format=csv,noheader*)\n"
      "  echo 'NVIDIA GeForce RTX 4090, 8.9, 575.51.03'; echo 'NVIDIA GeForce RTX 4090, 8.9, 575.51.03';;\n"
      "*) exit 9;; esac\n")
os.chmod(smi, os.stat(smi).st_mode | stat.S_IXUSR)
o, p = query("--version", "2.8", env={"WHEELARCH_SYSROOT": root, "WHEELARCH_NVIDIA_SMI": smi})
if o:
    d = o["detected"]
    c.eq([(g["code"], g["via"]) for g in d["gpus"]], [("8.9", "nvidia-smi")] * 2, "devices from nvidia-smi")
    c.eq(d["driver"], "575.51.03", "the driver from /proc/driver/nvidia/version")
    c.eq(o["gpu"]["compute_capability"], "8.9", "two of one GPU: one answer")
odd = os.path.join(W, "odd-smi")
write(odd, "#!/bin/sh\nprintf 'NVIDIA GeForce RTX 5090 \\351, 12.0, 580.82.07\\n'\n"
      "printf '%0600d, 12.0, 580.82.07\\n' 0\n"
      "echo 'NVIDIA GeForce GTX 1080 Ti, 6.1, 580.82.07'\n")
os.chmod(odd, os.stat(odd).st_mode | stat.S_IXUSR)
o, p = query("--version", "2.8", env={"WHEELARCH_SYSROOT": root, "WHEELARCH_NVIDIA_SMI": odd})
if o:
    c.eq([g["name"] for g in o["detected"]["gpus"]], ["NVIDIA GeForce RTX 5090 ?", "NVIDIA GeForce GTX 1080 Ti"],
         "a name that is not ASCII is made printable; an overlong line is no GPU")
    c.ok(o.get("reason"), "the machine's answer has its reason")
o, _ = query("--version", "2.8", env={"WHEELARCH_SYSROOT": root, "WHEELARCH_NVIDIA_SMI": smi,
                                      "LD_LIBRARY_PATH": args.nvml_dir, "FAKE_NVML_FAIL": "init"})
if o:
    c.eq(o["detected"]["gpus"][0]["via"], "nvidia-smi", "NVML present but failing: nvidia-smi instead")

# ---- AMD: the KFD topology ------------------------------------------------------------
amd = os.path.join(W, "root-amd")
nodes = os.path.join(amd, "sys/class/kfd/kfd/topology/nodes")
write(os.path.join(nodes, "0/properties"), "cpu_cores_count 16\nsimd_count 0\ngfx_target_version 0\n")
write(os.path.join(nodes, "0/name"), "\n")
write(os.path.join(nodes, "1/properties"), "cpu_cores_count 0\nsimd_count 192\ngfx_target_version 110000\n")
write(os.path.join(nodes, "1/name"), "gfx1100\n")
write(os.path.join(nodes, "2/properties"), "cpu_cores_count 0\nsimd_count 416\ngfx_target_version 90010\n")
write(os.path.join(nodes, "2/name"), "gfx90a\n")
write(os.path.join(amd, "opt/rocm/.info/version"), "6.4.1-123\n")
o, p = query("--version", "2.9", "--gpu-index", "0", env={"WHEELARCH_SYSROOT": amd})
if o:
    d = o["detected"]
    c.eq([(g["code"], g["via"]) for g in d["gpus"]], [("gfx1100", "KFD topology"), ("gfx90a", "KFD topology")],
         "two AMD GPUs, the CPU node left out")
    c.eq(d["rocm"], "6.4.1", "the installed ROCm")
    c.eq(o["gpu"]["gfx"], "gfx1100", "--gpu-index 0: the gfx1100")

# xnack: the scanned rocm6.4 torch carries gfx90a:xnack- code, which a gfx90a
# runs in its default mode (off) but not with HSA_XNACK=1.
SITEDB = watest.site_db(args)
mi = os.path.join(W, "root-mi250")
write(os.path.join(mi, "sys/class/kfd/kfd/topology/nodes/1/properties"), "gfx_target_version 90010\n")
write(os.path.join(mi, "sys/class/kfd/kfd/topology/nodes/1/name"), "gfx90a\n")


def rocm64(env):
    o, _ = query("--version", "2.9.0", env=env, cache=SITEDB)
    return ({x["variant"]: x["verdict"] for x in o["variants"]}.get("rocm6.4"), o["gpu"]["gfx_target"]) if o else None


c.eq(rocm64({"WHEELARCH_SYSROOT": mi}), ("native", "gfx90a:sramecc+:xnack-"), "gfx90a, xnack off by default: native")
on = rocm64({"WHEELARCH_SYSROOT": mi, "HSA_XNACK": "1"})
c.eq(on and on[1], "gfx90a:sramecc+:xnack+", "HSA_XNACK=1: the GPU runs with xnack on")
c.ok(on and on[0] != "native", "and xnack- code does not run natively then: %s" % (on,))
named = rocm64({"WHEELARCH_GPUS": "gfx90a", "HSA_XNACK": "1"})
c.eq(named and named[1], "gfx90a:sramecc+:xnack+", "HSA_XNACK=1 applies to a GPU named in WHEELARCH_GPUS too")
c.eq(rocm64({"WHEELARCH_GPUS": "gfx90a"}), ("native", "gfx90a:sramecc+:xnack-"), "and without it, the default mode")

# ---- nothing, and the overrides ---------------------------------------------------
_, p = query(expect=2, as_json=False)
c.ok("no GPU found on this machine" in p.stderr and "WHEELARCH_GPUS" in p.stderr,
     "no GPU: says so, and how to name one: " + p.stderr.strip())
o, _ = query("--version", "2.8", env=dict(nvml("NVIDIA GeForce RTX 5090:12.0"), WHEELARCH_GPUS="GTX 1080 Ti,6.1",
                                          WHEELARCH_DRIVER="570.86.15"))
if o:
    c.eq(o["gpu"]["name"], "GeForce GTX 1080 Ti", "WHEELARCH_GPUS wins over NVML; names and codes mix")
    c.eq([g["via"] for g in o["detected"]["gpus"]], ["WHEELARCH_GPUS"] * 2, "said so")
    c.eq(o["driver"]["version"], "570.86.15", "WHEELARCH_DRIVER")
_, p = query(env={"WHEELARCH_GPUS": "6.1,,7.5"}, expect=2, as_json=False)
c.ok("WHEELARCH_GPUS" in p.stderr and "empty" in p.stderr, "an empty entry is refused: " + p.stderr.strip())
o, _ = query("--version", "2.8", "--gpu", "1080 ti", "--gpu", "rtx 2080")
if o:
    c.eq(len(o["gpus"]), 2, "--gpu repeated: a machine of those GPUs")
    c.ok("detected" not in o, "nothing detected when the GPUs are given")
c.done()
