"""Where JSON may be read by key, and where a page's path may be written:
the boundaries issue 47 drew, held so that they stay drawn.

- The crawl reads JSON by key only where it parses what comes from outside:
  its configuration (config.c) and the index pages (indexpage.c).  What the
  database knows of a wheel, a failure or a journal note comes back as a
  struct (db_known_get, db_failure_get, db_note_get).
- The tool reads doctor's report as a struct (struct doctor_result), not
  its JSON back by key.
- The site builds JSON objects only in the writers of its feed files: the
  shared parts and the per-device, GPU list and home filter files
  (feed_answer, feed_device, feed_gpus, feed_home, feed_variant_lists), the documents under
  api/v1/ (sitedata_feeds), the PEP 825 variant files (pepvariants), the
  PEP 691 simple indexes (site_simple), the schema's $id (site_feeds) and
  the build stamp (sitestamp).  Page data is typed (tmpl_type), never a
  JSON tree.
- A GPU page's and a wheel page's path is formatted in one place
  (sitedata_gpu_path, sitedata_wheel_path in src/site/sitedata_text.c);
  every link, feed and page takes it from there.

- Page data is declared as field tables (TMPL_FIELDS): every {{name}} a
  template in templates/ names is a row of a table in src/site/, and the
  only types that still answer names by code are the maps keyed by data
  (ptx_isa, a binary's targets and compression, a stack's versions) and
  the binary's target entry that adds two names to a target's.  (Which
  data answers each name at render time is site.e2e's name trace.)

Comments and strings in comments do not count: a line is looked at after
its comments are removed."""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
ROOT = watest.ROOT


def code_of(path):
    """The file's text without its comments (strings kept)."""
    text = open(os.path.join(ROOT, path)).read()
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def files(folder):
    d = os.path.join(ROOT, folder)
    return sorted(os.path.join(folder, f) for f in os.listdir(d) if f.endswith((".c", ".h")))


def where(pattern, paths):
    """{path: count} of the files whose code matches pattern."""
    found = {}
    for p in paths:
        k = len(re.findall(pattern, code_of(p)))
        if k:
            found[p] = k
    return found


rules = [
    ("json_object_get in src/crawl/", r"\bjson_object_get\s*\(", files("src/crawl"),
     {"src/crawl/config.c", "src/crawl/indexpage.c"}),
    ("json_object_get in tool/cli_doctor.c", r"\bjson_object_get\s*\(", ["tool/cli_doctor.c"], set()),
    ("json_object_set* in src/site/", r"\bjson_object_set\w*\s*\(", files("src/site"),
     {"src/site/feed_answer.c", "src/site/feed_device.c", "src/site/feed_gpus.c",
      "src/site/feed_home.c", "src/site/feed_variant_lists.c", "src/site/sitedata_feeds.c", "src/site/pepvariants.c",
      "src/site/site_simple.c", "src/site/site_feeds.c", "src/site/sitestamp.c"}),
    ('"gpu/%s/" formatted', r'"gpu/%s/', files("src/site") + files("tool"), {"src/site/sitedata_text.c"}),
    ('"wheel/%s.html" formatted', r'"wheel/%s\.html"', files("src/site") + files("tool"),
     {"src/site/sitedata_text.c"}),
]
for name, pattern, paths, allowed in rules:
    found = where(pattern, paths)
    c.eq(sorted(set(found) - allowed), [], "%s only in %s (found: %s)" % (name, sorted(allowed) or "no file", found))
    for a in allowed:
        c.ok(a in found, "%s: %s still does it (else the rule is stale: tighten it)" % (name, a))

# Templates' names against the field tables.
site_code = {p: code_of(p) for p in files("src/site")}
rows = set()
for text in site_code.values():
    rows.update(re.findall(r'\bTMPL_[A-Z]+\(\s*"([a-z0-9_]+)"', text))
by_code = set()
for text in site_code.values():
    by_code.update(re.findall(r'\bIS\(\s*"([a-z0-9_]+)"\s*\)', text))
tdir = os.path.join(ROOT, "templates")
used = {}
for f in sorted(os.listdir(tdir)):
    if not f.endswith(".mustache"):
        continue
    text = re.sub(r"{{!.*?}}", "", open(os.path.join(tdir, f)).read(), flags=re.S)
    for tag in re.findall(r"{{\s*[#^/&{]?\s*([A-Za-z0-9_.]+)\s*}?}}", text):
        for part in tag.split("."):
            if part:
                used.setdefault(part, f)
missing = sorted("%s (%s)" % (n, f) for n, f in used.items() if n not in rows and n not in by_code)
c.eq(missing, [], "every template name is a field table's row, or a name one of the typed maps answers")
c.ok(len(rows) > 200, "the field tables were read (%d rows)" % len(rows))
getters = sorted("%s: %s" % (p, m) for p, text in site_code.items()
                 for m in re.findall(r"static void (\w+)\(const struct tmpl_value \*v, const char \*name, size_t len,", text))
c.eq(getters, ["src/site/sitedata_answer.c: versions_get", "src/site/sitedata_release.c: compression_get",
               "src/site/sitedata_release.c: entry_get", "src/site/sitedata_release.c: isa_get",
               "src/site/sitedata_release.c: targets_get", "src/site/tmpl.c: field",
               "src/site/tmpl_json.c: json_get"],
     "types that answer names by code: only the maps keyed by data and the target entry "
     "(and the engine's own lookup and its JSON adapter)")

# The checker itself: it sees a call in code, not one in a comment.
probe = os.path.join(args.work, "probe.c")
os.makedirs(args.work, exist_ok=True)
with open(probe, "w") as f:
    f.write('/* json_object_get(x, "a") */\nint f(void) { return g("/* not a comment */"); }\n'
            'int h(void) { return json_object_get(o, "k") != 0; } // json_object_get(\n')
rel = os.path.relpath(probe, ROOT)
c.eq(where(r"\bjson_object_get\s*\(", [rel]), {rel: 1}, "the checker counts the call in code only")
c.done()
