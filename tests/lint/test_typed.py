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
  (feed_answer, feed_device, feed_gpus, feed_home), the documents under
  api/v1/ (sitedata_feeds), the PEP 825 variant files (pepvariants), the
  PEP 691 simple indexes (site_simple), the schema's $id (site_feeds) and
  the build stamp (sitestamp).  Page data is typed (tmpl_type), never a
  JSON tree.
- A GPU page's and a wheel page's path is formatted in one place
  (sitedata_gpu_path, sitedata_wheel_path in src/site/sitedata_text.c);
  every link, feed and page takes it from there.

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
      "src/site/feed_home.c", "src/site/sitedata_feeds.c", "src/site/pepvariants.c",
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

# The checker itself: it sees a call in code, not one in a comment.
probe = os.path.join(args.work, "probe.c")
os.makedirs(args.work, exist_ok=True)
with open(probe, "w") as f:
    f.write('/* json_object_get(x, "a") */\nint f(void) { return g("/* not a comment */"); }\n'
            'int h(void) { return json_object_get(o, "k") != 0; } // json_object_get(\n')
rel = os.path.relpath(probe, ROOT)
c.eq(where(r"\bjson_object_get\s*\(", [rel]), {rel: 1}, "the checker counts the call in code only")
c.done()
