#!/usr/bin/env python3
"""What an installer does with wheelarch's feed, end to end: from a GPU (its
compute capability or gfx processor), a driver, a Python and a platform to
the one command to run.  It reads two files and decides nothing the feed
does not publish: the same decision as `wheelarch query --driver D --python P
--platform X` (docs/feed.md says why).

    contrib/feed-installer.py SITE DEVICE --driver 535.104.05 --python 3.12
    contrib/feed-installer.py https://example.org/wheelarch 8.6 --driver 535 --python 3.12 --json

SITE is a built site folder or its URL.  Exit status: 0 an install was found
(native), 4 found but not native (PTX JIT), 1 nothing installs (the driver
is too old for every build, or no build has a wheel for the Python), 2 a
usage error or a feed it cannot read or does not trust.

The feed is data from a server: every field is checked for its type, each
file is read up to MAX_BYTES, and the command printed is the feed's argument
vector only when it is exactly `pip install torch==PIN --index-url URL` with
the URL index-table.json gives for that index (for a vendor's own build, its
index, flag, exact version and install extra as index-table.json gives
them: `pip install "torch[device-gfx1100]==2.13.0+rocm10.0.0" --index-url
URL`), written by the same quoting
rule as wheelarch's (docs/commands.md).  Anything else is refused (exit 2).
"""
import argparse
import json
import os
import re
import sys
import urllib.request

# The real files are a few MB (a device file tens of KB, index-table.json
# about 0.1 MB of declared data and a few MB at 100,000 records).
MAX_BYTES = 32 * 1024 * 1024


class FeedError(Exception):
    """A feed file that cannot be read or is not what the feed's schema says."""


def fetch(site, rel):
    """A feed file, from a folder or over HTTP, at most MAX_BYTES of it."""
    try:
        if "://" in site:
            if not site.startswith(("http://", "https://")):
                raise FeedError("SITE is a folder or an http(s) URL")
            with urllib.request.urlopen(site.rstrip("/") + "/" + rel, timeout=30) as r:
                data = r.read(MAX_BYTES + 1)
        else:
            with open(os.path.join(site, rel), "rb") as f:
                data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise FeedError("%s: %s" % (rel, getattr(e, "reason", None) or e.strerror or e))
    if len(data) > MAX_BYTES:
        raise FeedError("%s is larger than %d bytes: not a wheelarch feed file" % (rel, MAX_BYTES))
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise FeedError("%s is nested too deeply to be a wheelarch feed file" % rel)
    except (UnicodeDecodeError, ValueError) as e:
        raise FeedError("%s is not JSON: %s" % (rel, str(e).splitlines()[0][:200]))


def want(value, kind, where):
    """value, when it is of kind (a type or a tuple of types); else FeedError."""
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer"}
        what = " or ".join(names.get(k, k.__name__) for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise FeedError("%s is %s, not %s" % (where, type(value).__name__, what))
    return value


def field(obj, key, kind, where, optional=False):
    want(obj, dict, where)
    if key not in obj or (optional and obj[key] is None):
        if optional:
            return None
        raise FeedError("%s has no %r" % (where, key))
    return want(obj[key], kind, "%s.%s" % (where, key))


DRIVER_RE = re.compile(r"^[0-9]{1,4}(\.[0-9]{1,4}){0,2}$")
# What a pin may be: a release with a wildcard or a version (PEP 440,
# without epoch or local label: the feed names no other).
PIN_RE = re.compile(r"^[0-9]+(\.[0-9]+)*(\.\*|((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?)$")
# The command writer's rule (docs/commands.md): what an argument may hold at
# all, what needs no quotes, and a requirement that is a name alone.
QUOTABLE_RE = re.compile(r'^[\x20-\x7e]+$')
UNQUOTABLE = set('"$`\\!%')
BARE_RE = re.compile(r"^[A-Za-z0-9_./:-][A-Za-z0-9_./:=-]*$")
OPTION_RE = re.compile(r"^-[-A-Za-z0-9]*$")
NAME_RE = re.compile(r"^[A-Za-z0-9._][A-Za-z0-9._-]*$")


def version(s):
    """A driver version as numbers; a branch alone ("580") is its newest
    driver, as `wheelarch query --driver 580` reads it."""
    parts = [int(x) for x in s.strip().split(".")]
    if len(parts) == 1:
        parts += [99999, 99999]
    return (parts + [0, 0])[:3]


def reaches(driver, floor):
    return not floor or version(driver) >= (version(floor) if "." in floor else [int(floor), 0, 0])


def line(argv, requirements):
    """argv as one line that bash, zsh, dash, fish, PowerShell and cmd all
    split back into argv; arguments at the places in requirements are
    requirements (quoted unless a name alone)."""
    out = []
    for i, a in enumerate(argv):
        if not QUOTABLE_RE.match(a) or UNQUOTABLE & set(a):
            raise FeedError("the feed's command holds an argument no shell takes as it is: %r" % a[:80])
        if i in requirements:
            bare = bool(NAME_RE.match(a))
        else:
            bare = bool(BARE_RE.match(a)) and (not a.startswith("-") or bool(OPTION_RE.match(a)))
        out.append(a if bare else '"%s"' % a)
    return " ".join(out)


def table_for(platform, python, where):
    """The driver table of the builds with a wheel for this Python: rows
    [min_driver, index, pin, index_url, verdict], newest build first."""
    tables = field(platform, "by_driver_python", dict, where, optional=True) or {}
    t = tables.get(python)
    if isinstance(t, str):  # the same table as another Python's
        t = tables.get(t)
    if t == 0 or (t is None and not tables):  # the platform's own table
        answer = field(platform, "answer", dict, where, optional=True) or {}
        rows = []
        for k, r in enumerate(field(answer, "by_driver", list, where + ".answer", optional=True) or []):
            w = "%s.answer.by_driver[%d]" % (where, k)
            rows.append([field(r, "min_driver", str, w, optional=True) or "", field(r, "index", str, w),
                         field(r, "pin", str, w), field(r, "index_url", str, w), field(r, "verdict", str, w)])
        return rows
    want(t, (list, type(None)), "%s.by_driver_python[%r]" % (where, python))
    for k, r in enumerate(t or []):
        w = "%s.by_driver_python[%r][%d]" % (where, python, k)
        want(r, list, w)
        if len(r) != 5 or not all(isinstance(x, str) for x in r):
            raise FeedError("%s is not [floor, index, pin, index URL, verdict]" % w)
    return t or []


def argv_of(platform, index, pin, url, where):
    """The feed's own argument vector for this build's pip command: from
    the platform's commands by "<index URL> <pin>", else from the answer's
    driver table."""
    cmds = field(platform, "commands", dict, where, optional=True) or {}
    c = cmds.get("%s %s" % (url, pin))
    if c is None:
        answer = field(platform, "answer", dict, where, optional=True) or {}
        for r in field(answer, "by_driver", list, where + ".answer", optional=True) or []:
            if isinstance(r, dict) and r.get("index") == index and r.get("pin") == pin:
                c = r.get("commands")
                break
    if c is None:
        raise FeedError("%s has no command for %s torch %s" % (where, index, pin))
    argv = field(field(c, "argv", dict, where + ".commands"), "pip", list, where + ".commands.argv")
    if len(argv) != 1 or not isinstance(argv[0], list) or not all(isinstance(a, str) for a in argv[0]):
        raise FeedError("%s: the pip command is not one argument vector of strings" % where)
    return argv[0]


def decide(site, device, driver, python, platform_id):
    if driver is not None and not DRIVER_RE.match(driver):
        raise FeedError("--driver %r is not a driver version (570.86.15, or a branch: 580)" % driver)
    rel = "api/v1/gpu/%s.json" % device
    if not re.match(r"^([0-9]{1,2}\.[0-9]|gfx[0-9a-f]{3,4})$", device):
        raise FeedError("%r is not a compute capability (8.6) or a gfx processor (gfx1100)" % device)
    doc = fetch(site, rel)
    meta = field(doc, "meta", dict, rel)
    api = field(meta, "api-version", str, rel + ".meta")
    if api.split(".")[0] != "1":
        raise FeedError("feed api-version %s: this reader knows 1.x" % api[:20])
    vendor = field(doc, "vendor", str, rel)
    if vendor not in ("nvidia", "amd"):
        raise FeedError("%s.vendor is %r, not nvidia or amd" % (rel, vendor[:20]))
    plats = field(doc, "platforms", dict, rel)
    where = "%s.platforms[%r]" % (rel, platform_id)
    plat = field(plats, platform_id, dict, rel + ".platforms", optional=True)
    answer = plat and field(plat, "answer", dict, where, optional=True)
    if not answer or not field(answer, "applies", bool, where + ".answer"):
        g = (answer and field(answer, "guidance", dict, where + ".answer", optional=True)) or {}
        # A Jetson: NVIDIA's own builds, newest JetPack first; the one the
        # device's JetPack takes is the one to use.
        builds = []
        for k, b in enumerate(field(g, "jetson_builds", list, where + ".answer.guidance", optional=True) or []):
            w = "%s.answer.guidance.jetson_builds[%d]" % (where, k)
            builds.append({"jetpack": field(b, "jetpack", str, w), "l4t": field(b, "l4t", str, w),
                           "python": field(b, "python", str, w),
                           "torch": [want(x, str, w + ".torch[]") for x in field(b, "torch", list, w)],
                           "index_url": field(b, "index_url", str, w, optional=True),
                           "where": field(b, "where", str, w)})
        text = field(g, "text", str, where + ".answer.guidance", optional=True)
        return {"install": None, "why": text or "these wheels do not apply to this GPU on %s" % platform_id,
                "jetson": builds}
    rows = table_for(plat, python, where)
    if not rows:
        return {"install": None, "why": "no build with code for this GPU has a wheel for Python %s" % python}
    for r in rows:
        if r[0] and not DRIVER_RE.match(r[0]):
            raise FeedError("%s: %r is not a driver version" % (where, r[0][:40]))
    row = next((r for r in rows if driver is None or reaches(driver, r[0])), None)
    if row is None:
        return {"install": None, "why": "driver %s is older than every build: update it to %s or newer" % (driver, rows[-1][0])}
    floor, index, pin, url, verdict = row
    if not PIN_RE.match(pin):
        raise FeedError("%s: %r is not a pin" % (where, pin[:40]))
    # The build's own targets, from index-table.json: what the verdict rests
    # on, and the index's URL, the only one a command may name for it.
    rel_t = "api/v1/index-table.json"
    table = fetch(site, rel_t)
    ix = field(field(table, "indexes", dict, rel_t), index, dict, rel_t + ".indexes")
    wi = "%s.indexes[%r]" % (rel_t, index)
    ix_url = field(ix, "url", str, wi)
    builds = field(field(field(ix, "platforms", dict, wi), platform_id, dict, wi + ".platforms"), "torch", dict,
                   "%s.platforms[%r]" % (wi, platform_id))
    build = builds.get(pin)
    if build is None and pin.endswith(".*"):
        patches = [b for b in builds.values()
                   if isinstance(b, dict) and b.get("release") == pin[:-2] and isinstance(b.get("version"), str)]
        if patches:
            build = max(patches, key=lambda b: [int(x) if x.isdigit() else -1
                                                for x in b["version"].split("+")[0].split(".")])
    wb = "%s torch %s" % (wi, pin)
    want(build, dict, wb)
    targets = {k: [want(t, str, "%s.%s[]" % (wb, k)) for t in field(build, k, list, wb)] for k in ("sass", "ptx", "gfx")}
    released = field(build, "released", str, wb, optional=True)
    # The command: the feed's argv, exactly pip install torch==PIN --index-url
    # URL with the URL of that index, or nothing.  A vendor's own build of
    # the id (index_url in its entry) is installed from that index, by the
    # flag the entry gives, pinned to its exact labelled version and, where
    # its GPU code comes by an extra, with the extra named for this device.
    argv = argv_of(plat, index, pin, url, where)
    req, flag = "torch==" + pin, "--index-url"
    v_url = field(build, "index_url", str, wb, optional=True)
    if v_url is not None:
        flag = field(build, "index_flag", str, wb)
        exact = field(build, "exact", str, wb)
        extra = field(build, "gpu_extra", str, wb, optional=True)
        if flag not in ("--index-url", "--extra-index-url") or not re.match(r"^[0-9][0-9a-z.+]*$", exact):
            raise FeedError("%s: index_flag %r or exact %r is not one wheelarch writes" % (wb, flag[:40], exact[:40]))
        if extra is not None:
            if not re.match(r"^[a-z0-9._-]*\{gfx\}[a-z0-9._-]*$", extra) or vendor != "amd":
                raise FeedError("%s: gpu_extra %r is not an extra pattern for an AMD device" % (wb, extra[:40]))
            req = "torch[%s]==%s" % (extra.replace("{gfx}", device), exact)
        else:
            req = "torch==" + exact
        ix_url = v_url.rstrip("/")
    expect = ["pip", "install", req, flag, ix_url]
    if url != ix_url or argv != expect:
        raise FeedError("%s: the command for %s torch %s is %r, not pip install %s from the URL "
                        "index-table.json gives that index (%s)" % (where, index, pin, argv[:6], req, ix_url[:200]))
    return {"install": {"index": index, "pin": pin, "verdict": verdict,
                        "min_driver": floor if vendor == "nvidia" else None,
                        "vendor": vendor, "argv": argv, "pip": line(argv, {2}),
                        "sass": targets["sass"], "ptx": targets["ptx"], "gfx": targets["gfx"],
                        "released": released}, "why": None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("site")
    ap.add_argument("device", help="compute capability (8.6) or gfx processor (gfx1100)")
    ap.add_argument("--driver", help="the NVIDIA driver (nvidia-smi shows it); none: the newest")
    ap.add_argument("--python", required=True, help="3.12, 3.13t, ...")
    ap.add_argument("--platform", default="linux-x86_64")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    try:
        out = decide(a.site, a.device, a.driver, a.python, a.platform)
        if not a.json and not out["install"]:
            for b in out.get("jetson", []):
                b["command"] = None
                if b["index_url"] is not None:
                    if not re.match(r"^https://[A-Za-z0-9.-]+(/[A-Za-z0-9._~+-]+)*/?$", b["index_url"]):
                        raise FeedError("a Jetson build's index_url is not an https URL of the index grammar: %r"
                                        % b["index_url"][:200])
                    b["command"] = line(["pip", "install", "torch", "--index-url", b["index_url"]], {2})
    except FeedError as e:
        print("feed-installer: %s: %s" % (a.site, str(e).replace("\n", " ")[:500]), file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(out, sort_keys=True))
    elif out["install"]:
        i = out["install"]
        print(i["pip"])
        driver = ", NVIDIA driver %s or newer" % i["min_driver"] if i["min_driver"] else ""
        print("(%s, torch %s from %s%s)" % (i["verdict"], i["pin"], i["index"], driver))
    else:
        print("nothing to install: " + out["why"])
        for b in out.get("jetson", []):
            print("  JetPack %s (L4T %s, Python %s): torch %s: %s" % (b["jetpack"], b["l4t"], b["python"],
                                                                       ", ".join(b["torch"]), b["command"] or b["where"]))
    if not out["install"]:
        return 1
    return 0 if out["install"]["verdict"] == "native" else 4


if __name__ == "__main__":
    sys.exit(main())
