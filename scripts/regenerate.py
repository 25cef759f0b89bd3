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
      Reads each SHARDS/*/crawl-summary.json.  When a shard reached an index
      the count is removed; else, when shards say no index answered,
      CACHE/outages gets the count of runs in a row (the shards counted from
      the restored one); a shard whose crawl failed for another cause, or
      left no summary or a bad one, says neither.  Prints one line, writes outage=true|false
      and outages=N to $GITHUB_OUTPUT when that is set, and exits 0: the
      site is still built; the workflow's last job fails on outage=true.
"""
import json
import os
import re
import stat
import subprocess
import sys
import tempfile

STATUSES = ("ok", "partial", "unreached", "outage", "failed")
ANSWERED = ("ok", "partial")
UNANSWERED = ("unreached", "outage")
COUNT_MAX = 1000000


def fail(msg):
    """One line on stderr, as ::error:: for the Actions log; exit 1."""
    print("::error::regenerate.py: %s" % msg, file=sys.stderr)
    sys.exit(1)


def allowed():
    text = os.environ.get("OUTAGES_ALLOWED", "2")
    if not re.fullmatch(r"[0-9]{1,5}", text) or int(text) > 10000:
        fail("OUTAGES_ALLOWED=%r is not a number of runs, 0 to 10000" % text)
    return int(text)


def write_atomic(path, text):
    """text into path by a rename from a new file beside it (never through
    a link or a file someone left at a fixed temporary name)."""
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".regenerate-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def restored(cache):
    for suffix in ("-wal", "-shm"):
        path = os.path.join(cache, "wheelarch.db" + suffix)
        try:
            if os.path.lexists(path):
                os.remove(path)
                print("::warning::removed %s: a restored database has no write-ahead log of its own" % path)
        except OSError as e:
            fail("%s: cannot remove it (%s); the restored database must not be opened beside it" % (path, e.strerror))
    return 0


def summary_line(text):
    """The summary object of a {"summary": ...} line, checked; None when it
    is not one."""
    try:
        o = json.loads(text)
    except (ValueError, RecursionError):
        return None
    s = o.get("summary") if isinstance(o, dict) else None
    if not isinstance(s, dict) or s.get("status") not in STATUSES:
        return None
    n = s.get("outages_in_a_row", 0)
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= COUNT_MAX:
        return None
    return s


def crawl_shard(shard, cache, wheelarch="build/wheelarch", *extra):
    kept = os.path.join(cache, "crawl-summary.json")
    try:
        if os.path.lexists(kept):
            os.remove(kept)  # a summary of an earlier run is never this one's
    except OSError as e:
        fail("%s: cannot remove the last run's summary (%s)" % (kept, e.strerror))
    cmd = [wheelarch, "crawl", "--json", "--shard", shard, "--cache", cache,
           "--outages-allowed", str(allowed())] + list(extra)
    line = None
    try:
        with subprocess.Popen(cmd, stdout=subprocess.PIPE) as p:
            for raw in p.stdout:
                if raw.startswith(b'{"summary"'):
                    line = raw.decode("utf-8", "replace")
    except OSError as e:
        fail("%s: cannot run it (%s)" % (wheelarch, e.strerror))
    status = p.returncode
    summary = summary_line(line) if line else None
    if summary:
        try:
            os.makedirs(cache, exist_ok=True)
            write_atomic(kept, json.dumps({"summary": summary}) + "\n")
        except OSError as e:
            fail("%s: cannot keep the summary (%s)" % (kept, e.strerror))
    if status in (0, 3, 6, 7):
        if status != 0:
            print("crawl shard %s: exit %d (%s)" % (shard, status, summary["status"] if summary else "no summary"))
        return 0
    return status if status > 0 else 1


def read_summary(path):
    """A shard's kept summary, or None with a warning: only a regular file
    (a FIFO would block), at most 64 KiB, of the shape crawl writes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        print("::warning::%s: no crawl summary (%s); that shard is not counted" % (path, e.strerror))
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            print("::warning::%s: not a regular file; that shard is not counted" % path)
            return None
        text = os.read(fd, 65536).decode("utf-8", "replace")
    finally:
        os.close(fd)
    s = summary_line(text)
    if s is None:
        print("::warning::%s: not a crawl summary; that shard is not counted" % path)
    return s


def outages(shards, cache):
    found = []
    names = sorted(os.listdir(shards)) if os.path.isdir(shards) else []
    for name in names:
        s = read_summary(os.path.join(shards, name, "crawl-summary.json"))
        if s is not None:
            found.append((name, s))
    count_path = os.path.join(cache, "outages")
    limit = allowed()
    answered = [s for _, s in found if s["status"] in ANSWERED]
    unanswered = [s for _, s in found if s["status"] in UNANSWERED]
    if answered:
        count, why = 0, "an index answered"
    elif unanswered:
        # each shard counted from the count restored with the database
        count = max(s.get("outages_in_a_row", 1) for s in unanswered)
        why = "no index answered any shard: %d run%s in a row" % (count, "" if count == 1 else "s")
    else:
        count = None
        why = "no shard said whether an index answered; the count stays as it was"
    try:
        if count is None:
            count = 0
            if os.path.lexists(count_path):
                with open(count_path) as f:
                    text = f.read(64).strip()
                count = int(text) if re.fullmatch(r"[0-9]{1,7}", text) else 0
        elif count > 0:
            os.makedirs(cache, exist_ok=True)
            write_atomic(count_path, "%d\n" % count)
        elif os.path.lexists(count_path):
            os.remove(count_path)
    except OSError as e:
        fail("%s: cannot keep the count of runs without an answer (%s)" % (count_path, e.strerror))
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
    if len(argv) == 2 and argv[0] == "restored":
        return restored(argv[1])
    if len(argv) >= 3 and argv[0] == "crawl-shard":
        return crawl_shard(*argv[1:])
    if len(argv) == 3 and argv[0] == "outages":
        return outages(argv[1], argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
