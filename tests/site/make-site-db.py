#!/usr/bin/env python3
"""Regenerates tests/fixtures/site-db, the small database the site's golden
tests render: a real crawl (tests/lib/sitedb.py) of wheels built from the
nvcc fixtures, with the local server's URLs rewritten to
download.pytorch.org's, plus one record as a hostile index could make it
(markup in the URL, requires-python and yanked reason: free text that a
valid record may hold, so the pages must escape it; a file name with markup
is not a wheel file name, and such records are skipped, see
test_hostile_records.py).

usage: tests/site/make-site-db.py BUILD_DIR/wheelarch
Then rerun the site tests with UPDATE_GOLDEN=1 and review the diff."""
import hashlib
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import sitedb  # noqa: E402

PUBLIC = "https://download.pytorch.org"


def rewrite(v, local):
    if isinstance(v, str):
        return v.replace(local, PUBLIC)
    if isinstance(v, list):
        return [rewrite(x, local) for x in v]
    if isinstance(v, dict):
        return {k: rewrite(x, local) for k, x in v.items()}
    return v


def dump(path, rec):
    with open(path, "w") as f:
        json.dump(rec, f, indent=2, sort_keys=True)
        f.write("\n")


def main():
    wheelarch = os.path.abspath(sys.argv[1])
    out = os.path.join(HERE, "..", "fixtures", "site-db")
    work = tempfile.mkdtemp(prefix="wheelarch-sitedb-")
    try:
        wheels, srv = sitedb.start(work)
        try:
            cache = os.path.join(work, "cache")
            p = sitedb.crawl(wheelarch, work, srv, cache)
        finally:
            srv.stop()
        if p.returncode != 0:
            sys.exit("crawl failed: " + p.stderr)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.join(out, "records"))
        recs = {}
        for name in sorted(os.listdir(os.path.join(cache, "records"))):
            with open(os.path.join(cache, "records", name)) as f:
                rec = rewrite(json.load(f), srv.url)
            recs[name] = rec
            dump(os.path.join(out, "records", name), rec)
        # The hostile record: a scanned cu130 wheel as an index could list it.
        src = next(r for r in recs.values()
                   if r["status"] == "scanned" and r["variant"] == "cu130" and r["wheel"]["project"] == "torch"
                   and r["wheel"]["platform_id"] == "linux-x86_64")
        evil = json.loads(json.dumps(src))
        url = PUBLIC + '/whl/cu130/torch-2.9.0%2Bcu130-cp314-cp314-manylinux_2_28_x86_64.whl?"><script>alert(1)</script>'
        evil.update(url=url, input=url, filename='torch-2.9.0+cu130-cp314-cp314-manylinux_2_28_x86_64.whl',
                    requires_python='>=3.10"><script>alert(3)</script>', yanked="<img src=x onerror=alert(4)>",
                    sha256=None, index_sha256=None)
        evil["wheel"] = dict(evil["wheel"], python="cp314", abi="cp314")
        key = "url-" + hashlib.sha256(url.encode()).hexdigest()
        evil["key"] = key
        dump(os.path.join(out, "records", key + ".json"), evil)
        print("wrote %d records to %s" % (len(recs) + 1, os.path.relpath(out)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
