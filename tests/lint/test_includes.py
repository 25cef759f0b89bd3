"""Every .c file of src/ and tool/ includes only project headers it uses.

A header is taken as used when the file names something the header
declares (a function, type, enum constant, macro, extern variable); each
include that names nothing is then checked by the compiler itself: the file
compiled without it (gcc -fsyntax-only -Werror).  If it still compiles,
the include is unused and the test fails naming it.  (A file that needs a
header only for a type it reaches through another's members, or for what
that header includes, still needs it: the compiler says so, and the test
lets it be.)  Headers including headers are not checked here."""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
ROOT = watest.ROOT
BUILD = os.path.dirname(args.wheelarch)
INCLUDES = ["-I" + os.path.join(ROOT, "src", d) for d in sorted(os.listdir(os.path.join(ROOT, "src")))
            if os.path.isdir(os.path.join(ROOT, "src", d))]
INCLUDES += ["-I" + os.path.join(BUILD, "generated"), "-I" + os.path.join(ROOT, "tool")]
FLAGS = ["-D_GNU_SOURCE", "-std=c11", "-Wall", "-Wextra", "-Wstrict-prototypes", "-Wmissing-prototypes",
         "-Werror", "-fsyntax-only"] + INCLUDES


KEYWORDS = set("if for while switch return sizeof case default do else goto break continue static const struct enum union typedef extern inline void int char long short unsigned signed double float".split())

def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return text

def declared(text):
    t = strip(text)
    names = set()
    names |= set(re.findall(r"#\s*define\s+(\w+)", t))
    names |= set(re.findall(r"\b(?:struct|enum|union)\s+(\w+)\s*\{", t))
    names |= set(re.findall(r"\btypedef\b[^;{]*?\b(\w+)\s*;", t))
    names |= set(re.findall(r"\btypedef\b[^;]*?\(\s*\*\s*(\w+)\s*\)", t))
    for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", t):
        names |= set(re.findall(r"\b([A-Za-z_]\w*)\s*(?:=[^,]*)?(?:,|$)", body.strip()))
    names |= set(re.findall(r"\bextern\b[^;(]*?\b(\w+)\s*(?:\[[^\]]*\])*\s*;", t))
    # function declarations: a name followed by "(" at file scope (depth 0)
    depth = 0
    for m in re.finditer(r"[{}]|\b([A-Za-z_]\w*)\s*\(", t):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif depth == 0 and m.group(1) not in KEYWORDS:
            names.add(m.group(1))
    # typedef struct x {...} name;
    names |= set(re.findall(r"\}\s*(\w+)\s*;", t)) if "typedef" in t else set()
    return names - KEYWORDS


def compiles(path, text):
    p = subprocess.run(["gcc"] + FLAGS + ["-iquote", os.path.dirname(path), "-x", "c", "-", "-o", os.devnull],
                       input=text, text=True, capture_output=True, timeout=120)
    return p.returncode == 0


paths = []
for d in ("src", "tool"):
    for dp, _, fs in os.walk(os.path.join(ROOT, d)):
        paths += [os.path.join(dp, f) for f in fs if f.endswith((".c", ".h"))]
byname = {}
for p in paths:
    byname.setdefault(os.path.basename(p), p)
decl = {}


def decl_of(h):
    if h not in decl:
        decl[h] = declared(open(byname[h]).read())
    return decl[h]


counts = {"checked": 0, "suspects": 0}


def unused_in(p, text):
    """The project headers p (with this text) includes and does not use."""
    own = os.path.basename(p)[:-2] + ".h"
    body = strip(re.sub(r"^\s*#\s*include[^\n]*", "", text, flags=re.M))
    idents = set(re.findall(r"\b[A-Za-z_]\w*\b", body))
    found = []
    for h in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, flags=re.M):
        h = os.path.basename(h)
        if h == own or h not in byname:
            continue
        counts["checked"] += 1
        if decl_of(h) & idents:
            continue
        counts["suspects"] += 1
        without = re.sub(r'^\s*#\s*include\s+"%s"\s*\n' % re.escape(h), "", text, count=1, flags=re.M)
        if compiles(p, without):
            found.append(h)
    return found


unused = []
for p in sorted(x for x in paths if x.endswith(".c")):
    unused += ["%s: %s" % (os.path.relpath(p, ROOT), h) for h in unused_in(p, open(p).read())]
print("%d includes of project headers in .c files; %d name nothing the file uses, checked by the compiler"
      % (counts["checked"], counts["suspects"]))
c.ok(counts["checked"] > 500, "the includes were found (%d)" % counts["checked"])
c.eq(unused, [], "includes of headers a file does not use")
# the check can fail: a header nothing needs, put into a real file
probe = os.path.join(ROOT, "src", "base", "strbuf.c")
c.eq(unused_in(probe, '#include "lockfile.h"\n' + open(probe).read()), ["lockfile.h"],
     "a header included for nothing is found")
c.done()
