"""pip through the GPU-aware indexes: wheels built from the nvcc fixtures
are served on 127.0.0.1 like download.pytorch.org, crawled, and the site
is built and served on 127.0.0.1 too (once by tests/lib/httpserver.py,
which answers PEP 691 JSON to clients that ask for it, as pip does, from
the index.json files `build --simple-json` writes, and
once by python3 -m http.server, which serves only the PEP 503 HTML).
`pip download --index-url SITE/simple/sm_86/ torch` must fetch a wheel
with sm_86 code; through simple/sm_61/ pip must find nothing."""
import os
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sitedb  # noqa: E402
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
fixtures = watest.manifest()


def pip_download(index, project, dest, python="3.12", platform="manylinux_2_28_x86_64"):
    shutil.rmtree(dest, ignore_errors=True)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", PIP_CONFIG_FILE=os.devnull,
               PIP_NO_CACHE_DIR="1")
    env.pop("PIP_INDEX_URL", None)
    env.pop("PIP_EXTRA_INDEX_URL", None)
    p = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--index-url", index, "--dest", dest,
                        "--only-binary=:all:", "--python-version", python, "--platform", platform,
                        "--timeout", "10", "--retries", "0", project],
                       capture_output=True, text=True, timeout=300, env=env)
    got = sorted(os.listdir(dest)) if os.path.isdir(dest) else []
    return p, got


def sass_of(path):
    """The SASS targets of a downloaded wheel, read by wheelarch scan."""
    objs, _ = watest.scan_json(args, path)
    return objs[0]["sass"] if objs else []


wheels, idx = sitedb.start(W)
html_server = None
site_srv = None
try:
    cache = os.path.join(W, "cache")
    p = sitedb.crawl(args.wheelarch, W, idx, cache)
    c.eq(p.returncode, 0, "crawl of the local index (%s)" % p.stderr.strip())
    site = os.path.join(W, "site")
    p = subprocess.run([args.wheelarch, "build", "--simple-json", "--cache", cache, "--out", site],
                       capture_output=True, text=True, timeout=300)
    c.eq(p.returncode, 0, "build (%s)" % p.stderr.strip())

    site_srv = watest.Server("site", site, W)
    port_file = os.path.join(W, "html.port")
    # python3 -m http.server on a port we pick: ask the kernel for a free one first.
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    hport = s.getsockname()[1]
    s.close()
    html_server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", site,
                                    str(hport)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/simple/" % hport, timeout=1)
            break
        except Exception:
            time.sleep(0.1)

    for name, base in (("PEP 691 JSON", site_srv.url), ("PEP 503 HTML", "http://127.0.0.1:%d" % hport)):
        for project in ("torch", "torchvision"):
            p, got = pip_download(base + "/simple/sm_86/", project, os.path.join(W, "dl"))
            if c.ok(p.returncode == 0 and len(got) == 1, "%s: pip download %s through simple/sm_86/ (%s)" % (
                    name, project, (p.stdout + p.stderr).strip()[-400:])):
                w = got[0]
                c.ok(w in wheels, "%s: %s is one of the served wheels" % (name, w))
                c.ok("sm_86" in sass_of(os.path.join(W, "dl", w)), "%s: %s has sm_86 code" % (name, w))
                # pip takes the highest version: 2.9.0+cu130 over +cu128.
                if project == "torch":
                    c.eq(w, "torch-2.9.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", name + ": newest version")
        p, got = pip_download(base + "/simple/sm_61/", "torch", os.path.join(W, "dl61"))
        c.ok(p.returncode != 0 and got == [], "%s: through simple/sm_61/ pip finds nothing (exit %d, %s)" % (
            name, p.returncode, got))
        c.ok("No matching distribution" in p.stdout + p.stderr, name + ": pip says why")
        # On aarch64 only the cu130 wheel (libk_fam: sm_121a) has code for 12.1.
        p, got = pip_download(base + "/simple/sm_121/", "torch", os.path.join(W, "dl121"),
                              platform="manylinux_2_28_aarch64")
        c.ok(p.returncode == 0 and got == ["torch-2.9.0+cu130-cp312-cp312-manylinux_2_28_aarch64.whl"],
             "%s: aarch64 through simple/sm_121/ gets the wheel with sm_121a code (%s)" % (name, got))
    # The JSON answer really is PEP 691 when asked for.
    req = urllib.request.Request(site_srv.url + "/simple/sm_86/torch/",
                                 headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        body = r.read().decode()
    c.ok(body.startswith('{"files":['), "PEP 691 JSON served to a client asking for it")
finally:
    idx.stop()
    if site_srv:
        site_srv.stop()
    if html_server:
        html_server.terminate()
        html_server.wait()
c.done()
