"""A build on a vendor's own index (data/vendor_indexes.csv: NVIDIA's
Windows on Arm torch), its printed command run for real.

Two indexes are served on 127.0.0.1 by python3 -m http.server in PEP 503
layout: the vendor's, holding torch-2.14.0+cu134-cp313-cp313-win_arm64.whl,
and a stand-in for PyPI holding a later torch 2.14.1 for the same platform
(the build pip would take from PyPI were the pin only the release).  The
data is the shipped data with the vendor row's URL moved to the local
vendor index.  `query` for RTX Spark (12.1) on windows-arm64 must print
--extra-index-url with the vendor's exact version and label; that pip line,
run in bash with `pip` a wrapper that turns `pip install ARGS` into `pip
download ARGS` for win_arm64 and cp313 with the stand-in as PyPI, must fetch
the vendor's wheel, and the release pin alone (torch==2.14.*) must not (the
control: what the exact pin is for).  uv's line is checked as arguments.

Then the vendor index is crawled: its wheel carries a real nvcc-built DLL
(tests/fixtures/cuda/test.dll: sm_75 ... sm_120, compute_120), so the row
is verified, from the vendor's index, and its command the same vendor form."""
import base64
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
shutil.rmtree(W, ignore_errors=True)
os.makedirs(W)


def wheel(folder, name, version, members=()):
    """A minimal valid wheel (METADATA, WHEEL, RECORD, and members: [(arcname,
    bytes)]) at folder/name."""
    dist = "torch-%s.dist-info" % version
    files = dict(members)
    files.update({
        dist + "/METADATA": "Metadata-Version: 2.1\nName: torch\nVersion: %s\n" % version,
        dist + "/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\n"
                         "Tag: %s\n" % "-".join(name[:-4].split("-")[-3:]),
    })
    record = []
    path = os.path.join(folder, name)
    with zipfile.ZipFile(path, "w") as z:
        for n, text in files.items():
            data = text if isinstance(text, bytes) else text.encode()
            z.writestr(n, data)
            h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (n, h, len(data)))
        record.append(dist + "/RECORD,,")
        z.writestr(dist + "/RECORD", "\n".join(record) + "\n")
    return path


def simple_index(root, index, wheels, members=()):
    """root/index/ as a PEP 503 index of torch with these wheels."""
    proj = os.path.join(root, index, "torch")
    os.makedirs(proj)
    links = []
    for name, version in wheels:
        p = wheel(proj, name, version, members)
        h = hashlib.sha256(open(p, "rb").read()).hexdigest()
        links.append('<a href="%s#sha256=%s">%s</a>' % (name.replace("+", "%2B"), h, name))
    with open(os.path.join(proj, "index.html"), "w") as f:
        f.write("<!DOCTYPE html><html><body>%s</body></html>\n" % "<br>".join(links))
    with open(os.path.join(root, index, "index.html"), "w") as f:
        f.write('<!DOCTYPE html><html><body><a href="torch/">torch</a></body></html>\n')


served = os.path.join(W, "served")
dll = open(os.path.join(watest.CUDA, "test.dll"), "rb").read()
simple_index(served, "nvtorch_oot", [("torch-2.14.0+cu134-cp313-cp313-win_arm64.whl", "2.14.0+cu134")],
             [("torch/lib/torch_cuda.dll", dll)])
simple_index(served, "pypi", [("torch-2.14.1-cp313-cp313-win_arm64.whl", "2.14.1")])

with watest.static_server(served) as base:
    shipped = open(os.path.join(watest.ROOT, "data", "vendor_indexes.csv")).read()
    c.ok("https://pypi.nvidia.com/nvtorch_oot/" in shipped, "the shipped vendor row names NVIDIA's index")
    data = watest.data_copy(W, "data", {
        "vendor_indexes.csv": shipped.replace("https://pypi.nvidia.com/nvtorch_oot/", base + "/nvtorch_oot/")})
    env = dict(os.environ, WHEELARCH_DATA_DIR=data)
    q = subprocess.run([args.wheelarch, "query", "--cc", "12.1", "--platform", "windows-arm64", "--python",
                        "3.13", "--driver", "616.00", "--cache", os.path.join(W, "cache"), "--json"],
                       capture_output=True, text=True, env=env, timeout=120)
    a = json.loads(q.stdout) if q.stdout.strip() else {}
    rec = a.get("recommendation") or {}
    cmds = rec.get("commands") or {}
    pip, uv = cmds.get("pip") or "", cmds.get("uv") or ""
    c.eq(rec.get("index"), "cu134", "12.1 on windows-arm64: the vendor's variant (%s)" % q.stderr.strip()[-200:])
    c.eq((rec.get("vendor") or {}).get("name"), "NVIDIA", "the answer names the vendor")
    c.ok((rec.get("vendor") or {}).get("preview") is True, "the answer marks it a preview")
    c.eq(rec.get("min_driver"), "615", "the vendor's build needs an R615 driver (Windows on Arm's first)")
    c.eq(shlex.split(pip), ["pip", "install", "torch==2.14.0+cu134", "--extra-index-url", base + "/nvtorch_oot"],
         "pip's line: the exact version, the vendor's index beside PyPI")
    c.eq(shlex.split(uv), ["uv", "pip", "install", "torch==2.14.0+cu134", "--extra-index-url",
                           base + "/nvtorch_oot"], "uv's line: the same, no --torch-backend")
    comp = cmds.get("pip_with_companions") or ""
    c.ok("torchvision==0.29.0+cu134" in comp, "companions pinned to the vendor's too: %s" % comp)

    def fetch(line, name):
        return watest.pip_as_download(W, line, name, "win_arm64", "3.13", deps=False, index=base + "/pypi/")

    if pip:
        p, got = fetch(pip, "printed")
        c.eq(got, ["torch-2.14.0+cu134-cp313-cp313-win_arm64.whl"],
             "the printed line fetches the vendor's wheel, PyPI beside it (%s)" % (p.stdout + p.stderr)[-300:])
    p, got = fetch('pip install "torch==2.14.*" --extra-index-url %s/nvtorch_oot' % base, "release-pin")
    c.eq(got, ["torch-2.14.1-cp313-cp313-win_arm64.whl"],
         "control: the release pin alone takes PyPI's later build, which is why the line pins the vendor's")

    # ---- crawled: the vendor's wheel read, its row verified ----
    cache = os.path.join(W, "crawled")
    cr = subprocess.run([args.wheelarch, "crawl", "--index", base + "/nvtorch_oot/", "--project", "torch",
                         "--cache", cache, "--json"], capture_output=True, text=True, env=env, timeout=300)
    lines = [json.loads(x) for x in cr.stdout.splitlines() if x.strip().startswith("{")]
    scans = [x for x in lines if "summary" not in x]
    c.ok(cr.returncode == 0 and len(scans) == 1, "crawl of the vendor index: one wheel (%s)"
         % (cr.stderr.strip()[-300:] or cr.returncode))
    if scans:
        s = scans[0]
        c.eq(s.get("variant"), "cu134", "the crawled wheel's variant: its label, not the index id")
        c.ok("win_arm64" in json.dumps(s), "the crawled wheel is the win_arm64 one")
        c.ok("sm_120" in json.dumps(s), "its nvcc-built code is read (sm_120)")
    q = subprocess.run([args.wheelarch, "query", "--cc", "12.1", "--platform", "windows-arm64", "--python",
                        "3.13", "--cache", cache, "--json"], capture_output=True, text=True, env=env, timeout=120)
    a = json.loads(q.stdout) if q.stdout.strip() else {}
    rec = a.get("recommendation") or {}
    c.eq((rec.get("status"), rec.get("index"), (rec.get("vendor") or {}).get("name")), ("verified", "cu134", "NVIDIA"),
         "12.1 on windows-arm64 from the crawled row: verified, the vendor's (%s)" % q.stderr.strip()[-200:])
    c.eq(shlex.split((rec.get("commands") or {}).get("pip") or ""),
         ["pip", "install", "torch==2.14.0+cu134", "--extra-index-url", base + "/nvtorch_oot"],
         "the verified row's command: the vendor form")
c.done()
