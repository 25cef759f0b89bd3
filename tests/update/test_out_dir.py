"""What `build` and `update` may replace (docs/robustness.md, "What wheelarch
deletes"): only an output folder that is new, empty or carries the marker
every build writes (.wheelarch-output), or the stamp of a build made before
the marker.  Anything else — the current folder with its .git, a home folder,
a regular file, the root, a mount point, an empty --out from an unset
variable — is refused with one line and exit status 2, and a marker file
planted in it survives.  A build whose last step (the swap) fails says so in
one line and exits 1, leaving the old site: it used to free its state twice
and crash with SIGSEGV."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args(lambda ap: ap.add_argument("--fail-rename", required=True))
c = watest.Checker()
W = args.work
cache = watest.site_db(args)
MARKER = ".wheelarch-output"


def build(out, *extra, **kw):
    return watest.run(args, "build", "--cache", cache, "--out", out, "-q", *extra, **kw)


def someones_folder(path):
    """A folder that is not wheelarch's: a checkout with a file that must survive."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(os.path.join(path, ".git"))
    with open(os.path.join(path, "keep-me"), "w") as f:
        f.write("precious\n")
    return path


def intact(path, what):
    c.ok(os.path.isfile(os.path.join(path, "keep-me")) and os.path.isdir(os.path.join(path, ".git")),
         "%s: the folder's own files survive" % what)


def refused(p, what, words):
    c.eq(p.returncode, 2, "%s: exit status" % what)
    lines = p.stderr.strip().splitlines()
    c.ok(lines and lines[0].startswith("wheelarch: ") and all(w in p.stderr for w in words),
         "%s: one line naming the folder and why: %r" % (what, p.stderr))


# --out "" (an unset $SITE): a usage error, never the current folder.
cwd = someones_folder(os.path.join(W, "checkout"))
p = watest.run(args, "build", "--cache", cache, "--out", "", cwd=cwd)
refused(p, "--out ''", ["--out", "empty"])
intact(cwd, "--out ''")
p = watest.run(args, "update", "--cache", cache, "--out", "", "--index",
               "http://127.0.0.1:9/cu128/", "--project", "torch", cwd=cwd)
refused(p, "update --out ''", ["--out", "empty"])
intact(cwd, "update --out ''")

# "." and the same folder by its absolute path
for out in (".", cwd, cwd + "/"):
    p = build(out, cwd=cwd)
    refused(p, "--out %s" % out, [cwd, "refusing", MARKER])
    intact(cwd, "--out %s" % out)
    c.ok(not os.path.exists(cwd + ".tmp"), "--out %s: no temporary tree made" % out)

# a regular file, and the root folder
afile = os.path.join(W, "afile")
with open(afile, "w") as f:
    f.write("data\n")
p = build(afile)
refused(p, "--out FILE", [afile, "not a folder"])
c.eq(open(afile).read(), "data\n", "--out FILE: the file is untouched")
p = build("/")
c.eq(p.returncode, 2, "--out /: refused")

# A stale OUT.tmp that is not wheelarch's is not removed either.
site = os.path.join(W, "site")
someones_folder(site + ".tmp")
p = build(site)
refused(p, "a foreign OUT.tmp", [site + ".tmp", "refusing"])
intact(site + ".tmp", "a foreign OUT.tmp")
shutil.rmtree(site + ".tmp", ignore_errors=True)

# A new folder, then the same again: the marker makes it wheelarch's.
p = build(site)
c.eq(p.returncode, 0, "a new folder: built (%s)" % p.stderr.strip())
c.ok(os.path.isfile(os.path.join(site, MARKER)), "the site carries the marker")
with open(os.path.join(site, "stray.html"), "w") as f:
    f.write("left by hand")
os.remove(site + ".stamp")  # no shortcut: the next build replaces the folder
p = build(site)
c.eq(p.returncode, 0, "a marked folder: rebuilt (%s)" % p.stderr.strip())
c.ok(not os.path.exists(os.path.join(site, "stray.html")), "a marked folder is replaced whole")

# An empty folder is fine; a site of a build before the marker (its stamp
# beside it) too.
empty = os.path.join(W, "empty")
os.makedirs(empty)
p = build(empty)
c.eq(p.returncode, 0, "an empty folder: built (%s)" % p.stderr.strip())
legacy = os.path.join(W, "legacy")
shutil.copytree(site, legacy)
os.remove(os.path.join(legacy, MARKER))
with open(legacy + ".stamp", "w") as f:
    f.write("{}\n")  # the stamp of an older build, of other inputs
p = build(legacy)
c.eq(p.returncode, 0, "a site with the stamp of an older build: rebuilt (%s)" % p.stderr.strip())
c.ok(os.path.isfile(os.path.join(legacy, MARKER)), "and now carries the marker")

# A mount point cannot be swapped by a rename: refused before anything is
# built (root only: it takes a mount).
if os.geteuid() == 0 and shutil.which("mount"):
    mnt = os.path.join(W, "mnt")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mnt]).returncode == 0:
        try:
            p = build(mnt)
            refused(p, "--out on a mount point", [mnt, "mount point"])
            c.eq(os.listdir(mnt), [], "the mount point is left as it was")
        finally:
            subprocess.run(["umount", mnt])
    else:
        print("SKIP: cannot mount a tmpfs here")
else:
    print("SKIP: the mount point case needs root")

# The swap fails (rename and renameat2 fail with EXDEV): one line, exit
# status 1, the old site whole, no temporary tree left.  Under the
# sanitizers this also proves the state is freed once.
os.remove(site + ".stamp")
before = watest.tree(site)
env = dict(os.environ, LD_PRELOAD=args.fail_rename, WHEELARCH_TEST_FAIL_RENAME="1")
env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
with open(os.path.join(site, "index.html"), "a") as f:
    f.write("<!-- changed, so the build has something to swap -->")
before = watest.tree(site)
p = build(site, env=env)
c.eq(p.returncode, 1, "a failed swap: exit status 1 (%s)" % p.stderr.strip())
c.ok("cannot" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
     "a failed swap: one line saying why: %r" % p.stderr)
c.eq(watest.tree(site), before, "a failed swap: the old site is left as it was")
c.ok(not os.path.exists(site + ".tmp"), "a failed swap: no temporary tree left")

# The folder is replaced by someone else's while the site is built: the
# swap sees it is not the folder the build started with, and leaves it.
with open(os.path.join(site, "index.html"), "a") as f:
    f.write("<!-- changed again -->")
if os.path.exists(site + ".stamp"):
    os.remove(site + ".stamp")
env = dict(os.environ, LD_PRELOAD=args.fail_rename, WHEELARCH_TEST_REPLACE=site)
env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
p = build(site, env=env)
c.eq(p.returncode, 1, "a folder put in place meanwhile: exit 1 (%s)" % p.stderr.strip())
c.ok(site in p.stderr and len(p.stderr.strip().splitlines()) == 1, "one line: %r" % p.stderr)
c.eq(open(os.path.join(site, "thesis.tex")).read(), "someone's work\n",
     "the folder put in place keeps its file")
c.ok(os.path.isfile(os.path.join(site + ".moved", MARKER)), "the old site is where it was moved")
shutil.rmtree(site)
os.rename(site + ".moved", site)

# A stamp outlives its folder: a folder made by hand where a site was is
# still not wheelarch's, and the "nothing changed" shortcut does not take it.
docs = os.path.join(W, "docs")
p = build(docs)
c.eq(p.returncode, 0, "a site at docs (%s)" % p.stderr.strip())
shutil.rmtree(docs)
someones_folder(docs)
for extra in ((), ("--base-url", "https://x.example/")):
    p = build(docs, *extra)
    refused(p, "a stale docs.stamp %s" % " ".join(extra), [docs, "refusing"])
    intact(docs, "a stale docs.stamp %s" % " ".join(extra))

# Files beside the folder that are not wheelarch's: a lock path that is a
# link or another program's file, a stamp path that is not a stamp.
for name, make in (("linked", lambda p: os.symlink(os.path.join(W, "victim"), p)),
                   ("Gemfile", lambda p: open(p, "w").write("GEM\n  specs:\n"))):
    with open(os.path.join(W, "victim"), "w") as f:
        f.write("precious\n")
    out = os.path.join(W, name)
    make(out + ".lock")
    p = build(out)
    refused(p, "%s.lock is not a lock" % name, [out + ".lock", "refusing"])
    c.eq(open(os.path.join(W, "victim")).read(), "precious\n", "%s.lock: its target untouched" % name)
    c.ok(not os.path.exists(out), "%s.lock: nothing built" % name)
c.eq(open(os.path.join(W, "Gemfile.lock")).read(), "GEM\n  specs:\n", "Gemfile.lock untouched")
other = os.path.join(W, "other")
with open(other + ".stamp", "w") as f:
    f.write("a file of someone else's\n")
p = build(other)
c.eq(p.returncode, 0, "a build beside a foreign other.stamp (%s)" % p.stderr.strip())
c.eq(open(other + ".stamp").read(), "a file of someone else's\n", "a foreign .stamp stays")

# Mounts: a bind mount as the output folder is refused like any mount
# point; a file system mounted inside an old site is not deleted through.
if os.geteuid() == 0 and shutil.which("mount"):
    src, bm = os.path.join(W, "bind-src"), os.path.join(W, "bind-out")
    os.makedirs(src)
    os.makedirs(bm)
    if subprocess.run(["mount", "--bind", src, bm]).returncode == 0:
        try:
            p = build(bm)
            refused(p, "--out on a bind mount", [bm, "mount point"])
        finally:
            subprocess.run(["umount", bm])
    # a mount at DIR.tmp is not emptied, even when DIR is wheelarch's
    outside = os.path.join(W, "outside")
    os.makedirs(os.path.join(outside, "sub"))
    with open(os.path.join(outside, "file"), "w") as f:
        f.write("keep\n")
    os.makedirs(site + ".tmp")
    if subprocess.run(["mount", "--bind", outside, site + ".tmp"]).returncode == 0:
        try:
            p = build(site, "--base-url", "https://y.example/")
            refused(p, "a mount at DIR.tmp", [site + ".tmp", "mount point"])
            c.eq(sorted(os.listdir(outside)), ["file", "sub"], "what is mounted at DIR.tmp stays")
        finally:
            subprocess.run(["umount", site + ".tmp"])
    os.rmdir(site + ".tmp")
    user = os.path.join(W, "userdata")
    os.makedirs(user)
    with open(os.path.join(user, "file"), "w") as f:
        f.write("mine\n")
    inner = os.path.join(site, "mirror")
    os.makedirs(inner)
    if subprocess.run(["mount", "--bind", user, inner]).returncode == 0:
        try:
            with open(os.path.join(site, "index.html"), "a") as f:
                f.write("<!-- a third change -->")
            build(site)
            c.eq(open(os.path.join(user, "file")).read(), "mine\n",
                 "a file system mounted inside the old site is not deleted through")
        finally:
            for m in (inner, os.path.join(site + ".tmp", "mirror")):
                subprocess.run(["umount", m], capture_output=True)
            subprocess.run(["umount", "-l", inner], capture_output=True)
else:
    print("SKIP: the bind mount cases need root")
# A symbolic link inside the old output (a folder of it pointing elsewhere):
# the rebuild never hard-links the files it reaches into the new site; it
# writes its own, and the outside files keep their single link.
lk = os.path.join(W, "linked-site")
shutil.rmtree(lk, ignore_errors=True)
p = build(lk)
c.eq(p.returncode, 0, "a site to rebuild: " + p.stderr)
outside = os.path.join(W, "outside-assets")
shutil.rmtree(outside, ignore_errors=True)
shutil.move(os.path.join(lk, "assets"), outside)
os.symlink(outside, os.path.join(lk, "assets"))
p = build(lk, "--base-url", "https://example.org/x")  # something changed: a rebuild, not a no-op
c.eq(p.returncode, 0, "the rebuild over a linked folder: " + p.stderr)
new_assets = os.path.join(lk, "assets")
c.ok(os.path.isdir(new_assets) and not os.path.islink(new_assets), "the new site's assets are its own folder")
shared = [f for f in os.listdir(outside)
          if os.path.samefile(os.path.join(outside, f), os.path.join(new_assets, f))] if os.path.isdir(new_assets) else ["?"]
c.eq(shared, [], "no file outside the old output is hard-linked into the new site")
c.ok(all(os.stat(os.path.join(outside, f)).st_nlink == 1 for f in os.listdir(outside)),
     "and the outside files keep one link each")
c.done()
