"""AMD's whl-next, crawled and installed: a build whose GPU code comes by an
install extra (torch[device-gfx1100] installs amd-torch-device-gfx1100,
whose torch/.kpack/torch_gfx1100.kpack holds the code objects).

A PEP 503 index is served on 127.0.0.1 by python3 -m http.server, in the
layout of stable.repo.amd.com/rocm/whl-next: torch 2.13.0+rocm10.0.0 for
win_amd64 (no GPU code of its own; METADATA names a device extra per GPU
and device-all, as AMD's does), amd-torch-device-gfx1100 and -gfx1030 with
kernel archives around real code objects (the committed kern_gfx1100.hsaco,
one clang-14 builds here), and a torch 2.13.0+rocm7.14.0 beside them, an
older ROCm build of the same release (whose label PEP 440 sorts above
rocm10.0.0).  The data is the shipped data with AMD's URL moved there.

Checked: crawl reads all three projects; the torch row is verified with
the extras' measured targets; query for an RX 7900 XTX on Windows names the
extra and the exact labelled version; that printed line, run in bash as
`pip download` for win_amd64, fetches torch and the gfx1100 package and
nothing else; "==2.13.*" instead takes the rocm7.14.0 build (the control:
what the exact pin is for); two GPUs name both extras; a GPU no crawled
package has code for gets no command, whatever the declared list says."""
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
import kpackfile  # noqa: E402
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
shutil.rmtree(W, ignore_errors=True)
os.makedirs(W)
TAG = "cp312-cp312-win_amd64"
HIP = os.path.join(watest.FIXTURES, "hip")


def wheel(folder, project, version, requires=(), extras=(), members=()):
    """A minimal valid wheel of project at folder; returns its file name."""
    dist_name = project.replace("-", "_")
    name = "%s-%s-%s.whl" % (dist_name, version, TAG)
    dist = "%s-%s.dist-info" % (dist_name, version)
    meta = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (project, version)
    meta += "".join("Provides-Extra: %s\n" % e for e in extras)
    meta += "".join("Requires-Dist: %s\n" % r for r in requires)
    files = dict(members)
    files.update({dist + "/METADATA": meta,
                  dist + "/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: %s\n" % TAG})
    record = []
    with zipfile.ZipFile(os.path.join(folder, name), "w") as z:
        for n, text in files.items():
            data = text if isinstance(text, bytes) else text.encode()
            z.writestr(n, data)
            h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (n, h, len(data)))
        record.append(dist + "/RECORD,,")
        z.writestr(dist + "/RECORD", "\n".join(record) + "\n")
    return name


def project_page(root, project, wheels):
    d = os.path.join(root, project)
    os.makedirs(d, exist_ok=True)
    links = []
    for build in wheels:
        name = wheel(d, project, *build)
        h = hashlib.sha256(open(os.path.join(d, name), "rb").read()).hexdigest()
        links.append('<a href="%s#sha256=%s">%s</a>' % (name.replace("+", "%2B"), h, name))
    with open(os.path.join(d, "index.html"), "w") as f:
        f.write("<!DOCTYPE html><html><body>%s</body></html>\n" % "<br>".join(links))


# ---- the index ------------------------------------------------------------------------
objs = {"gfx1100": open(os.path.join(HIP, "kern_gfx1100.hsaco"), "rb").read()}


def code_object(arch):
    obj, why = kpackfile.code_object(W, arch)
    c.ok(obj is not None, "clang-14 builds a %s code object (%s)" % (arch, why[:200]))
    return obj if obj is not None else objs["gfx1100"]


objs["gfx1030"] = code_object("gfx1030")
gfx1031 = code_object("gfx1031")

V = "2.13.0+rocm10.0.0"
served = os.path.join(W, "served", "whl-next")
reqs = ["amd-torch-device-%s ==%s; extra == \"device-%s\"" % (g, V, g) for g in objs]
reqs += ["amd-torch-device-%s ==%s; extra == \"device-all\"" % (g, V) for g in objs]
# a family pack, as AMD's Windows extras add (amd-torch-device-gfx110x): here
# gfx103x, with gfx1030 and gfx1031 code, brought by device-gfx1030 too and
# alone by device-gfx1031, so both extras carry gfx1031
reqs += ["amd-torch-device-gfx103x ==%s; extra == \"device-%s\"" % (V, e) for e in ("gfx1030", "gfx1031")]
project_page(served, "amd-torch-device-gfx103x",
             [(V, [], [], [("torch/.kpack/torch_gfx103x.kpack",
                            kpackfile.write(None, [("lib/torch_hip.dll", "gfx1030", objs["gfx1030"]),
                                                   ("lib/torch_hip.dll", "gfx1031", gfx1031)], family="gfx103X"))])])
project_page(served, "torch", [(V, reqs, ["device-%s" % g for g in objs] + ["device-gfx1031", "device-all"]),
                               ("2.13.0+rocm7.14.0", [], ["device-gfx1100"])])
for g, obj in objs.items():
    archive = kpackfile.write(None, [("lib/torch_hip.dll", g, obj), ("lib/c10_hip.dll", g, obj)], family=g)
    project_page(served, "amd-torch-device-" + g,
                 [(V, ["rocm-sdk-device-%s ==10.0.0; extra == \"never\"" % g], [],
                   [("torch/.kpack/torch_%s.kpack" % g, archive)])])
with open(os.path.join(served, "index.html"), "w") as f:
    f.write("<!DOCTYPE html><html><body>%s</body></html>\n"
            % "".join('<a href="%s/">%s</a>' % (n, n) for n in sorted(os.listdir(served)) if n != "index.html"))

with watest.static_server(os.path.dirname(served)) as root:
    base = root + "/whl-next"
    shipped = open(os.path.join(watest.ROOT, "data", "vendor_indexes.csv")).read()
    c.ok("https://stable.repo.amd.com/rocm/whl-next/" in shipped, "the shipped vendor rows name AMD's whl-next")
    data = watest.data_copy(W, "data", {
        "vendor_indexes.csv": shipped.replace("https://stable.repo.amd.com/rocm/whl-next/", base + "/")})
    env = dict(os.environ, WHEELARCH_DATA_DIR=data)
    cache = os.path.join(W, "cache")

    # ---- crawled ----
    argv = [args.wheelarch, "crawl", "--index", base + "/", "--cache", cache, "--json"]
    for proj in ["torch", "amd-torch-device-gfx103x"] + ["amd-torch-device-" + g for g in objs]:
        argv += ["--project", proj]
    cr = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    lines = [json.loads(x) for x in cr.stdout.splitlines() if x.strip().startswith("{")]
    scans = [x for x in lines if "summary" not in x]
    c.ok(cr.returncode == 0 and len(scans) == 5, "crawl: two torch wheels, two device wheels, a family pack (%s)"
         % (cr.stderr.strip()[-300:] or [s.get("filename") for s in scans]))
    dev = [s for s in scans if "amd_torch_device_gfx1100" in json.dumps(s)]
    c.ok(dev and "gfx1100" in json.dumps(dev[0].get("gfx", dev[0])), "the gfx1100 package's kernel archive is read")

    def query(*gpus, version="2.13"):
        argv = [args.wheelarch, "query", "--platform", "windows-x86_64", "--python", "3.12", "--version", version,
                "--cache", cache, "--json"]
        for g in gpus:
            argv += ["--gpu", g]
        q = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
        return (json.loads(q.stdout) if q.stdout.strip() else {}), q

    a, q = query("RX 7900 XTX")
    rec = a.get("recommendation") or {}
    c.eq((rec.get("status"), rec.get("index"), rec.get("extra"), (rec.get("vendor") or {}).get("name")),
         ("verified", "rocm10.0.0", "device-gfx1100", "AMD"),
         "RX 7900 XTX on Windows: the crawled row, verified, with the extra that has gfx1100 (%s)"
         % q.stderr.strip()[-300:])
    pip = (rec.get("commands") or {}).get("pip") or ""
    c.eq(shlex.split(pip), ["pip", "install", "torch[device-gfx1100]==" + V, "--index-url", base],
         "pip's line: the extra, the exact version, AMD's index")
    c.eq(shlex.split((rec.get("commands") or {}).get("uv") or ""),
         ["uv", "pip", "install", "torch[device-gfx1100]==" + V, "--index-url", base], "uv's line the same way")

    # ---- the printed line, run ----
    def fetch(line, name):
        return watest.pip_as_download(W, line, name, "win_amd64", "3.12")

    if pip:
        p, got = fetch(pip, "printed")
        c.eq(got, ["amd_torch_device_gfx1100-%s-%s.whl" % (V, TAG), "torch-%s-%s.whl" % (V, TAG)],
             "the printed line fetches torch and the gfx1100 package only (%s)" % (p.stdout + p.stderr)[-400:])
    p, got = fetch('pip install "torch[device-gfx1100]==2.13.*" --index-url %s' % base, "release-pin")
    c.eq(got, ["torch-2.13.0+rocm7.14.0-%s.whl" % TAG],
         "control: the release pin takes the rocm7.14.0 build (PEP 440 sorts its label higher), "
         "without the gfx1100 code: which is why the line pins the exact version")

    # ---- a target two extras carry: the extra named for it ----
    a, q = query("RX 6700 XT")
    rec = a.get("recommendation") or {}
    c.eq(rec.get("extra"), "device-gfx1031",
         "RX 6700 XT (gfx1031), in device-gfx1030's family pack too: its own extra (%s)" % q.stderr.strip()[-200:])
    line = (rec.get("commands") or {}).get("pip") or ""
    if line:
        p, got = fetch(line, "gfx1031")
        c.eq(got, ["amd_torch_device_gfx103x-%s-%s.whl" % (V, TAG), "torch-%s-%s.whl" % (V, TAG)],
             "its line fetches torch and the family pack with gfx1031's code (%s)" % (p.stdout + p.stderr)[-300:])

    # ---- two GPUs, and a GPU none of the crawled packages has code for ----
    a, q = query("RX 7900 XTX", "RX 6800 XT")
    line = ((a.get("recommendation") or {}).get("commands") or {}).get("pip") or ""
    c.ok('"torch[device-gfx1030,device-gfx1100]==%s"' % V in line or
         '"torch[device-gfx1100,device-gfx1030]==%s"' % V in line,
         "two GPUs: both extras in the requirement (%s)" % (line or q.stderr.strip()[-200:]))
    a, q = query("RX 9070 XT")
    rows = {r.get("variant"): r for r in a.get("variants", [])}
    c.eq((rows.get("rocm10.0.0") or {}).get("verdict"), "unsupported",
         "RX 9070 XT (gfx1201): the crawled build has no package with its code, so no code, "
         "whatever the declared list says (%s)" % q.stderr.strip()[-200:])
    c.eq(a.get("recommendation"), None, "and no command")
    # ---- the site from the crawled database ----
    site = os.path.join(W, "site")
    b = subprocess.run([args.wheelarch, "build", "-q", "--cache", cache, "--out", site], capture_output=True,
                       text=True, env=env, timeout=600)
    c.ok(b.returncode == 0, "the site builds from the crawled database (%s)" % b.stderr.strip()[-300:])
    def read(rel):
        p = os.path.join(site, rel)
        return open(p, encoding="utf-8").read() if os.path.exists(p) else ""
    page = read("gpu/amd-radeon-rx-7900-xtx/index.html")
    c.ok("torch[device-gfx1100]==%s" % V in page and "AMD&#39;s own index" in page.replace("AMD's", "AMD&#39;s"),
         "the RX 7900 XTX page gives AMD's command with the extra")
    dev = read("simple/gfx1100/amd-torch-device-gfx1100/index.html")
    c.ok("amd_torch_device_gfx1100-2.13.0%2Brocm10.0.0" in dev or "amd_torch_device_gfx1100-2.13.0+rocm10.0.0" in dev,
         "the gfx1100 index lists the gfx1100 device package")
    c.ok("rocm10.0.0" not in read("simple/gfx1100/torch/index.html"),
         "and not whl-next's torch, which `pip install torch` from there would take without its code")
    try:
        ix = json.loads(read("api/v1/index-table.json"))["indexes"]["rocm10.0.0"]["platforms"]["windows-x86_64"]
        build = next(b for b in ix["torch"].values() if b.get("status") == "verified")
    except (ValueError, KeyError, StopIteration):
        build = {}
    c.eq(build.get("extras"), {"device-gfx1030": ["gfx1030", "gfx1031"], "device-gfx1031": ["gfx1030", "gfx1031"],
                               "device-gfx1100": ["gfx1100"], "device-all": ["gfx1030", "gfx1100"]},
         "the feed says which extra brings which targets, as crawled")
c.done()
