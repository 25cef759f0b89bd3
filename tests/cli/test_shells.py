"""Every command wheelarch prints runs as pasted, in the shells people use
(docs/commands.md).

The commands: every one the site built from the fixture database holds
(api/v1/*.json and every device file: each with the argv the writer meant;
assets/answers.js; every HTML element marked as a command), what `query`
prints over a spread of the answer grid (every device code x three
platforms x drivers x Pythons, JSON and text), what `doctor` prints for
installed builds that need a fix, and what contrib/feed-installer.py prints.
A line the HTML, answers.js, the text output or the feed-installer shows
must be one the feed gives an argv for (or one of the two fixed
one-liners), and one line never stands for two argvs.

Each distinct line is then pasted into bash (interactive, as a terminal
reads it: history expansion on), bash with failglob, zsh (interactive),
dash and fish, in a folder holding a decoy file for every pin with a
wildcard (torch==2.14.x for torch==2.14.*, which an unquoted glob would
match), with pip and uv replaced by tests/cli/argv_stub.c; what the stub
received must be the argv meant, step for step.  PowerShell and cmd are not
on the machine: each line goes through a model of their parsing rules
(PowerShell's argument mode; cmd's % expansion, ^ and operators, then the
C runtime's splitting of the command line), and the models are shown to
catch what they must (a bare $(...), %VAR%, a comma, single quotes in
cmd)."""
import concurrent.futures
import html
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args(lambda ap: ap.add_argument("--stub", required=True))
c = watest.Checker()
W = args.work
os.makedirs(W, exist_ok=True)

FIXED = {
    "pip uninstall -y torch torchvision torchaudio": [["pip", "uninstall", "-y", "torch", "torchvision", "torchaudio"]],
    'python -c "import torch; print(torch.cuda.get_arch_list())"':
        [["python", "-c", "import torch; print(torch.cuda.get_arch_list())"]],
}
meant = dict(FIXED)  # line -> [argv of each step]
origin = {}  # line -> where it was first seen
clash = []


def take(line, argv, where):
    if line in meant and meant[line] != argv:
        clash.append("%s: %r means %r here and %r in %s" % (where, line, argv, meant[line], origin.get(line)))
        return
    meant.setdefault(line, argv)
    origin.setdefault(line, where)


def walk(o, where):
    """Every commands object in a JSON value: its lines and their argv."""
    if isinstance(o, dict):
        argv = o.get("argv")
        if isinstance(argv, dict):
            for key, v in argv.items():
                line = o.get(key)
                if v is not None or line is not None:
                    c.ok(isinstance(line, str) and isinstance(v, list) and v and
                         all(isinstance(s, list) and s and all(isinstance(a, str) for a in s) for s in v),
                         "%s: %s has its line and argv (%r, %r)" % (where, key, line, v))
                    if isinstance(line, str) and isinstance(v, list):
                        take(line, v, where)
        for v in o.values():
            walk(v, where)
    elif isinstance(o, list):
        for v in o:
            walk(v, where)


shown = {}  # line -> where a page, a script or a text showed it (must be meant)


def show(line, where):
    shown.setdefault(line, where)


# ---- 1. the site: the feed's argv, and every command a page shows -----------------
cache = watest.site_db(args)
site = os.path.join(W, "site")
p = watest.run(args, "build", "-q", "--cache", cache, "--out", site)
c.eq(p.returncode, 0, "build the fixture site: " + p.stderr.strip())
feeds = 0
for root, _, files in os.walk(os.path.join(site, "api")):
    for f in sorted(files):
        if f.endswith(".json") and f != "schema.json":
            with open(os.path.join(root, f)) as fh:
                walk(json.load(fh), os.path.relpath(os.path.join(root, f), site))
            feeds += 1
c.ok(feeds > 40, "feed files read: %d" % feeds)
with open(os.path.join(site, "assets", "answers.js")) as f:
    js = f.read()
m = re.search(r"^window\.wheelarchCommands = (.*);$", js, re.M)
if c.ok(m is not None, "answers.js holds its commands"):
    cmds = json.loads(m.group(1))
    for pair in cmds["lines"]:
        for line in pair:
            show(line, "assets/answers.js")
    show(cmds["uninstall"], "assets/answers.js")
CMD_RE = re.compile(r'<(code|pre)\b[^>]*\bclass="[^"]*\bcmd\b[^"]*"[^>]*>(.*?)</\1>', re.S)
ANY_RE = re.compile(r"<(code|pre)\b([^>]*)>(.*?)</\1>", re.S)
# Commands in the pages' own words (Markdown prose, template text): held
# to the same shells with the argv a POSIX shell's quoting rules give
# (shlex), so an unquoted pin in prose fails like one in an answer.
PROSE_RE = re.compile(r"^((?:pip|uv pip|python -m pip) (?:install|uninstall|download) .*|"
                      r"python -c .*|uv venv .*)$")
prose = {}
pages = 0
for root, _, files in os.walk(site):
    for f in files:
        if not f.endswith(".html"):
            continue
        rel = os.path.relpath(os.path.join(root, f), site)
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            text = fh.read()
        pages += 1
        for m in CMD_RE.finditer(text):
            body = html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))
            for line in body.split("\n"):
                if line.strip():
                    show(line, rel)
        for m in ANY_RE.finditer(text):
            if re.search(r'\bclass="[^"]*\bcmd\b', m.group(2)):
                continue
            body = html.unescape(re.sub(r"<[^>]+>", "", m.group(3)))
            for line in body.split("\n"):
                line = re.sub(r"\s+", " ", line.strip())
                if PROSE_RE.match(line):
                    prose.setdefault(line, rel)
c.ok(pages > 600, "pages read: %d" % pages)
c.ok(len(prose) >= 3, "commands in the pages' own words: %d" % len(prose))

# ---- 2. query over a spread of the grid ----------------------------------------
devices = sorted(f[:-len(".json")] for f in os.listdir(os.path.join(site, "api", "v1", "gpu")))
PLATFORMS = ("linux-x86_64", "linux-aarch64", "windows-x86_64")
asks = []
for i, dev in enumerate(devices):
    for plat in PLATFORMS:
        for drv in (None, "535.104.05", "470.82.01", "580"):
            py = ("3.12", "3.8", "3.14t", "3.13")[(i + len(asks)) % 4]
            asks.append((dev, plat, drv, py, None))
# Old and exact releases: fallbacks, pins of one version, companions of 1.x.
for dev in ("3.5", "6.1", "7.0", "8.0", "8.6", "12.0", "gfx1100", "gfx90a"):
    for ver in ("1.7", "1.13", "2.8.0", "2.9", "2.4"):
        asks.append((dev, "linux-x86_64", None, "3.8", ver))
        asks.append((dev, "windows-x86_64", "452.39", "3.9", ver))


def query(ask, text=False):
    dev, plat, drv, py, ver = ask
    argv = [args.wheelarch, "query", "--cc", dev, "--platform", plat, "--python", py, "--cache", cache]
    if drv:
        argv += ["--driver", drv]
    if ver:
        argv += ["--version", ver]
    if not text:
        argv.append("--json")
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


with concurrent.futures.ThreadPoolExecutor(max_workers=(os.cpu_count() or 2) + 1) as ex:
    outs = list(ex.map(query, asks))
    texts = list(ex.map(lambda a: query(a, True), asks[::3]))
answered = 0
for ask, p in zip(asks, outs):
    if p.returncode in (0, 1, 4) and p.stdout.strip():
        walk(json.loads(p.stdout), "query %s" % " ".join(x for x in ask if x))
        answered += 1
c.ok(answered > len(asks) // 2, "query answered %d of %d questions" % (answered, len(asks)))
print("query: %d questions, %d answered, %d asked for text too" % (len(asks), answered, len(texts)))
LINE_RE = re.compile(r"^\s*((?:pip|uv pip) (?:install|uninstall) .*)$")
text_lines = 0
for ask, p in zip(asks[::3], texts):
    for raw in p.stdout.splitlines():
        m = LINE_RE.match(raw)
        if m:
            show(m.group(1), "query text %s" % " ".join(x for x in ask if x))
            text_lines += 1
c.ok(text_lines > 100, "query's text printed %d command lines" % text_lines)

# ---- 3. doctor's fixes ----------------------------------------------------------------
CUDA = os.path.join(HERE, "..", "fixtures", "cuda")


def dist(sp, name, version, files):
    info = os.path.join(sp, "%s-%s.dist-info" % (name.replace("-", "_"), version))
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: %s\nVersion: %s\n\n" % (name, version))
    rec = []
    for path, fixture in files.items():
        full = os.path.join(sp, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        shutil.copyfile(os.path.join(CUDA, fixture), full)
        rec.append("%s,sha256=x,1" % path)
    rec.append("%s/METADATA,," % os.path.basename(info))
    with open(os.path.join(info, "RECORD"), "w") as f:
        f.write("\n".join(rec) + "\n")


env = {k: v for k, v in os.environ.items() if not k.startswith("WHEELARCH_")}
fixes = 0
for n, (version, lib, cc, drv) in enumerate([("2.8.0+cu126", "libk_two.so", "12.0", "580.82.07"),
                                           ("2.9.0+cu128", "libk_two.so", "12.0", "570.86.15"),
                                           ("2.8.0+cu126", "libk_two.so", "7.5", "535.104.05"),
                                           ("2.9.0+cu130", "libk_two.so", "10.0", "580.82.07")]):
    sp = os.path.join(W, "sp%d" % n)
    shutil.rmtree(sp, ignore_errors=True)
    dist(sp, "torch", version, {"torch/lib/libtorch_cuda.so": lib})
    base = [args.wheelarch, "doctor", "--cache", cache, "--platform", "linux-x86_64", "--driver", drv,
            "--site-packages", sp, "--cc", cc]
    p = subprocess.run(base + ["--json"], capture_output=True, text=True, timeout=120, env=env)
    if p.stdout.strip():
        o = json.loads(p.stdout)
        before = len(meant)
        walk(o, "doctor %s on %s" % (version, cc))
        fixes += any(d.get("fix") for d in o.get("distributions", []))
        del before
    p = subprocess.run(base, capture_output=True, text=True, timeout=120, env=env)
    for raw in p.stdout.splitlines():
        m = LINE_RE.match(raw)
        if m:
            show(m.group(1), "doctor text %s on %s" % (version, cc))
c.ok(fixes >= 3, "doctor printed fixes (%d)" % fixes)

# ---- 4. contrib/feed-installer.py ----------------------------------------------
FI = os.path.join(HERE, "..", "..", "contrib", "feed-installer.py")
fi_lines = 0
for dev, drv, py in (("8.6", "535.104.05", "3.12"), ("6.1", None, "3.12"), ("12.0", "580", "3.13"),
                     ("gfx1100", None, "3.12"), ("3.5", None, "3.7"), ("8.7", None, "3.10")):
    argv = [sys.executable, FI, site, dev, "--python", py] + (["--driver", drv] if drv else [])
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    for raw in p.stdout.splitlines():
        m = re.match(r"^\s*(?:JetPack .*: )?((?:pip|uv pip) install .*)$", raw)
        if m:
            show(m.group(1), "feed-installer %s" % dev)
            fi_lines += 1
c.ok(fi_lines >= 4, "the feed-installer printed commands (%d)" % fi_lines)

c.eq(clash[:5], [], "lines that stand for two argvs")
unknown = sorted("%s (%s)" % (l, w) for l, w in shown.items() if l not in meant)
c.eq(unknown[:5], [], "lines shown that no feed gives an argv for (%d)" % len(unknown))
print("%d distinct commands, %d of them shown on pages, scripts or text" % (len(meant), len(shown)))
c.ok(len(meant) > 150, "enough distinct commands to mean something (%d)" % len(meant))


# ---- 5. pasted into real shells ---------------------------------------------------
bindir = os.path.join(W, "bin")
os.makedirs(bindir, exist_ok=True)
for name in ("pip", "uv", "python", "mark"):
    dst = os.path.join(bindir, name)
    if os.path.lexists(dst):
        os.remove(dst)
    os.symlink(os.path.abspath(args.stub), dst)
here = os.path.join(W, "paste-here")
shutil.rmtree(here, ignore_errors=True)
os.makedirs(here)
decoys = set()
for argv in meant.values():
    for step in argv:
        for a in step:
            if "*" in a or "?" in a:
                decoys.add(a.replace("*", "x").replace("?", "x"))
            # an extra, torch[device-gfx1100]==...: unquoted, a bracket
            # expression that matches one of its characters
            m = re.search(r"\[([^]\[]+)\]", a)
            if m:
                decoys.add((a[:m.start()] + m.group(1)[0] + a[m.end():]).replace("*", "x"))
for d in decoys:
    if "/" not in d:
        open(os.path.join(here, d), "w").close()
c.ok("torch==2.14.x" in decoys, "a decoy torch==2.14.x among the %d decoys" % len(decoys))
c.ok(any(d.startswith("torchd==") for d in decoys), "a decoy for an extra's brackets (torchd==...)")
for line, where in prose.items():
    if line not in meant:
        try:
            meant[line] = [shlex.split(line)]
            origin[line] = where
        except ValueError as e:
            c.ok(False, "%s: %r does not even split: %s" % (where, line, e))
lines = sorted(meant)
print("%d pages, %d feed files, %d prose commands, %d decoy files, %d lines pasted" % (pages, feeds, len(prose), len(decoys), len(lines)))
script = "".join("mark %d\n%s\n" % (i, line) for i, line in enumerate(lines)) + "mark end\n"

SHELLS = [
    ("bash", ["bash", "--norc", "--noprofile", "-i"]),
    ("bash -O failglob", ["bash", "--norc", "--noprofile", "-O", "failglob", "-i"]),
    ("zsh", ["zsh", "-f", "-i"]),
    ("dash", ["dash", "-i"]),
    ("fish", ["fish", "--no-config"]),
]


def received(log):
    """The stub's records: [(program, [args])]."""
    with open(log, "rb") as f:
        data = f.read()
    out = []
    for rec in data.split(b"\x1e"):
        if rec:
            parts = rec.split(b"\0")[:-1]
            out.append([x.decode("utf-8", "replace") for x in parts])
    return out


for name, argv in SHELLS:
    exe = shutil.which(argv[0])
    if not c.ok(exe is not None, "%s is installed (scripts/install-deps.sh)" % argv[0]):
        continue
    log = os.path.join(W, "argv-%s.log" % name.replace(" ", "-"))
    if os.path.exists(log):
        os.remove(log)
    e = {"PATH": bindir + os.pathsep + "/usr/bin:/bin", "ARGV_LOG": log, "HOME": W, "TERM": "dumb",
         "LANG": "C.UTF-8", "HISTFILE": os.devnull}
    p = subprocess.run(argv, input=script, capture_output=True, text=True, cwd=here, env=e, timeout=600)
    got, cur, ended = {}, None, False
    for call in received(log) if os.path.exists(log) else []:
        if call[0] == "mark":
            cur = call[1] if len(call) > 1 else None
            ended = cur == "end"
            if not ended and cur is not None:
                got[int(cur)] = []
        elif cur is not None and not ended:
            got[int(cur)].append(call)
    c.ok(ended, "%s ran every line (exit %d; %s)" % (name, p.returncode, p.stderr.strip()[-300:]))
    bad = []
    for i, line in enumerate(lines):
        if got.get(i) != meant[line]:
            bad.append("%r gave %r, meant %r" % (line, got.get(i), meant[line]))
    c.eq(bad[:3], [], "%s: the arguments pip and uv receive are the ones meant (%d of %d differ)"
         % (name, len(bad), len(lines)))


# ---- 6. PowerShell and cmd, by their rules ----------------------------------------
def crt_split(cmdline):
    """A Windows program's argv from its command line, by the C runtime's
    rules (CommandLineToArgvW, as the MSVC runtime since 2008 applies them
    to arguments after the first): whitespace separates outside quotes; a
    quote toggles quoting; 2n backslashes before a quote are n and the
    quote counts, 2n+1 are n and a literal quote; "" inside quotes is a
    literal quote."""
    out, cur, inq, have, i = [], [], False, False, 0
    while i < len(cmdline):
        ch = cmdline[i]
        if ch == "\\":
            n = 0
            while i < len(cmdline) and cmdline[i] == "\\":
                n += 1
                i += 1
            if i < len(cmdline) and cmdline[i] == '"':
                cur.append("\\" * (n // 2))
                if n % 2:
                    cur.append('"')
                    i += 1
                have = True
            else:
                cur.append("\\" * n)
                have = True
            continue
        if ch == '"':
            if inq and i + 1 < len(cmdline) and cmdline[i + 1] == '"':
                cur.append('"')
                i += 2
                continue
            inq = not inq
            have = True
            i += 1
            continue
        if ch in " \t" and not inq:
            if have or cur:
                out.append("".join(cur))
            cur, have = [], False
            i += 1
            continue
        cur.append(ch)
        have = True
        i += 1
    if have or cur:
        out.append("".join(cur))
    return out


class Refused(Exception):
    pass


def cmd_steps(line):
    """cmd.exe at its prompt: %NAME% expands (inside quotes too); ^ escapes
    and & | < > ( ) are operators outside quotes; ! expands under delayed
    expansion (cmd /V:ON); && runs the next step on success.  Each step's
    text goes to its program, split by the C runtime."""
    if "%" in line:
        raise Refused("% expands variables in cmd")
    if "!" in line:
        raise Refused("! expands under delayed expansion")
    steps, cur, inq, i = [], [], False, 0
    while i < len(line):
        ch = line[i]
        if ch == '"':
            inq = not inq
        elif not inq and ch == "&" and line[i:i + 2] == "&&":
            steps.append("".join(cur))
            cur = []
            i += 2
            continue
        elif not inq and ch in "^&|<>()":
            raise Refused("%r outside quotes is cmd's operator" % ch)
        cur.append(ch)
        i += 1
    if inq:
        raise Refused("an unclosed quote")
    steps.append("".join(cur))
    return [crt_split(s.strip()) for s in steps]


def ps_steps(line):
    """PowerShell 7.3+ in argument mode, calling a program: a bare word
    ends at whitespace or ; | & ( ) { } and may not hold $ ` , or start with
    @ # ' " - stop-parsing (--%), nor be "-name" holding a '.' (passed
    split); "..." expands $ and ` (and ends at "); '...' is literal; && runs
    the next step on success.  Each argument reaches the program as its
    string (PowerShell quotes it as needed and the C runtime splits it
    back), so the model's argv is the strings."""
    steps, args_, i = [], [], 0
    cur, have = [], False

    def end_word():
        nonlocal cur, have
        if have:
            word = "".join(cur)
            args_.append(word)
        cur, have = [], False

    while i < len(line):
        ch = line[i]
        if ch in " \t":
            end_word()
            i += 1
            continue
        if ch == "&" and line[i:i + 2] == "&&":
            end_word()
            steps.append(args_)
            args_ = []
            i += 2
            continue
        if ch == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                if line[j] in "$`\u201c\u201d\u201e":
                    raise Refused("%r inside double quotes is PowerShell's" % line[j])
                j += 1
            if j == len(line):
                raise Refused("an unclosed quote")
            cur.append(line[i + 1:j])
            have = True
            i = j + 1
            continue
        if ch == "'":
            j = line.find("'", i + 1)
            if j < 0:
                raise Refused("an unclosed quote")
            cur.append(line[i + 1:j])
            have = True
            i = j + 1
            continue
        if ch in "$`,;|&(){}<>":
            raise Refused("%r outside quotes is PowerShell's" % ch)
        if not have and ch in "@#":
            raise Refused("%r starting a word is PowerShell's" % ch)
        if not have and line[i:i + 3] == "--%":
            raise Refused("--% stops PowerShell's parsing")
        if not have and ch == "-":
            j = i
            while j < len(line) and line[j] not in " \t":
                j += 1
            word = line[i:j]
            if "." in word and '"' not in word and "'" not in word:
                raise Refused("PowerShell passes %r split at its '.'" % word)
        cur.append(ch)
        have = True
        i += 1
    end_word()
    steps.append(args_)
    return steps


for name, model in (("PowerShell", ps_steps), ("cmd", cmd_steps)):
    bad = []
    for line in lines:
        try:
            got = model(line)
        except Refused as e:
            got = "refused: %s" % e
        if got != meant[line]:
            bad.append("%r: %s" % (line, got))
    c.eq(bad[:3], [], "%s: every line gives the argv meant (%d of %d differ)" % (name, len(bad), len(lines)))
# The models catch what they must: lines the writer never writes.
for line, model, what in (("pip install torch==2.8.* $(id)", ps_steps, "a bare $(...)"),
                          ("pip install a,b", ps_steps, "a comma"),
                          ("pip install -index.url x", ps_steps, "an option with a '.'"),
                          ('pip install "x$HOME"', ps_steps, "$ inside double quotes"),
                          ("pip install %PATH%", cmd_steps, "%VAR%"),
                          ('pip install "%PATH%"', cmd_steps, "%VAR% inside quotes"),
                          ("pip install 'torch==2.8.*'", cmd_steps, "single quotes in cmd"),
                          ("pip install x & calc", cmd_steps, "an operator")):
    try:
        got = model(line)
        ok = got != [shlex.split(line)]
    except Refused:
        ok = True
    c.ok(ok, "the %s model refuses or changes %s: %r" % ("PowerShell" if model is ps_steps else "cmd", what, line))
c.eq(cmd_steps('pip install "torch==2.14.*" --index-url https://download.pytorch.org/whl/cu126'),
     [["pip", "install", "torch==2.14.*", "--index-url", "https://download.pytorch.org/whl/cu126"]],
     "cmd: the quotes go, the pin stays")
c.eq(crt_split(r'a "b c" d\"e "f\\" g'), ["a", "b c", 'd"e', "f\\", "g"], "the C runtime's splitting rules")
c.done()
