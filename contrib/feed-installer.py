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
usage error or a feed it cannot read.
"""
import argparse
import json
import os
import sys
import urllib.request


def fetch(site, rel):
    """A feed file, from a folder or over HTTP."""
    if "://" in site:
        with urllib.request.urlopen(site.rstrip("/") + "/" + rel, timeout=30) as r:
            return json.load(r)
    with open(os.path.join(site, rel), encoding="utf-8") as f:
        return json.load(f)


def version(s):
    """A driver version as numbers; a branch alone ("580") is its newest
    driver, as `wheelarch query --driver 580` reads it."""
    parts = [int(x) for x in s.strip().split(".")]
    if len(parts) == 1:
        parts += [99999, 99999]
    return (parts + [0, 0])[:3]


def reaches(driver, floor):
    return not floor or version(driver) >= (version(floor) if "." in floor else [int(floor), 0, 0])


def table_for(platform, python):
    """The driver table of the builds with a wheel for this Python: rows
    [min_driver, index, pin, index_url, verdict], newest build first."""
    tables = platform.get("by_driver_python") or {}
    t = tables.get(python)
    if isinstance(t, str):  # the same table as another Python's
        t = tables.get(t)
    if t == 0 or (t is None and not tables):  # the platform's own table
        return [[r["min_driver"], r["index"], r["pin"], r["index_url"], r["verdict"]]
                for r in (platform["answer"] or {}).get("by_driver") or []]
    return t or []


def decide(site, device, driver, python, platform_id):
    doc = fetch(site, "api/v1/gpu/%s.json" % device)
    major = doc["meta"]["api-version"].split(".")[0]
    if major != "1":
        raise ValueError("feed api-version %s: this reader knows 1.x" % doc["meta"]["api-version"])
    plat = doc["platforms"].get(platform_id)
    answer = plat and plat["answer"]
    if not answer or not answer.get("applies"):
        g = (answer or {}).get("guidance") or {}
        # A Jetson: NVIDIA's own builds, newest JetPack first; the one the
        # device's JetPack takes is the one to use.
        return {"install": None, "why": g.get("text") or "these wheels do not apply to this GPU on %s" % platform_id,
                "jetson": g.get("jetson_builds") or []}
    rows = table_for(plat, python)
    if not rows:
        return {"install": None, "why": "no build with code for this GPU has a wheel for Python %s" % python}
    row = next((r for r in rows if driver is None or reaches(driver, r[0])), None)
    if row is None:
        return {"install": None, "why": "driver %s is older than every build: update it to %s or newer" % (driver, rows[-1][0])}
    floor, index, pin, url, verdict = row
    # The build's own targets, from index-table.json: what the verdict rests on.
    # A pin with a wildcard (2.8.*) is every patch of its release: the
    # newest read version of it, else the declared row keyed by the pin.
    table = fetch(site, "api/v1/index-table.json")
    builds = table["indexes"][index]["platforms"][platform_id]["torch"]
    build = builds.get(pin)
    if build is None and pin.endswith(".*"):
        patches = [b for b in builds.values() if b["release"] == pin[:-2] and b["version"]]
        build = max(patches, key=lambda b: [int(x) if x.isdigit() else -1 for x in b["version"].split("+")[0].split(".")])
    return {"install": {"index": index, "pin": pin, "verdict": verdict, "min_driver": floor,
                        "pip": "pip install torch==%s --index-url %s" % (pin, url),
                        "sass": build["sass"], "ptx": build["ptx"], "gfx": build["gfx"],
                        "released": build["released"]}, "why": None}


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
    except (OSError, ValueError, KeyError) as e:
        print("feed-installer: %s: %s" % (a.site, e), file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(out, sort_keys=True))
    elif out["install"]:
        i = out["install"]
        print("%s  # %s, torch %s from %s, NVIDIA driver %s or newer" % (i["pip"], i["verdict"], i["pin"], i["index"], i["min_driver"]))
    else:
        print("nothing to install: " + out["why"])
        for b in out.get("jetson", []):
            where = "pip install torch --index-url " + b["index_url"] if b["index_url"] else b["where"]
            print("  JetPack %s (L4T %s, Python %s): torch %s: %s" % (b["jetpack"], b["l4t"], b["python"], ", ".join(b["torch"]), where))
    if not out["install"]:
        return 1
    return 0 if out["install"]["verdict"] == "native" else 4


if __name__ == "__main__":
    sys.exit(main())
