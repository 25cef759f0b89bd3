"""Shared helpers for wheelarch's end-to-end tests (stdlib only).

Each test script is run by CTest as
    python3 SCRIPT --wheelarch PATH/TO/wheelarch --work DIR [extra options]
and prints one line per failed check and a final "N passed, N failed".
"""
import argparse
import contextlib
import hashlib
import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
FIXTURES = os.path.join(TESTS, "fixtures")
CUDA = os.path.join(FIXTURES, "cuda")


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self, cond, msg):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: " + msg, flush=True)
        return cond

    def eq(self, got, want, msg):
        return self.ok(got == want, "%s: got %r, want %r" % (msg, got, want))

    def done(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        if self.passed + self.failed == 0:
            print("FAIL: no check ran (a test that checks nothing cannot fail)")
            sys.exit(1)
        sys.exit(1 if self.failed else 0)


# A schedule with one made-up torch release, 9.1, announced for 2026-01-01:
# the freshness tests judge it on days before and after.
SCHEDULE_9_1 = ("project,release,planned_date,branch_cut,status,notes,source,checked_on\n"
                "torch,9.1,2026-01-01,2025-12-01,scheduled,made up for the test,test,2026-11-28\n")


def data_copy(work, name, files):
    """A copy of the shipped data/ in work/name with files ({name: text})
    written over it; returns its path (for WHEELARCH_DATA_DIR)."""
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(os.path.join(TESTS, "..", "data"), d)
    for f, text in files.items():
        with open(os.path.join(d, f), "w") as out:
            out.write(text)
    return d


def parse_args(extra=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--wheelarch", required=True)
    ap.add_argument("--work", required=True)
    if extra:
        extra(ap)
    args = ap.parse_args()
    args.wheelarch = os.path.abspath(args.wheelarch)
    if os.path.isdir(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    return args


def sanitized(args):
    """Whether the binary under test is built with AddressSanitizer, whose
    shadow memory and quarantine make its peak memory meaningless as a
    measure of the program's: gcc links the runtime as libasan.so, clang
    into the binary; both leave __asan_init in it."""
    with open(args.wheelarch, "rb") as f:
        return b"__asan_init" in f.read()


def run(args, *argv, **kw):
    """Runs wheelarch; returns CompletedProcess with text output."""
    return subprocess.run([args.wheelarch] + list(argv), capture_output=True, text=True,
                          timeout=kw.pop("timeout", 600), **kw)


def query_exit(answer):
    """The exit status `query` gives an answer (its JSON, one GPU or a
    machine): 0 the release asked about runs natively, 4 it runs but not
    natively, 1 none of its builds runs as things are."""
    rec = answer.get("recommendation")
    return 1 if rec is None else 0 if rec.get("verdict") == "native" else 4


def tree(root):
    """{relative path: sha256} of every file under root, or None when root is
    not a folder."""
    import hashlib
    if not os.path.isdir(root):
        return None
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def db_path(cache):
    return os.path.join(cache, "wheelarch.db")


def db_query(cache, sql, params=()):
    """Rows of an SQL query on the database in cache (read-only)."""
    import sqlite3
    con = sqlite3.connect("file:%s?mode=ro" % db_path(cache), uri=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def builds_mismatch(cache):
    """The rows of `builds` that differ from what its rule gives, computed
    from `wheels` by brute force: per (project, version, variant, platform),
    the first scanned wheel in key order, else the first inferred one, with
    the newest scan date of the build.  [] when builds is right."""
    rows = db_query(cache, "SELECT project, version, variant, platform, key, status, scanned_at "
                           "FROM wheels ORDER BY key")
    want = {}
    for p, v, va, pl, key, status, scanned in rows:
        g = (p, v, va, pl)
        best, newest = want.get(g, (None, None))
        if best is None or (status == "scanned" and best[1] != "scanned"):
            best = (key, status)
        if scanned is not None and (newest is None or scanned > newest):
            newest = scanned
        want[g] = (best, newest)
    have = {(p, v, va, pl): ((best, status), scanned) for p, v, va, pl, best, status, scanned in
            db_query(cache, "SELECT project, version, variant, platform, best, status, scanned_at "
                            "FROM builds")}
    return sorted(str(g) for g in set(want) | set(have) if want.get(g) != have.get(g))


def records(cache):
    """{key: record JSON text} of the records in a database folder ({} when
    there is no database, or one without its schema yet)."""
    if not os.path.exists(db_path(cache)):
        return {}
    # A first crawl killed between creating the file and committing its
    # schema (one transaction) leaves a file without tables: no records
    # yet, which the next crawl's open completes.
    if not db_query(cache, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'records'"):
        return {}
    return dict(db_query(cache, "SELECT key, record FROM records"))


def record(cache, key):
    """The record of key as an object, or None."""
    rows = db_query(cache, "SELECT record FROM records WHERE key = ?", (key,))
    return json.loads(rows[0][0]) if rows else None


def integrity(cache):
    """PRAGMA integrity_check of the database in cache: "ok" when clean."""
    return "\n".join(r[0] for r in db_query(cache, "PRAGMA integrity_check"))


def import_records(args, src, cache):
    """Imports a folder of JSON records (tests/fixtures/site-db) into the
    database in cache, made anew; returns cache."""
    if os.path.isdir(cache):
        shutil.rmtree(cache)
    p = run(args, "db", "import", src, "--cache", cache)
    if p.returncode != 0:
        raise SystemExit("db import %s: %s" % (src, p.stderr))
    return cache


def clone_record(rec, filename, folder):
    """A copy of a stored record under another wheel file name, as served from
    https://download.pytorch.org/whl/FOLDER/: its own URL, key and sha256, and
    the parsed name (version, public version, python and ABI tags) of the new
    file name; the GPU code stays the original's."""
    r = json.loads(json.dumps(rec))
    _, version, python, abi, _ = filename[:-len(".whl")].split("-", 4)
    url = "https://download.pytorch.org/whl/%s/%s" % (folder, filename.replace("+", "%2B"))
    key = hashlib.sha256(url.encode()).hexdigest()
    r.update(key=key, sha256=key, index_sha256=key, url=url, input=url, filename=filename,
             index_url="https://download.pytorch.org/whl/%s/" % folder)
    r["wheel"].update(filename=filename, version=version, public_version=version.split("+")[0],
                      python=python, abi=abi)
    return r


def db_with_records(args, src, dest, records):
    """A copy of the database folder src at dest with records (objects) added
    by `db import` of a JSON lines file; returns the import's process."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(src, dest)
    lines = dest + ".jsonl"
    with open(lines, "w") as f:
        for r in records:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    return run(args, "db", "import", lines, "--cache", dest)


def site_db(args, name="site-db"):
    """tests/fixtures/site-db imported into a database under the work folder."""
    return import_records(args, os.path.join(FIXTURES, "site-db"), os.path.join(args.work, name))


def scan_json(args, *paths):
    """scan --json; returns (list of objects, CompletedProcess)."""
    p = run(args, "scan", "--json", *paths)
    objs = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    return objs, p


def manifest():
    with open(os.path.join(CUDA, "manifest.json")) as f:
        return {fx["file"]: fx for fx in json.load(f)["fixtures"]}


def make_wheel(path, members, compression=zipfile.ZIP_DEFLATED):
    """Writes a zip with members = [(arcname, bytes or source path)], plus a
    minimal dist-info, deterministically."""
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in members:
            if isinstance(data, str):
                with open(data, "rb") as f:
                    data = f.read()
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = compression
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
        base = os.path.basename(path)
        dist = "-".join(base.split("-")[:2]) + ".dist-info"
        info = zipfile.ZipInfo(dist + "/WHEEL", date_time=(2026, 1, 1, 0, 0, 0))
        z.writestr(info, "Wheel-Version: 1.0\nGenerator: wheelarch-tests\nRoot-Is-Purelib: false\n")
    return path


class Server:
    """tests/lib/httpserver.py on 127.0.0.1, serving root, with its fault file
    and request log in work (named name.*)."""

    def __init__(self, name, root, work):
        import time
        self.root = root
        self.faults = os.path.join(work, name + ".faults.json")
        self.log = os.path.join(work, name + ".log")
        portfile = os.path.join(work, name + ".port")
        self.set_faults({})
        open(self.log, "w").close()
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "httpserver.py"), root,
                                      "--faults", self.faults, "--log", self.log,
                                      "--port-file", portfile])
        # A test that dies of an exception stops its servers too: left
        # running, they hold the test's output pipes open and CTest waits
        # for them until its timeout.
        import atexit
        atexit.register(self.stop)
        for _ in range(200):
            if os.path.exists(portfile):
                break
            time.sleep(0.05)
        with open(portfile) as f:
            self.port = int(f.read())
        self.url = "http://127.0.0.1:%d" % self.port

    def set_faults(self, faults):
        with open(self.faults + ".tmp", "w") as f:
            json.dump(faults, f)
        os.rename(self.faults + ".tmp", self.faults)

    def clear_log(self):
        open(self.log, "w").close()

    def entries(self):
        with open(self.log) as f:
            return [json.loads(line) for line in f if line.strip()]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()


def short_diff(want, got, context=2, limit=40):
    """The lines around the first difference of two texts, cheaply (difflib
    is quadratic on the long lines of a page or a JSON feed)."""
    a, b = want.splitlines(), got.splitlines()
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    out = []
    for k in range(max(0, i - context), min(max(len(a), len(b)), i + context + 1)):
        if k < len(a) and (k >= len(b) or a[k] != b[k]):
            out.append("-%d: %s\n" % (k + 1, a[k][:300]))
        if k < len(b) and (k >= len(a) or a[k] != b[k]):
            out.append("+%d: %s\n" % (k + 1, b[k][:300]))
        if k < len(a) and k < len(b) and a[k] == b[k]:
            out.append(" %d: %s\n" % (k + 1, a[k][:300]))
    return out[:limit]


# Start tags of an HTML page, for checks over hundreds of pages (html.parser
# takes a minute for the fixture site; this a second or two).  Comments are
# skipped and script/style bodies are not read as markup.  The pages are
# ours and valid (site.validate runs the Nu Html Checker on all of them),
# so a regex over start tags reads them as html.parser does: the tests
# that use it were compared with html.parser's tags on the fixture site.
_ATTR = re.compile(r"""([^\s=>/"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
_TAG_RE = {}


def start_tags(text, names=None):
    """(tag, {attribute: value}) for each start tag of text, in order, both
    lowercased and values unescaped (None for a bare attribute; the first of
    a repeated one).  names: only those tags (faster), e.g. ("a", "th")."""
    key = tuple(names) if names else None
    rx = _TAG_RE.get(key)
    if rx is None:
        want = "|".join(re.escape(n) for n in names) if names else "[a-zA-Z][a-zA-Z0-9-]*"
        rx = re.compile(r"""<!--.*?-->|<(script|style)\b((?:[^>"']|"[^"]*"|'[^']*')*)>.*?</\1\s*>"""
                        r"""|<(%s)\b((?:[^>"']|"[^"]*"|'[^']*')*)>""" % want, re.S | re.I)
        _TAG_RE[key] = rx
    for m in rx.finditer(text):
        if m.group(1):
            name, raw = m.group(1).lower(), m.group(2)
            if names and name not in names:
                continue
        elif m.group(3):
            name, raw = m.group(3).lower(), m.group(4)
        else:
            continue
        attrs = {}
        for a in _ATTR.finditer(raw):
            k = a.group(1).lower()
            if k not in attrs:
                v = next((x for x in a.group(2, 3, 4) if x is not None), None)
                attrs[k] = html.unescape(v) if v is not None else None
        yield name, attrs


@contextlib.contextmanager
def static_server(root):
    """Serves folder root on 127.0.0.1 (python3 -m http.server on a free
    port) for the with block; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", root], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield "http://127.0.0.1:%d" % port
    finally:
        server.terminate()
        server.wait()


def pip_as_download(work, line, dest_name, platform, python, deps=True, index=None):
    """Runs a printed `pip install ...` line in bash (-O failglob, no rc
    files) with `pip` a wrapper that makes it `pip download` for platform
    and python into work/dl-dest_name (with the requirements' dependencies
    unless deps is false; PyPI replaced by index, or none).  Returns the
    CompletedProcess and the sorted names of the files it fetched."""
    wrapper = os.path.join(work, "bin-pip-download")
    os.makedirs(wrapper, exist_ok=True)
    with open(os.path.join(wrapper, "pip"), "w") as f:
        f.write('#!/bin/sh\n[ "$1" = install ] || exit 9\nshift\n'
                'exec "$WA_PYTHON" -m pip download --dest "$WA_DEST" %s--only-binary=:all: '
                '--python-version "$WA_PY" --platform "$WA_PLATFORM" --timeout 10 --retries 0 "$@"\n'
                % ("" if deps else "--no-deps "))
    os.chmod(os.path.join(wrapper, "pip"), 0o755)
    dest = os.path.join(work, "dl-" + dest_name)
    e = dict(os.environ, PATH=wrapper + os.pathsep + os.environ["PATH"], WA_PYTHON=sys.executable,
             WA_DEST=dest, WA_PY=python, WA_PLATFORM=platform, PIP_DISABLE_PIP_VERSION_CHECK="1",
             PIP_NO_INPUT="1", PIP_CONFIG_FILE=os.devnull, PIP_NO_CACHE_DIR="1")
    for k in ("PIP_EXTRA_INDEX_URL", "PIP_INDEX_URL"):
        e.pop(k, None)
    if index:
        e["PIP_INDEX_URL"] = index
    p = subprocess.run(["bash", "--norc", "--noprofile", "-O", "failglob", "-c", line],
                       capture_output=True, text=True, timeout=300, env=e, cwd=work)
    return p, sorted(os.listdir(dest)) if os.path.isdir(dest) else []
