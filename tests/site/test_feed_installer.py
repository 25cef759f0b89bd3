"""The feed read as an installer reads it reaches the CLI's answer: for
every device file (api/v1/gpu/<device>.json), platform, a set of Pythons
and every driver that matters (each floor of the driver table, the driver
just below it, none), contrib/feed-installer.py (which reads the device's
file and index-table.json, and nothing else) names the same build - index,
pin and verdict - as `wheelarch query --cc D --driver V --python P
--platform X --json` (its recommendation, else its fallback), or for a
Jetson the same JetPack builds of NVIDIA's, or nothing where the query has
nothing.  Over the site fixture (its read rows' pins name versions read, looked up in
index-table.json by its keys, its declared rows' a release with a
wildcard); once more over HTTP on 127.0.0.1.

Then over broken copies of the feed, as a server could send them: wrong
types at every level, [] and null for a whole file, nesting 100,000 deep, a
300 MB file, and commands that would steer the install (an argv with $(id)
and a newline, a URL index-table.json does not give that index, another
project, a Jetson index URL with a quote): exit 2 and one line on stderr
each, no traceback, nothing on stdout, at most 200 MB of memory."""
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
EXAMPLE = os.path.join(HERE, "..", "..", "contrib", "feed-installer.py")
import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location("feed_installer", EXAMPLE)
fi = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fi)

PYTHONS = ("3.8", "3.12", "3.14t")


def below(floor):
    """The driver just below a floor: 525.60.13 -> 525.60.12, 580 -> 579.99.99."""
    p = [int(x) for x in floor.split(".")]
    if len(p) == 1:
        return "%d.99.99" % (p[0] - 1)
    while len(p) < 3:
        p.append(0)
    if p[2] > 0:
        p[2] -= 1
    elif p[1] > 0:
        p[1] -= 1
        p[2] = 99
    else:
        p[0] -= 1
        p[1] = p[2] = 99
    return "%d.%02d.%02d" % tuple(p)


def cases(site):
    """(device, platform, python, driver or None) to ask."""
    out = []
    folder = os.path.join(site, "api", "v1", "gpu")
    for f in sorted(os.listdir(folder)):
        dev = f[:-len(".json")]
        with open(os.path.join(folder, f)) as fh:
            doc = json.load(fh)
        for plat, x in sorted(doc["platforms"].items()):
            floors = set()
            a = x["answer"] or {}
            for r in a.get("by_driver") or []:
                if r["min_driver"]:
                    floors.add(r["min_driver"])
            for t in (x.get("by_driver_python") or {}).values():
                if isinstance(t, list):
                    floors.update(r[0] for r in t if r[0])
            drivers = [None]
            for fl in sorted(floors):
                drivers += [fl, below(fl)]
            for py in PYTHONS:
                for d in drivers:
                    out.append((dev, plat, py, d))
    return out


def query(cache, dev, plat, py, drv):
    argv = [args.wheelarch, "query", "--cc", dev, "--python", py, "--platform", plat, "--cache", cache, "--json"]
    if drv:
        argv += ["--driver", drv]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if p.returncode == 2 and "no torch ROCm wheels for " + plat in p.stderr:
        return None  # an AMD GPU on another platform: nothing installs
    if p.returncode not in (0, 1, 4):
        return ("error", p.stderr.strip())
    q = json.loads(p.stdout)
    if not q.get("applies"):
        return jetson((q.get("guidance") or {}).get("jetson_builds"))
    a = q.get("recommendation") or q.get("fallback")
    return (a["index"], a["pin"], a["verdict"]) if a else None


def jetson(builds):
    """A Jetson's answer: NVIDIA's builds for it, newest JetPack first."""
    if not builds:
        return None
    return ("jetson",) + tuple((b["jetpack"], tuple(b["torch"]), b["index_url"] or b["where"]) for b in builds)


def mine(site, dev, plat, py, drv):
    out = fi.decide(site, dev, drv, py, plat)
    i = out["install"]
    return (i["index"], i["pin"], i["verdict"]) if i else jetson(out.get("jetson"))


def compare(name, site, cache):
    todo = cases(site)
    if watest.sanitized(args):  # a sanitizer's binary: a tenth, every kind of case still met
        todo = todo[::10]
    with concurrent.futures.ThreadPoolExecutor(max_workers=(os.cpu_count() or 2) + 1) as ex:
        want = list(ex.map(lambda k: query(cache, *k), todo))
    bad = []
    installs = jetsons = 0
    for k, w in zip(todo, want):
        g = mine(site, *k)
        installs += g is not None and g[0] != "jetson"
        jetsons += g is not None and g[0] == "jetson"
        if g != w:
            bad.append("%s %s python %s driver %s: feed %s, query %s" % (k + (g, w)))
    print("%s: %d questions, %d with an install, %d with NVIDIA's Jetson builds" % (name, len(todo), installs, jetsons))
    c.ok(len(todo) > 200 and installs > 100 and jetsons > 0, "%s: enough questions (%d, %d installs, %d Jetson)" % (name, len(todo), installs, jetsons))
    c.eq(bad[:5], [], "%s: the feed read as an installer reads it gives query's answer (%d differ)" % (name, len(bad)))


# The site fixture: read rows (pins of versions read) and declared ones
# (pins of a release with a wildcard).
cache = watest.site_db(args)
site = os.path.join(W, "site")
p = watest.run(args, "build", "-q", "--cache", cache, "--out", site)
c.eq(p.returncode, 0, "build the fixture site: " + p.stderr.strip())
compare("fixture", site, cache)

# Over HTTP, as an installer fetches it: the command line, its exit status
# and its JSON.
srv = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "0", "-d", site],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    line = srv.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N ..."
    port = int(line.split(" port ")[1].split()[0])
    url = "http://127.0.0.1:%d" % port
    p = subprocess.run([sys.executable, EXAMPLE, url, "8.6", "--driver", "535.104.05", "--python", "3.12", "--json"],
                       capture_output=True, text=True, timeout=60)
    got = json.loads(p.stdout) if p.stdout else {}
    want = query(cache, "8.6", "linux-x86_64", "3.12", "535.104.05")
    i = got.get("install") or {}
    c.eq((i.get("index"), i.get("pin"), i.get("verdict")), want, "over HTTP: the same build as query")
    c.eq(p.returncode, 0 if want and want[2] == "native" else 4 if want else 1, "over HTTP: its exit status")
    c.ok(i.get("pip", "").startswith('pip install "torch==') and i.get("sass"), "over HTTP: the command and the build's targets: %r" % i)
    p = subprocess.run([sys.executable, EXAMPLE, url, "8.6", "--driver", "300.1", "--python", "3.12"],
                       capture_output=True, text=True, timeout=60)
    c.ok(p.returncode == 1 and "update it to" in p.stdout, "a driver older than every build: exit 1, update it: " + p.stdout.strip())
    p = subprocess.run([sys.executable, EXAMPLE, url, "9.9", "--python", "3.12"], capture_output=True, text=True, timeout=60)
    c.ok(p.returncode == 2 and "feed-installer:" in p.stderr, "a device with no file: exit 2, one line: " + p.stderr.strip())
finally:
    srv.terminate()
    srv.wait()


# ---- broken and hostile feeds: exit 2, one line -------------------------------
import copy  # noqa: E402
import shutil  # noqa: E402

with open(os.path.join(site, "api", "v1", "gpu", "8.6.json")) as f:
    good = json.load(f)
with open(os.path.join(site, "api", "v1", "index-table.json")) as f:
    good_table = json.load(f)
plat = good["platforms"]["linux-x86_64"]
row0 = plat["answer"]["by_driver"][0]


def broken(name, device_doc=None, table=None, raw=None, raw_table=None, dev="8.6", extra=()):
    d = os.path.join(W, "broken", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "api", "v1", "gpu"))
    path = os.path.join(d, "api", "v1", "gpu", dev + ".json")
    with open(path, "wb") as f:
        if raw is not None:
            f.write(raw if isinstance(raw, bytes) else raw.encode())
        else:
            f.write(json.dumps(good if device_doc is None else device_doc).encode())
    with open(os.path.join(d, "api", "v1", "index-table.json"), "w") as f:
        if raw_table is not None:
            f.write(raw_table)
        else:
            json.dump(good_table if table is None else table, f)
    return d


def refused(name, d, dev="8.6", python="3.12", driver="535.104.05"):
    argv = ["/usr/bin/time", "-f", "maxrss=%M", sys.executable, EXAMPLE, d, dev, "--python", python]
    if driver:
        argv += ["--driver", driver]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    err = [l for l in p.stderr.splitlines() if not l.startswith(("maxrss=", "Command exited with"))]
    rss = [int(l.split("=")[1]) for l in p.stderr.splitlines() if l.startswith("maxrss=")]
    c.ok(p.returncode == 2 and len(err) == 1 and err[0].startswith("feed-installer: ") and
         "Traceback" not in p.stderr and not p.stdout,
         "%s: exit 2, one line (exit %d: %s; stdout %r)" % (name, p.returncode, " | ".join(err)[:300], p.stdout[:200]))
    c.ok(rss and rss[0] < 200 * 1024, "%s: at most 200 MB (%s KB)" % (name, rss))
    return err[0] if err else ""


def edit(fn):
    doc = copy.deepcopy(good)
    fn(doc)
    return doc


refused("device file []", broken("list", raw="[]"))
refused("device file null", broken("null", raw="null"))
refused("device file not JSON", broken("notjson", raw="{\"meta\": "))
refused("device file not UTF-8", broken("latin1", raw=b'{"meta": "\xe9"}'))
refused("meta a string", broken("meta", edit(lambda d: d.update(meta="1.0"))))
refused("api-version 2.0", broken("api2", edit(lambda d: d["meta"].update({"api-version": "2.0"}))))
refused("platforms a list", broken("plats", edit(lambda d: d.update(platforms=[]))))
refused("a platform a string", broken("plat", edit(lambda d: d["platforms"].update({"linux-x86_64": "x"}))))
refused("answer a list", broken("answer", edit(lambda d: d["platforms"]["linux-x86_64"].update(answer=[]))))
refused("applies a string", broken("applies", edit(lambda d: d["platforms"]["linux-x86_64"]["answer"].update(applies="yes"))))
refused("by_driver rows of numbers", broken("rows", edit(
    lambda d: d["platforms"]["linux-x86_64"].update(by_driver_python={"3.12": [[1, 2, 3, 4, 5]]}))))
refused("a driver floor that is not one", broken("floor", edit(
    lambda d: d["platforms"]["linux-x86_64"].update(by_driver_python={"3.12": [["$(id)", "cu126", "2.9.*", row0["index_url"], "native"]]}))))
refused("vendor unknown", broken("vendor", edit(lambda d: d.update(vendor="intel"))))
refused("nested 100,000 deep", broken("deep", raw="[" * 100000 + "]" * 100000))
refused("index-table.json []", broken("table", raw_table="[]"))
refused("index-table.json's index a list", broken("tableix", table=dict(good_table, indexes={row0["index"]: []})))
big = broken("big", raw="{}")
with open(os.path.join(big, "api", "v1", "gpu", "8.6.json"), "w") as f:
    f.write('{"meta": {"api-version": "1.0"}, "pad": "')
    chunk = "x" * (1 << 20)
    for _ in range(300):
        f.write(chunk)
    f.write('"}')
why = refused("a 300 MB device file", big)
c.ok("larger than" in why, "it says the file is too large: " + why)


def hostile_argv(d, argv):
    """Every command of the platform's answer and tables set to argv."""
    p_ = d["platforms"]["linux-x86_64"]
    for r in p_["answer"]["by_driver"]:
        r["commands"]["argv"]["pip"] = [argv]
    for k in (p_.get("commands") or {}):
        p_["commands"][k]["argv"]["pip"] = [argv]


url0 = row0["index_url"]
why = refused("an argv with $(id) and a newline", broken("inject", edit(lambda d: hostile_argv(
    d, ["pip", "install", "torch==2.9.*", "--index-url", url0 + "/$(id)\npip install evil"]))))
c.ok("$(id)" not in why or "\n" not in why, "the message is one line: " + why)
refused("an argv with another index URL", broken("elsewhere", edit(lambda d: hostile_argv(
    d, ["pip", "install", "torch==2.9.*", "--index-url", "https://evil.example/whl/cu126"]))))
refused("an argv installing another project", broken("project", edit(lambda d: hostile_argv(
    d, ["pip", "install", "evil==1.0", "--index-url", url0]))))
refused("a row's URL that index-table.json does not give its index", broken("rowurl", edit(lambda d: [
    r.update(index_url="https://evil.example/whl/x") for r in d["platforms"]["linux-x86_64"]["answer"]["by_driver"]]
    + [d["platforms"]["linux-x86_64"].update(by_driver_python=None)])))
tbl = copy.deepcopy(good_table)
for ix in tbl["indexes"].values():
    ix["url"] = "https://evil.example/whl/x"
refused("index-table.json naming another URL for the index", broken("tableurl", table=tbl))
# The text it prints names an NVIDIA driver only for an NVIDIA GPU: an AMD
# GPU's line has none (no "NVIDIA driver None"), with or without --driver.
for argv in (["gfx1100", "--python", "3.12"], ["gfx1100", "--python", "3.12", "--driver", "535.104.05"],
             ["8.6", "--python", "3.12"]):
    p = subprocess.run([sys.executable, EXAMPLE, site] + argv, capture_output=True, text=True, timeout=60)
    amd = argv[0].startswith("gfx")
    c.ok(p.returncode == 0 and "None" not in p.stdout and ("NVIDIA driver" in p.stdout) != amd,
         "feed-installer %s: %r" % (" ".join(argv), p.stdout + p.stderr))
c.done()
