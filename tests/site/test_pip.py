"""pip through the GPU-aware indexes: wheels built from the nvcc fixtures
are served on 127.0.0.1 like download.pytorch.org, crawled, and the site
is built and served on 127.0.0.1 too (once by tests/lib/httpserver.py,
which answers PEP 691 JSON to clients that ask for it, as pip does, from
the index.json files `build --simple-json` writes, and
once by python3 -m http.server, which serves only the PEP 503 HTML).
`pip download --index-url SITE/simple/sm_86/ torch` must fetch a wheel
with sm_86 code; through simple/sm_61/ pip must find nothing.

And the command wheelarch prints, run for real: `query --json` answers for
builds read from the local index on each platform, and its pip line, pasted
into bash as it is with `pip` a wrapper that turns `pip install ARGS` into
`pip download ARGS` for that platform's tags (nothing is installed), must
fetch the wheel of the answer's index and pin."""
import json
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
    # ---- the printed pip line, run for real against the local index ----
    wrapper_dir = os.path.join(W, "pipbin")
    os.makedirs(wrapper_dir, exist_ok=True)
    with open(os.path.join(wrapper_dir, "pip"), "w") as f:
        f.write('#!/bin/sh\n[ "$1" = install ] || exit 9\nshift\n'
                'exec "$WA_PYTHON" -m pip download --dest "$WA_DEST" --no-deps --only-binary=:all: '
                '--python-version "$WA_PY" --platform "$WA_PLAT" --timeout 10 --retries 0 "$@"\n')
    os.chmod(os.path.join(wrapper_dir, "pip"), 0o755)
    ran = {}
    for dev, ver, plat, drv, tag in (("8.6", "2.9", "linux-x86_64", None, "manylinux_2_28_x86_64"),
                                     ("8.6", "2.9", "linux-x86_64", "570.86.15", "manylinux_2_28_x86_64"),
                                     ("8.6", "2.8", "linux-x86_64", "531.14", "manylinux_2_28_x86_64"),
                                     ("12.1", "2.9", "linux-aarch64", None, "manylinux_2_28_aarch64"),
                                     ("8.6", "2.8", "windows-x86_64", "531.14", "win_amd64"),
                                     ("gfx1100", "2.9", "linux-x86_64", None, "manylinux_2_28_x86_64")):
        q = watest.run(args, "query", "--cc", dev, "--version", ver, "--platform", plat, "--python", "3.12",
                       "--cache", cache, "--json", *(["--driver", drv] if drv else []))
        a = json.loads(q.stdout) if q.stdout.strip() else {}
        rec = a.get("recommendation") or a.get("fallback") or {}
        line = (rec.get("commands") or {}).get("pip") or ""
        if idx.url not in line:
            continue  # a declared build's index (download.pytorch.org): not here
        dest = os.path.join(W, "printed-dl")
        shutil.rmtree(dest, ignore_errors=True)
        env = dict(os.environ, PATH=wrapper_dir + os.pathsep + os.environ["PATH"], WA_PYTHON=sys.executable,
                   WA_DEST=dest, WA_PY="3.12", WA_PLAT=tag, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1",
                   PIP_CONFIG_FILE=os.devnull, PIP_NO_CACHE_DIR="1")
        env.pop("PIP_INDEX_URL", None)
        p = subprocess.run(["bash", "--norc", "--noprofile", "-O", "failglob", "-c", line], capture_output=True,
                           text=True, timeout=300, env=env, cwd=W)
        got = sorted(os.listdir(dest)) if os.path.isdir(dest) else []
        want_local = "+" + rec["index"]
        ok = p.returncode == 0 and len(got) == 1 and want_local in got[0] and got[0].endswith(tag + ".whl")
        pin = rec["pin"]
        ok = ok and (got[0].split("-")[1].split("+")[0] == pin if not pin.endswith(".*")
                     else got[0].split("-")[1].startswith(pin[:-1]))
        c.ok(ok, "%s %s on %s: the printed line `%s` fetches %s torch %s (%s; %s)"
             % (dev, ver, plat, line, rec.get("index"), pin, got, (p.stdout + p.stderr).strip()[-300:]))
        ran[plat] = ran.get(plat, 0) + 1
    c.eq(sorted(ran), ["linux-aarch64", "linux-x86_64", "windows-x86_64"],
         "the printed pip line ran for real on every platform (%s)" % ran)

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
