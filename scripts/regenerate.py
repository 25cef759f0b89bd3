#!/usr/bin/env python3
"""The steps of .github/workflows/regenerate.yml that decide something: which
crawl results keep a shard green, and when runs in a row with no index
answering are an outage.  The workflow calls them; tests/deploy runs the
workflow's steps with them against indexes served on 127.0.0.1.

usage:
  scripts/regenerate.py restored CACHE
      After restoring CACHE/wheelarch.db from the Actions cache: remove a
      -wal or -shm file beside it.  A saved database was closed cleanly, so
      a write-ahead log there is not its own (SQLite would apply another
      database's log to it without a word).
  scripts/regenerate.py crawl-shard K/N CACHE [WHEELARCH [CRAWL ARGS...]]
      Runs `WHEELARCH crawl --json --shard K/N --cache CACHE
      --outages-allowed $OUTAGES_ALLOWED` (default 2), keeps its summary line
      in CACHE/crawl-summary.json and exits 0 when the crawl did what a
      shard can (0, 3: some wheels failed and are retried next run; 6 or 7:
      no index answered, judged over all shards by `outages`), else with the
      crawl's status.
  scripts/regenerate.py outages SHARDS CACHE
      Reads each SHARDS/*/crawl-summary.json.  When every shard that left
      one says no index answered, CACHE/outages gets the count of runs in a
      row (the shards counted from the restored one); when one reached an
      index, the count is removed.  Prints one line, writes outage=true|false
      and outages=N to $GITHUB_OUTPUT when that is set, and exits 0: the
      site is still built; the workflow's last job fails on outage=true.
"""
import json
import os
import subprocess
import sys

UNANSWERED = ("unreached", "outage")


def allowed():
    text = os.environ.get("OUTAGES_ALLOWED", "2")
    if not text.isdigit() or int(text) > 10000:
        sys.exit("regenerate.py: OUTAGES_ALLOWED=%r is not a number of runs, 0 to 10000" % text)
    return int(text)


def restored(cache):
    for suffix in ("-wal", "-shm"):
        path = os.path.join(cache, "wheelarch.db" + suffix)
        if os.path.lexists(path):
            os.remove(path)
            print("::warning::removed %s: a restored database has no write-ahead log of its own" % path)
    return 0


def crawl_shard(shard, cache, wheelarch="build/wheelarch", *extra):
    cmd = [wheelarch, "crawl", "--json", "--shard", shard, "--cache", cache,
           "--outages-allowed", str(allowed())] + list(extra)
    summary = None
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as p:
        for line in p.stdout:
            if line.startswith('{"summary"'):
                summary = line
    status = p.returncode
    if summary:
        os.makedirs(cache, exist_ok=True)
        tmp = os.path.join(cache, "crawl-summary.json.tmp")
        with open(tmp, "w") as f:
            f.write(summary)
        os.replace(tmp, os.path.join(cache, "crawl-summary.json"))
    if status in (0, 3, 6, 7):
        if status != 0:
            print("crawl shard %s: exit %d (%s)" % (shard, status,
                  json.loads(summary)["summary"]["status"] if summary else "no summary"))
        return 0
    return status if status > 0 else 1


def outages(shards, cache):
    found = []
    for name in sorted(os.listdir(shards)) if os.path.isdir(shards) else []:
        path = os.path.join(shards, name, "crawl-summary.json")
        try:
            with open(path) as f:
                found.append((name, json.load(f)["summary"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("::warning::%s: no crawl summary (%s); that shard is not counted" % (path, e))
    count_path = os.path.join(cache, "outages")
    limit = allowed()
    if not found:
        count, why = None, "no shard left a summary; the count stays as it was"
    elif all(s.get("status") in UNANSWERED for _, s in found):
        count = max(int(s.get("outages_in_a_row", 1)) for _, s in found)
        why = "no index answered any shard: %d run%s in a row" % (count, "" if count == 1 else "s")
    else:
        count, why = 0, "an index answered"
    if count is None:
        try:
            with open(count_path) as f:
                count = int(f.read().strip() or 0)
        except (OSError, ValueError):
            count = 0
    elif count > 0:
        os.makedirs(cache, exist_ok=True)
        with open(count_path + ".tmp", "w") as f:
            f.write("%d\n" % count)
        os.replace(count_path + ".tmp", count_path)
    elif os.path.exists(count_path):
        os.remove(count_path)
    outage = count > limit
    if outage:
        print("::error::an outage: %s (more than OUTAGES_ALLOWED=%d)" % (why, limit))
    elif count:
        print("::warning::%s (an outage after %d)" % (why, limit))
    else:
        print("outages: %s" % why)
    out = os.environ.get("GITHUB_OUTPUT")
    if out:
        with open(out, "a") as f:
            f.write("outage=%s\noutages=%d\n" % ("true" if outage else "false", count))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "restored":
        return restored(argv[1])
    if len(argv) >= 3 and argv[0] == "crawl-shard":
        return crawl_shard(*argv[1:])
    if len(argv) == 3 and argv[0] == "outages":
        return outages(argv[1], argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
