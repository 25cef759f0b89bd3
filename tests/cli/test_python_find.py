"""Which Python `query` answers for, read where the environment writes it
down before any interpreter is started: pyenv's shims by pyenv's version
files (PYENV_VERSION, .python-version, ROOT/version, "system"), a venv by
its pyvenv.cfg, conda by conda-meta, any interpreter by its resolved file
name; what asking an interpreter said is remembered by its path, size and
modification time.  Every interpreter here is a real script that counts its
runs and says a version no finder could read elsewhere, so a run that
should not happen shows."""
import os
import re
import stat
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = os.path.abspath(args.work)
RUNS = os.path.join(W, "runs")
SYSPATH = "/usr/bin:/bin"


def interp(path, says, link_name=None):
    """An interpreter script at path that logs each run and prints says; with
    link_name, path is a link to a script of that name beside it."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    target = os.path.join(os.path.dirname(path), link_name) if link_name else path
    with open(target, "w") as f:
        f.write("#!/bin/sh\necho %s >> %s\necho %s\n" % (target, RUNS, says))
    os.chmod(target, os.stat(target).st_mode | stat.S_IXUSR)
    if link_name:
        if os.path.lexists(path):
            os.remove(path)
        os.symlink(link_name, path)
    return target


def runs():
    if not os.path.exists(RUNS):
        return []
    with open(RUNS) as f:
        return [l.strip() for l in f if l.strip()]


def first_line(path_dirs, cwd=W, python=None, **env):
    e = {k: v for k, v in os.environ.items()
         if k not in ("PYENV_VERSION", "VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_ROOT")}
    e.update(PATH=":".join(path_dirs + [SYSPATH]), XDG_CACHE_HOME=os.path.join(W, "xdg"), **env)
    argv = ["query", "--gpu", "GTX 1080 Ti", "--driver", "570.86.15", "--version", "2.8"]
    if python:
        argv += ["--python", python]
    p = watest.run(args, *argv, env=e, cwd=cwd)
    c.ok(p.returncode in (0, 1, 4), "query answers (%d): %s" % (p.returncode, p.stderr[-300:]))
    return p.stdout.splitlines()[0] if p.stdout else ""


def check(what, line, version, how, ran=()):
    c.ok(line.startswith("for Python %s (" % version), "%s: Python %s: %s" % (what, version, line))
    c.ok(line.endswith("; --python X.Y for another)") or "--python" not in line,
         "%s: one line, ending as before: %s" % (what, line))
    c.ok(how in line, "%s: says how it was found (%r): %s" % (what, how, line))
    got = runs()
    c.eq(got, list(ran), "%s: interpreters run" % what)
    if os.path.exists(RUNS):
        os.remove(RUNS)


# ---- pyenv ------------------------------------------------------------------
root = os.path.join(W, "pyenv")
shims = os.path.join(root, "shims")
interp(os.path.join(shims, "python3"), "3.7")  # the shim itself must not run
interp(os.path.join(root, "versions", "3.12.4", "bin", "python3"), "3.7", "python3.12")
interp(os.path.join(root, "versions", "3.13.1t", "bin", "python3"), "3.7", "python3.13t")
interp(os.path.join(root, "versions", "3.10.2", "bin", "python3"), "3.7")  # no version in its name
venv_py = interp(os.path.join(root, "versions", "work-env", "bin", "python3"), "3.9")
with open(os.path.join(root, "version"), "w") as f:
    f.write("# the global version\n3.12.4\n")

check("pyenv global", first_line([shims]), "3.12",
      "python3 on PATH is pyenv's 3.12.4, set by %s/version" % root)
proj = os.path.join(W, "project", "src")
os.makedirs(proj)
with open(os.path.join(W, "project", ".python-version"), "w") as f:
    f.write("3.13.1t\n")
check("pyenv .python-version above the folder", first_line([shims], cwd=proj),
      "3.13 (free-threaded)",
      "pyenv's 3.13.1t, set by %s/project/.python-version" % W)
check("pyenv PYENV_VERSION first", first_line([shims], cwd=proj, PYENV_VERSION="3.10.2"), "3.10",
      "pyenv's 3.10.2, set by PYENV_VERSION")
check("pyenv's first version that has the command",
      first_line([shims], PYENV_VERSION="missing:3.12.4"), "3.12", "pyenv's 3.12.4")
# a virtualenv's name says nothing: its interpreter is asked, once
check("pyenv virtualenv, asked", first_line([shims], PYENV_VERSION="work-env"), "3.9",
      "its version", [venv_py])
check("pyenv virtualenv, remembered", first_line([shims], PYENV_VERSION="work-env"), "3.9",
      "asked before", [])
sysdir = os.path.join(W, "sys")
interp(os.path.join(sysdir, "python3"), "3.7", "python3.11")
check("pyenv system", first_line([shims, sysdir], PYENV_VERSION="system"), "3.11",
      "pyenv's system Python, set by PYENV_VERSION, %s/python3.11" % sysdir)

# ---- a venv -------------------------------------------------------------------
venv = os.path.join(W, "venv")
interp(os.path.join(venv, "bin", "python3"), "3.7")
with open(os.path.join(venv, "pyvenv.cfg"), "w") as f:
    f.write("home = /usr/local/bin\nimplementation = CPython\nuv = 0.13.0\n"
            "version_info = 3.12.7\ninclude-system-site-packages = false\n")
check("venv by pyvenv.cfg", first_line([os.path.join(venv, "bin")]), "3.12",
      "python3 on PATH is the venv %s's, by its pyvenv.cfg" % venv)
check("venv by pyvenv.cfg, --python PATH",
      first_line([], python=os.path.join(venv, "bin", "python3")), "3.12", "by its pyvenv.cfg")
bad = os.path.join(W, "badvenv")
bad_py = interp(os.path.join(bad, "bin", "python3"), "3.8")
with open(os.path.join(bad, "pyvenv.cfg"), "w") as f:
    f.write("version = banana\n")
check("venv with a pyvenv.cfg that says nothing: asked", first_line([os.path.join(bad, "bin")]),
      "3.8", "asked its version", [bad_py])

# ---- conda --------------------------------------------------------------------
conda = os.path.join(W, "conda")
interp(os.path.join(conda, "bin", "python3"), "3.7")
os.makedirs(os.path.join(conda, "conda-meta"))
for name in ("python-3.11.9-hab00c5b_0_cpython.json", "python_abi-3.11-5_cp311.json",
             "pip-24.2-pyh8b19718_1.json"):
    open(os.path.join(conda, "conda-meta", name), "w").close()
check("conda by conda-meta", first_line([os.path.join(conda, "bin")], CONDA_PREFIX=conda),
      "3.11", "conda's %s, by conda-meta/python-3.11.9" % conda)

# ---- asked once, remembered while the file is unchanged ------------------------
plain = os.path.join(W, "plain")
plain_py = interp(os.path.join(plain, "python3"), "3.10")
check("an unnamed interpreter is asked", first_line([plain]), "3.10",
      "python3 on PATH is %s, asked its version" % plain_py, [plain_py])
remembered = os.path.join(W, "xdg", "wheelarch", "python-versions")
c.ok(os.path.exists(remembered), "what it said is remembered in %s" % remembered)
check("and then remembered", first_line([plain]), "3.10", "asked before (remembered in %s)"
      % remembered, [])
time.sleep(0.01)
interp(plain_py, "3.14")  # replaced: another size and time
check("a changed interpreter is asked again", first_line([plain]), "3.14", "asked its version",
      [plain_py])
with open(remembered) as f:
    lines = f.read().splitlines()
c.eq(len([l for l in lines if l.endswith(" " + plain_py)]), 1,
     "one line per interpreter file in the remembered versions")
c.ok(all(re.match(r"^3\.\d+t?\t\d+\.\d{9} \d+ /", l) for l in lines),
     "remembered lines are VERSION, time, size, path: %r" % lines)
# a shim's answer changes with the folder: never remembered
check("a shim pyenv cannot read is asked", first_line([shims], PYENV_VERSION="nothing-here"),
      "3.7", "pyenv's shim", [os.path.join(shims, "python3")])
check("and asked again", first_line([shims], PYENV_VERSION="nothing-here"), "3.7",
      "pyenv's shim", [os.path.join(shims, "python3")])

# ---- named by its file, as before ----------------------------------------------
check("a named interpreter", first_line([sysdir]), "3.11",
      "python3 on PATH is %s/python3.11" % sysdir)
c.done()
