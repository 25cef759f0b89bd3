"""A small database for the site tests, made by a real crawl: wheels built
from the nvcc fixtures, laid out like download.pytorch.org/whl/, served on
127.0.0.1 and read with `wheelarch crawl`.

    torch 2.8.0  cu126 linux-x86_64 (2 wheels), windows-x86_64; cu128 linux-x86_64
    torch 2.9.0  cu128 linux-x86_64 (2 wheels); cu130 linux-x86_64, linux-aarch64; cpu
    torchvision 0.24.0  cu130 linux-x86_64

    torch 2.9.0  rocm6.3 (generic targets), rocm6.4 (zstd bundles) linux-x86_64

libk_default.so (sm_75 ... sm_120, compute_120) and libk_two.so (sm_80,
sm_86, sm_90a in 1 of 2 modules) have code for 8.6; no fixture has code
for 6.1 (nvcc 13 cannot build it).  libhip_generic.so has gfx9-generic,
gfx10-3-generic, gfx11-generic, gfx12-generic; libhip_ccob.so gfx90a:xnack-,
gfx942, gfx1100, gfx1201."""
import json
import os
import subprocess

import pyindex
import watest

LINUX = "manylinux_2_28_x86_64"
ARM = "manylinux_2_28_aarch64"
WHEELS = [
    # (index id, project, version+label, python tags, platform, [(member, fixture)])
    ("cu126", "torch", "2.8.0+cu126", ["cp312", "cp313"], LINUX, [("torch/lib/libtorch_cuda.so", "libk_default.so")]),
    ("cu126", "torch", "2.8.0+cu126", ["cp312"], "win_amd64", [("torch/lib/torch_cuda.dll", "test.dll")]),
    ("cu128", "torch", "2.8.0+cu128", ["cp312"], LINUX, [("torch/lib/libtorch_cuda.so", "libk_fam.so")]),
    ("cu128", "torch", "2.9.0+cu128", ["cp312", "cp313"], LINUX, [("torch/lib/libtorch_cuda.so", "libk_two.so")]),
    ("cu130", "torch", "2.9.0+cu130", ["cp312"], LINUX, [("torch/lib/libtorch_cuda.so", "libk_default.so")]),
    ("cu130", "torch", "2.9.0+cu130", ["cp312"], ARM, [("torch/lib/libtorch_cuda.so", "libk_fam.so")]),
    ("cpu", "torch", "2.9.0+cpu", ["cp312"], LINUX, [("torch/lib/libtorch_cpu.so", "nogpu.so")]),
    ("cu130", "torchvision", "0.24.0+cu130", ["cp312"], LINUX, [("torchvision/_C.so", "libk_two.so")]),
    # ROCm: HIP fat binaries built by clang (tests/fixtures/hip).
    ("rocm6.3", "torch", "2.9.0+rocm6.3", ["cp312"], LINUX, [("torch/lib/libtorch_hip.so", "../hip/libhip_generic.so")]),
    ("rocm6.4", "torch", "2.9.0+rocm6.4", ["cp312"], LINUX, [("torch/lib/libtorch_hip.so", "../hip/libhip_ccob.so")]),
]


def make_index(root):
    """Writes the wheels and PEP 503 pages under root/whl/; returns
    {filename: {"index", "project", "rel", "sha", "fixtures"}}."""
    wheels = {}
    pages = {}
    for idx, project, version, pys, plat, members in WHEELS:
        d = os.path.join(root, "whl", idx)
        os.makedirs(os.path.join(d, project), exist_ok=True)
        for py in pys:
            fname = "%s-%s-%s-%s-%s.whl" % (project, version, py, py, plat)
            sha = pyindex.build_wheel(os.path.join(d, fname), project, members, pad_py=4, data_mb=0)
            rel = "/whl/%s/%s" % (idx, fname.replace("+", "%2B"))
            wheels[fname] = {"index": idx, "project": project, "rel": rel, "sha": sha,
                             "fixtures": [fx for _, fx in members]}
            pages.setdefault((idx, project), []).append(
                (rel + "#sha256=" + sha, fname, {"data-requires-python": ">=3.10"}))
    for (idx, project), links in pages.items():
        with open(os.path.join(root, "whl", idx, project, "index.html"), "w") as f:
            f.write(pyindex.page_html(project, links))
    return wheels


def start(work):
    """Builds the index under work/index and serves it; returns (wheels,
    server).  The caller stops the server."""
    root = os.path.join(work, "index")
    wheels = make_index(root)
    return wheels, watest.Server("sitedb", root, work)


def crawl(wheelarch, work, srv, cache, today="2026-11-01"):
    """Crawls the served index into cache; returns the CompletedProcess."""
    config = os.path.join(work, "sitedb.json")
    with open(config, "w") as f:
        json.dump({"indexes": [{"root": srv.url + "/whl/", "ids": ["cpu", "cu126", "cu128", "cu130", "rocm6.3", "rocm6.4"]}],
                   "projects": ["torch", "torchvision"],
                   "http": {"retries": 1, "retry_delay_ms": 50, "connect_timeout_ms": 3000,
                            "stall_timeout_ms": 5000}}, f)
    return subprocess.run([wheelarch, "crawl", "--quiet", "--config", config, "--cache", cache, "-j", "2"],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, WHEELARCH_TODAY=today))
