"""Builds a package index tree shaped like download.pytorch.org for tests:
wheels made from the nvcc fixtures, PEP 503 pages in the style its
generator emits (root-relative or absolute links on another host, %2B in
file names, #sha256= fragments, data-* attributes with entities) and
optionally PEP 691 JSON beside them."""
import hashlib
import html
import json
import os
import random
import zipfile

from watest import CUDA

DATE = (2026, 1, 1, 0, 0, 0)


def build_wheel(path, project, members, pad_py=120, data_mb=1, requires=()):
    """A wheel with GPU members [(arcname, fixture file)], pad_py small
    Python files, a data file of data_mb MB of incompressible bytes and a
    METADATA that lists requires (Requires-Dist values)."""
    rnd = random.Random(os.path.basename(path))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        def add(name, data):
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
        add(project + "/__init__.py", b"")
        for i in range(pad_py):
            add("%s/mod/m%03d.py" % (project, i), ("# %d\n" % i).encode() + bytes(rnd.getrandbits(8) for _ in range(2000)).hex().encode())
        for arc, fixture in members:
            with open(os.path.join(CUDA, fixture), "rb") as f:
                add(arc, f.read())
        if data_mb:
            add(project + "/data/blob.bin", rnd.randbytes(data_mb << 20))
        dist = os.path.basename(path).split("-")
        add("%s-%s.dist-info/WHEEL" % (dist[0], dist[1]), b"Wheel-Version: 1.0\nRoot-Is-Purelib: false\n")
        # What pip reads to check a downloaded wheel against its file name.
        add("%s-%s.dist-info/METADATA" % (dist[0], dist[1]),
            ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (dist[0], dist[1])
             + "".join("Requires-Dist: %s\n" % r for r in requires)
             + "\nRequires-Dist: the-description-is-not-a-header\n").encode())
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def page_html(project, links):
    """links: [(href, text, attrs dict)]"""
    out = ["<!DOCTYPE html>", "<html>", "  <body>", "    <h1>Links for %s</h1>" % project]
    for href, text, attrs in links:
        a = "".join(' %s="%s"' % (k, html.escape(v, quote=True)) for k, v in attrs.items())
        out.append('    <a href="%s"%s>%s</a><br/>' % (html.escape(href, quote=True), a, html.escape(text)))
    out += ["  </body>", "</html>", "<!--TIMESTAMP 1787000000-->", ""]
    return "\n".join(out)


def page_json(project, files):
    return json.dumps({"meta": {"api-version": "1.1"}, "name": project, "files": files}, indent=1)
