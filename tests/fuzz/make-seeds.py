#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets: structure-aware zip archives
(ZIP64 end records, locators, extra fields and data descriptors with
offsets and sizes near 2^64), PEP 691 JSON and PEP 503 HTML index pages
and configuration files with hostile values, the test fixtures in the form
each target reads them, and a few names and templates.

usage: make-seeds.py OUTDIR [--fixtures DIR] [--samples DIR] [--max-size N]
       make-seeds.py --committed SEEDSDIR

OUTDIR/<target>/ gets the seeds of every target (one directory per
tests/fuzz/fuzz_<target>.c, empty when this script has none for it).
OUTDIR must be new, empty or written by this script before: the files of
the target directories are replaced.  --fixtures adds the files of
tests/fixtures, --samples the index pages of tests/fixtures/index-pages, and
--max-size leaves out seeds larger than N bytes (libFuzzer mutates inputs
up to the largest seed's size).

--committed writes only the chosen seeds (the regression inputs committed
under tests/fuzz/seeds/zip, index, names and tmpl) into SEEDSDIR/<target>/,
overwriting files of the same name and deleting nothing.

Deterministic: the same script writes the same bytes.  Python stdlib only.
"""
import argparse
import glob
import io
import json
import os
import struct
import sys
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = ".make-seeds"
M64 = (1 << 64) - 1

# target -> list of (name, bytes, committed)
SEEDS = {}


def seed(target, name, data, commit=False):
    if isinstance(data, str):
        data = data.encode("utf-8")
    lst = SEEDS.setdefault(target, [])
    assert all(n != name for n, _, _ in lst), (target, name)
    lst.append((name, bytes(data), commit))


# ---- zip records (APPNOTE 6.3.x), every field overridable ----------------------------------

def u16(v):
    return struct.pack("<H", v & 0xFFFF)


def u32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def u64(v):
    return struct.pack("<Q", v & M64)


def deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def zip64_extra(*values, size=None):
    """Extra field id 1 with the given 8-byte values (usize, csize, lho in
    that order, each present only when its 32-bit field is 0xFFFFFFFF)."""
    body = b"".join(u64(v) for v in values)
    return u16(1) + u16(len(body) if size is None else size) + body


class Member:
    """One member: the local header, data, optional descriptor, and its
    central directory entry.  Fields default to a consistent archive; any
    of them can be overridden to lie."""

    def __init__(self, name, data=b"", method=0, flags=0, **kw):
        self.name = name.encode() if isinstance(name, str) else name
        self.raw = data
        self.method = method
        self.flags = flags
        self.payload = deflate(data) if method == 8 and not kw.get("payload") else kw.pop("payload", data)
        self.crc = zlib.crc32(data)
        self.kw = kw

    def get(self, key, default):
        return self.kw.get(key, default)

    def local(self):
        desc = self.flags & 8
        csize = self.get("local_csize", 0 if desc else len(self.payload))
        usize = self.get("local_usize", 0 if desc else len(self.raw))
        crc = self.get("local_crc", 0 if desc else self.crc)
        name = self.get("local_name", self.name)
        extra = self.get("local_extra", b"")
        return (u32(0x04034B50) + u16(20) + u16(self.flags) + u16(self.get("local_method", self.method))
                + u16(0) + u16(0x21) + u32(crc) + u32(csize) + u32(usize)
                + u16(self.get("local_nlen", len(name))) + u16(self.get("local_xlen", len(extra)))
                + name + extra)

    def descriptor(self):
        if not self.flags & 8:
            return b""
        if "descriptor" in self.kw:
            return self.kw["descriptor"]
        return u32(0x08074B50) + u32(self.crc) + u32(len(self.payload)) + u32(len(self.raw))

    def body(self):
        return self.local() + self.payload + self.descriptor()

    def central(self, lho):
        extra = self.get("central_extra", b"")
        comment = self.get("central_comment", b"")
        name = self.get("central_name", self.name)
        return (u32(0x02014B50) + u16(0x031E) + u16(20) + u16(self.flags)
                + u16(self.get("central_method", self.method)) + u16(0) + u16(0x21)
                + u32(self.get("central_crc", self.crc))
                + u32(self.get("central_csize", len(self.payload)))
                + u32(self.get("central_usize", len(self.raw)))
                + u16(self.get("central_nlen", len(name))) + u16(self.get("central_xlen", len(extra)))
                + u16(len(comment)) + u16(0) + u16(0) + u32(0o100644 << 16)
                + u32(self.get("central_lho", lho)) + name + extra + comment)


def eocd(n_here, n_total, cd_size, cd_off, comment=b"", disk=0, cd_disk=0, comment_len=None):
    return (u32(0x06054B50) + u16(disk) + u16(cd_disk) + u16(n_here) + u16(n_total) + u32(cd_size)
            + u32(cd_off) + u16(len(comment) if comment_len is None else comment_len) + comment)


def eocd64(n_here, n_total, cd_size, cd_off, disk=0, cd_disk=0, rec_size=44):
    return (u32(0x06064B50) + u64(rec_size) + u16(45) + u16(45) + u32(disk) + u32(cd_disk)
            + u64(n_here) + u64(n_total) + u64(cd_size) + u64(cd_off))


def locator(off, disk=0, disks=1):
    return u32(0x07064B50) + u32(disk) + u64(off) + u32(disks)


def archive(members, zip64=None, record=None, loc=None, end=None, between=b"", comment=b""):
    """Builds an archive.  zip64: None (classic), or a dict of forced
    classic EOCD fields (n, cd_size, cd_off: use 0xFFFF/0xFFFFFFFF) telling
    readers to look for the ZIP64 record.  record: overrides of the ZIP64
    record (n_here, n_total, cd_size, cd_off, rec_size, disk), or False for
    no record (the locator then points wherever `loc` says).  loc: the
    locator's offset (int), or a function of the natural layout
    {eocd64_off, loc_off, eocd_off, cd_off, cd_size}.  end: overrides of
    the classic EOCD (n_here, n_total, cd_size, cd_off, disk, comment_len)."""
    out = b""
    lhos = []
    for m in members:
        lhos.append(len(out))
        out += m.body()
    out += between
    cd_off = len(out)
    cd = b"".join(m.central(lho) for m, lho in zip(members, lhos))
    out += cd
    n = len(members)
    lay = {"cd_off": cd_off, "cd_size": len(cd)}
    e = dict(n_here=n, n_total=n, cd_size=len(cd), cd_off=cd_off)
    if zip64 is not None:
        e.update(zip64)
        lay["eocd64_off"] = len(out)
        if record is not False:
            r = dict(n_here=n, n_total=n, cd_size=len(cd), cd_off=cd_off)
            r.update(record or {})
            out += eocd64(**r)
        lay["loc_off"] = len(out)
        lay["eocd_off"] = len(out) + 20
        off = loc(lay) if callable(loc) else (lay["eocd64_off"] if loc is None else loc)
        out += locator(off)
    e.update(end or {})
    out += eocd(comment=comment, **e)
    return out


def so_bytes(fixtures):
    """A small ELF with GPU code from the fixtures, or a stand-in."""
    if fixtures:
        p = os.path.join(fixtures, "cuda", "libk_two.so")
        if os.path.exists(p):
            with open(p, "rb") as f:
                return f.read()
    return b"\x7fELF\x02\x01\x01" + b"\0" * 57


# ---- zip seeds --------------------------------------------------------------------------------

def zip_seeds(fixtures):
    z = "zip"

    def one():
        return [Member("pkg/__init__.py", b"x = 1\n")]

    # The review's crash: the classic EOCD says ZIP64 (cd offset
    # 0xFFFFFFFF) and the locator points the ZIP64 record at 2^64 - 16,
    # so offset + 56 wraps round to 40, "before" the EOCD.
    seed(z, "zip64-locator-fff0", archive(one(), zip64={"cd_off": 0xFFFFFFFF}, record=False,
                                          loc=0xFFFFFFFFFFFFFFF0), True)
    seed(z, "zip64-locator-ffff", archive(one(), zip64={"cd_off": 0xFFFFFFFF}, record=False,
                                          loc=M64), True)
    seed(z, "zip64-locator-fff0-entries-ffff",
         archive(one(), zip64={"n_here": 0xFFFF, "n_total": 0xFFFF}, record=False,
                 loc=0xFFFFFFFFFFFFFFF0), True)
    seed(z, "zip64-locator-fff0-cdsize-ffffffff",
         archive(one(), zip64={"cd_size": 0xFFFFFFFF}, record=False, loc=0xFFFFFFFFFFFFFFF0), True)
    # With a real ZIP64 record present, but the locator still wrapping.
    seed(z, "zip64-record-locator-fff0",
         archive(one(), zip64={"cd_off": 0xFFFFFFFF, "n_here": 0xFFFF, "n_total": 0xFFFF},
                 loc=0xFFFFFFFFFFFFFFF0), True)
    # offset + 56 wraps round to 0 and to 1.
    seed(z, "zip64-locator-wraps-to-zero",
         archive(one(), zip64={"cd_off": 0xFFFFFFFF}, record=False, loc=(1 << 64) - 56), True)
    seed(z, "zip64-locator-wraps-to-one",
         archive(one(), zip64={"cd_off": 0xFFFFFFFF}, record=False, loc=(1 << 64) - 55))
    # The smallest forms, no member: an empty EOCD first (a streaming
    # reader takes the rest for the central directory), then the locator
    # and the EOCD that asks for ZIP64.
    def minimal(off, pad=0, **e):
        f = dict(n_here=0, n_total=0, cd_size=0, cd_off=0xFFFFFFFF)
        f.update(e)
        return eocd(0, 0, 0, 0, comment_len=42 + pad) + b"\0" * pad + locator(off) + eocd(**f)

    seed(z, "zip64-minimal-locator-fff0", minimal(0xFFFFFFFFFFFFFFF0), True)
    seed(z, "zip64-minimal-locator-ffff", minimal(M64, pad=16), True)
    seed(z, "zip64-minimal-locator-ffc8", minimal((1 << 64) - 56), True)
    seed(z, "zip64-minimal-entries-ffff",
         minimal(0xFFFFFFFFFFFFFFF0, n_here=0xFFFF, n_total=0xFFFF, cd_off=0), True)
    seed(z, "zip64-minimal-cdsize-ffffffff",
         minimal(0xFFFFFFFFFFFFFFF0, cd_size=0xFFFFFFFF, cd_off=0), True)
    # The same with a central directory entry first.
    cen = Member("pkg/a.so", b"").central(0)
    seed(z, "zip64-cd-first-locator-fff0",
         cen + locator(0xFFFFFFFFFFFFFFF0) + eocd(1, 1, len(cen), 0xFFFFFFFF), True)
    # Offsets just below the EOCD: the record would overlap the locator or
    # the EOCD itself, or start inside the central directory.
    for name, f in [("overlaps-locator", lambda l: l["loc_off"] - 55),
                    ("ends-at-eocd", lambda l: l["eocd_off"] - 56),
                    ("at-eocd", lambda l: l["eocd_off"]),
                    ("past-eocd", lambda l: l["eocd_off"] + 1),
                    ("one-before-eocd", lambda l: l["eocd_off"] - 1),
                    ("in-cd", lambda l: l["cd_off"] + 4),
                    ("at-zero", lambda l: 0)]:
        seed(z, "zip64-locator-" + name,
             archive(one(), zip64={"cd_off": 0xFFFFFFFF}, record=False, loc=f),
             name in ("overlaps-locator", "one-before-eocd"))
    # A well-formed ZIP64 archive, then records whose values lie.
    good64 = dict(zip64={"cd_off": 0xFFFFFFFF, "n_here": 0xFFFF, "n_total": 0xFFFF})
    seed(z, "zip64-good", archive(one(), **good64), True)
    seed(z, "zip64-good-two", archive(one() + [Member("pkg/b.so", b"B" * 300, method=8)], **good64))
    for name, rec in [
            ("cd-offset-near-2p64", {"cd_off": 0xFFFFFFFFFFFFFF00, "cd_size": 0x100}),
            ("cd-offset-all-ones", {"cd_off": M64}),
            ("cd-size-all-ones", {"cd_size": M64}),
            ("cd-size-wraps", {"cd_size": (1 << 64) - 8}),
            ("cd-offset-plus-one", {"cd_off": 1}),
            ("entries-all-ones", {"n_here": M64, "n_total": M64}),
            ("entries-2p32-plus-one", {"n_here": (1 << 32) + 1, "n_total": (1 << 32) + 1}),
            ("entries-max-plus-one", {"n_here": 1000001, "n_total": 1000001}),
            ("entries-zero", {"n_here": 0, "n_total": 0}),
            ("entries-here-differs", {"n_here": 2}),
            ("disk-nonzero", {"disk": 1}),
            ("record-size-all-ones", {"rec_size": M64})]:
        seed(z, "zip64-record-" + name, archive(one(), record=rec, **good64),
             name in ("cd-offset-near-2p64", "cd-size-all-ones", "entries-all-ones"))
    # The classic EOCD without a locator, or with a bad one.
    seed(z, "zip64-no-locator", archive(one(), end={"cd_off": 0xFFFFFFFF}))
    seed(z, "eocd-entries-ffff-no-locator", archive(one(), end={"n_here": 0xFFFF, "n_total": 0xFFFF}))
    seed(z, "zip64-locator-not-needed", archive(one(), zip64={}))

    # ZIP64 extra fields in the central directory.
    def x(name, commit=False, data=b"plain bytes, not an ELF file\n", method=0, **kw):
        seed(z, "zip64-extra-" + name, archive([Member("pkg/a.so", data, method=method, **kw)]),
             commit)
    x("central-lho-fff0", True, central_lho=0xFFFFFFFF, central_extra=zip64_extra(0xFFFFFFFFFFFFFFF0))
    x("central-lho-all-ones", central_lho=0xFFFFFFFF, central_extra=zip64_extra(M64))
    x("central-csize-all-ones", True, central_csize=0xFFFFFFFF, central_extra=zip64_extra(M64))
    x("central-usize-all-ones", central_usize=0xFFFFFFFF, central_extra=zip64_extra(M64))
    x("central-all-three", True, central_usize=0xFFFFFFFF, central_csize=0xFFFFFFFF,
      central_lho=0xFFFFFFFF, central_extra=zip64_extra(M64, (1 << 64) - 16, 16))
    x("central-csize-wraps-with-lho", central_csize=0xFFFFFFFF, central_lho=0xFFFFFFFF,
      central_extra=zip64_extra((1 << 64) - 10, 10))
    x("central-truncated", central_csize=0xFFFFFFFF, central_extra=zip64_extra(M64, size=16))
    x("central-size-zero", central_csize=0xFFFFFFFF, central_extra=zip64_extra(size=0))
    x("central-size-past-end", central_extra=u16(1) + u16(0xFFFF) + u64(0))
    x("central-deflate-usize-huge", data=b"A" * 1000, method=8, central_usize=0xFFFFFFFF,
      local_usize=0xFFFFFFFF, local_extra=zip64_extra(M64), central_extra=zip64_extra(M64))
    # ZIP64 extra fields in local headers (streamed without the directory).
    x("local-sizes-all-ones", True, local_csize=0xFFFFFFFF, local_usize=0xFFFFFFFF,
      local_extra=zip64_extra(M64, M64))
    x("local-csize-huge-deflate", data=b"A" * 1000, method=8, local_csize=0xFFFFFFFF,
      local_usize=0xFFFFFFFF, local_extra=zip64_extra(1000, (1 << 64) - 2))
    x("local-usize-smaller", data=b"A" * 1000, method=8, local_usize=0xFFFFFFFF,
      local_extra=zip64_extra(10))
    x("local-extra-truncated", local_csize=0xFFFFFFFF, local_extra=u16(1) + u16(8) + u64(M64)[:4],
      local_xlen=8)
    x("local-xlen-past-data", local_xlen=0xFFFF)
    x("local-nlen-past-data", local_nlen=0xFFFF)

    # Data descriptors: deflated members with sizes only after the data.
    data = b"GPU" * 500

    def d(name, commit=False, desc=None, extra=b"", **kw):
        m = Member("pkg/d.so", data, method=8, flags=8, local_extra=extra, **kw)
        if desc is not None:
            m.kw["descriptor"] = desc(m)
        seed(z, "descriptor-" + name, archive([m, Member("pkg/e.txt", b"e")]), commit)

    d("good-signed")
    d("good-unsigned", desc=lambda m: u32(m.crc) + u32(len(m.payload)) + u32(len(m.raw)))
    d("csize-lies-signed", True,
      desc=lambda m: u32(0x08074B50) + u32(m.crc) + u32(len(m.payload) + 1) + u32(len(m.raw)))
    d("usize-lies-unsigned", True,
      desc=lambda m: u32(m.crc) + u32(len(m.payload)) + u32(0xFFFFFFFF))
    d("crc-lies", desc=lambda m: u32(0x08074B50) + u32(m.crc ^ 1) + u32(len(m.payload))
      + u32(len(m.raw)))
    d("zip64-good", extra=zip64_extra(0, 0),
      desc=lambda m: u32(0x08074B50) + u32(m.crc) + u64(len(m.payload)) + u64(len(m.raw)))
    d("zip64-sizes-all-ones", True, extra=zip64_extra(0, 0),
      desc=lambda m: u32(0x08074B50) + u32(m.crc) + u64(M64) + u64(M64))
    d("zip64-unsigned-wraps", extra=zip64_extra(0, 0),
      desc=lambda m: u32(m.crc) + u64((1 << 64) - len(m.payload)) + u64(len(m.raw)))
    d("zip64-but-32bit", True, extra=zip64_extra(0, 0),
      desc=lambda m: u32(0x08074B50) + u32(m.crc) + u32(len(m.payload)) + u32(len(m.raw)))
    d("crc-equals-signature", desc=lambda m: u32(0x08074B50) + u32(len(m.payload)) + u32(len(m.raw)))
    d("truncated", desc=lambda m: u32(0x08074B50) + u32(m.crc)[:2])
    d("missing", desc=lambda m: b"")
    d("local-sizes-nonzero", local_csize=5, local_usize=7)
    d("central-disagrees", central_csize=3)
    stored = Member("pkg/s.so", b"stored", method=0, flags=8)
    seed(z, "descriptor-stored", archive([stored]))
    # Deflate streams that end early or late, and sizes that lie.
    seed(z, "deflate-cut-short", archive([Member("pkg/c.so", data, method=8,
                                                 payload=deflate(data)[:-5])]))
    seed(z, "deflate-usize-lies", archive([Member("pkg/c.so", data, method=8, central_usize=10,
                                                  local_usize=10)]))
    seed(z, "deflate-bomb-declared", archive([Member("pkg/c.so", b"\0" * 200000, method=8)]))
    # Entry counts and the EOCD.
    two = [Member("pkg/a.so", b"a" * 40), Member("pkg/b.so", b"b" * 40)]
    seed(z, "eocd-entries-more", archive(two, end={"n_here": 5, "n_total": 5}))
    seed(z, "eocd-entries-zero", archive(two, end={"n_here": 0, "n_total": 0}))
    seed(z, "eocd-entries-here-differs", archive(two, end={"n_here": 1}))
    seed(z, "eocd-disk-nonzero", archive(two, end={"disk": 1}))
    seed(z, "eocd-cd-offset-past-eocd", archive(two, end={"cd_off": 0xFFFFFFF0}))
    seed(z, "eocd-cd-size-past-eocd", archive(two, end={"cd_size": 0xFFFFFFF0}))
    seed(z, "eocd-comment-len-too-long", archive(two, end={"comment_len": 100}))
    seed(z, "eocd-fake-in-comment", archive(two, comment=eocd(0, 0, 0, 0)))
    seed(z, "eocd-only", eocd(0, 0, 0, 0))
    seed(z, "eocd-only-zip64", eocd(0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF))
    seed(z, "no-eocd", b"".join(m.body() for m in two))
    # Central directory entries that overlap or point anywhere.
    seed(z, "cd-same-lho",
         archive([Member("pkg/a.so", b"a" * 40), Member("pkg/b.so", b"b" * 40, central_lho=0)]))
    seed(z, "cd-lho-in-cd", archive([Member("pkg/a.so", b"a" * 40, central_lho=80)]))
    seed(z, "cd-csize-past-next", archive([Member("pkg/a.so", b"a" * 40, central_csize=60,
                                                   central_usize=60), Member("pkg/b.so", b"b")]))
    seed(z, "cd-name-empty", archive([Member("", b"x")]))
    seed(z, "cd-name-nul", archive([Member(b"a\0b.so", b"x")]))
    seed(z, "cd-name-traversal", archive([Member("../../../etc/x.so", b"x")]))
    seed(z, "cd-name-differs", archive([Member("pkg/a.so", b"x", central_name=b"pkg/b.so")]))
    seed(z, "cd-nlen-past-end", archive([Member("pkg/a.so", b"x", central_nlen=0xFFFF)]))
    seed(z, "method-unsupported", archive([Member("pkg/a.so", b"x", method=93)]))
    seed(z, "method-differs", archive([Member("pkg/a.so", b"x", central_method=8)]))
    seed(z, "encrypted", archive([Member("pkg/a.so", b"x", flags=1)]))
    seed(z, "local-sig-bad", archive([Member("pkg/a.so", b"x")]).replace(b"PK\x03\x04", b"PK\x03\x05", 1))
    # Real content: an ELF with GPU code, stored and deflated, and a zip
    # inside a zip.
    so = so_bytes(fixtures)
    inner = archive([Member("pkg/libk.so", so, method=8)])
    seed(z, "elf-stored", archive([Member("pkg/libk.so", so), Member("pkg/__init__.py", b"x = 1\n")]))
    seed(z, "elf-deflated", archive([Member("pkg/libk.so", so, method=8),
                                     Member("pkg/__init__.py", b"x = 1\n", method=8)]))
    seed(z, "elf-deflated-descriptor", archive([Member("pkg/libk.so", so, method=8, flags=8)]))
    seed(z, "elf-zip64", archive([Member("pkg/libk.so", so, method=8)], **good64))
    seed(z, "nested-zip", archive([Member("inner.whl", inner)]))
    # As Python's zipfile writes them (what wheels look like).
    for i, (name, comp) in enumerate([("libk_two.so", zipfile.ZIP_DEFLATED),
                                      ("codec_zstd.fatbin", zipfile.ZIP_STORED)]):
        p = os.path.join(fixtures or "", "cuda", name)
        if not fixtures or not os.path.exists(p):
            continue
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for member, content in [("pkg/" + name, open(p, "rb").read()),
                                    ("pkg/__init__.py", b"x = 1\n")]:
                info = zipfile.ZipInfo(member, date_time=(2025, 1, 1, 0, 0, 0))
                info.compress_type = comp
                info.external_attr = 0o644 << 16
                zf.writestr(info, content)
        seed(z, "zipfile-%d" % i, buf.getvalue())


# ---- index pages (PEP 691 JSON, PEP 503 HTML) and the configuration -------------------------

TRAVERSAL64 = "./" * 25 + "../../../pwn/x"
assert len(TRAVERSAL64) == 64


def page(files, meta=None, **extra):
    d = {"meta": meta if meta is not None else {"api-version": "1.1"}, "name": "torch", "files": files}
    d.update(extra)
    return json.dumps(d, ensure_ascii=False)


WHEEL = "torch-2.8.0+cu128-cp312-cp312-manylinux_2_28_x86_64.whl"
HEX = "0123456789abcdef" * 4


def one_file(**kw):
    f = {"filename": WHEEL, "url": "../" + WHEEL.replace("+", "%2B"), "hashes": {"sha256": HEX},
         "requires-python": ">=3.9", "yanked": False, "core-metadata": {"sha256": HEX}}
    f.update(kw)
    return f


def index_seeds(samples):
    t = "index"
    seed(t, "json-good", page([one_file()]), True)
    # Hashes: traversal, non-hex, uppercase, lengths around 64 and 200.
    seed(t, "json-sha256-traversal", page([one_file(hashes={"sha256": TRAVERSAL64})]), True)
    seed(t, "json-sha256-traversal-abs",
         page([one_file(hashes={"sha256": ("/" + "x" * 50 + "/../../pwn")[:64].ljust(64, "a")})]))
    seed(t, "json-sha256-nonhex", page([one_file(hashes={"sha256": "g" * 64}),
                                        one_file(hashes={"sha256": " " * 64}),
                                        one_file(hashes={"sha256": "0" * 63 + "/"}),
                                        one_file(hashes={"sha256": "é" * 32}),
                                        one_file(hashes={"sha256": "0" * 63 + "\n"}),
                                        one_file(hashes={"sha256": "%2e" * 21 + "0"})]), True)
    seed(t, "json-sha256-uppercase", page([one_file(hashes={"sha256": HEX.upper()}),
                                           one_file(hashes={"sha256": "aBcDeF01" * 8})]), True)
    seed(t, "json-sha256-lengths", page([one_file(hashes={"sha256": "a" * n})
                                         for n in (0, 1, 63, 65, 199, 200, 201, 4096)]), True)
    # Numbers and wrong types for every field.
    seed(t, "json-numbers",
         '{"meta": {"api-version": "1.1", "_last-serial": 18446744073709551616}, "files": [{"url": '
         '"a.whl", "size": 1e400, "hashes": {"sha256": -9223372036854775809}, "yanked": -0.0, '
         '"upload-time": 99999999999999999999999999999999999999, "requires-python": -1}]}', True)
    wrong = [None, True, 0, -1, 1.5, "", "x", [], {}, [1, "a"], {"a": 1}]
    fields = ["filename", "url", "hashes", "requires-python", "yanked", "upload-time",
              "core-metadata", "dist-info-metadata", "data-dist-info-metadata", "size"]
    files = []
    for fld in fields:
        for v in wrong:
            f = one_file()
            f[fld] = v
            files.append(f)
    for v in wrong:
        files.append(one_file(hashes={"sha256": v}))
        files.append(v)
    seed(t, "json-wrong-types-fields", page(files), True)
    for i, v in enumerate(wrong):
        seed(t, "json-wrong-types-files-%d" % i, json.dumps({"meta": {"api-version": "1.0"}, "files": v}))
        seed(t, "json-wrong-types-meta-%d" % i, json.dumps({"meta": v, "files": [one_file()]}))
        seed(t, "json-wrong-types-version-%d" % i,
             json.dumps({"meta": {"api-version": v}, "files": [one_file()]}))
        seed(t, "json-wrong-types-root-%d" % i, json.dumps(v))
    # Deep nesting, everywhere the parser looks.
    seed(t, "json-deep-files", '{"meta": {"api-version": "1.0"}, "files": ' + "[" * 3000 + "]" * 3000 + "}",
         True)
    seed(t, "json-deep-hashes", '{"meta": {"api-version": "1.0"}, "files": [{"url": "a", "hashes": '
         + '{"sha256": ' * 3000 + '"x"' + "}" * 3000 + "}]}")
    seed(t, "json-deep-unclosed", "[" * 10000, True)
    seed(t, "json-deep-objects", '{"a":' * 5000 + "1" + "}" * 5000)
    # URLs: other schemes, network-path references, dot segments, control
    # characters, fragments and very long ones.
    urls = ["javascript:alert(1)//x.whl", "JavaScript:alert(1)", "file:///etc/passwd",
            "file://host/share/x.whl", "//evil.example/x.whl", "///x.whl", "../../../../../../x.whl",
            "/../../x.whl", "a/./b/../../../c.whl", "%2e%2e/%2e%2e/x.whl", "..%2f..%2fx.whl",
            "https://h/a/../../../../x.whl", "x.whl\u0001\u001f\u007f", "x y\tz\r\nw.whl",
            "https://user:pw@h:99999/x.whl", "https://[::1]:0/x.whl", "http://[/x.whl",
            "data:application/zip;base64,UEsFBg==", "?q=../x.whl", "#sha256=" + HEX, "x.whl#",
            "https://h/x.whl#sha256=" + TRAVERSAL64, "\\\\evil\\share\\x.whl", "https:x.whl",
            "HTTPS://H/X.WHL"]
    seed(t, "json-urls", page([one_file(url=u) for u in urls]), True)
    seed(t, "json-url-long", page([one_file(url="h" * 70000), one_file(url="/" * 70000)]))
    for i, u in enumerate(urls):
        seed(t, "url-%02d" % i, u)  # the whole input is also resolved as a URL
    # File names with paths.
    names = ["a/b.whl", "../../x.whl", "..", ".", "", "x\\y.whl", "/abs.whl", "C:\\x.whl",
             "torch-2.8.0%2Bcu128-cp312-cp312-win_amd64.whl", "x.whl\u0000".rstrip("\u0000") + "/",
             "\u202e" + "lhw.x", "a" * 5000 + ".whl"]
    seed(t, "json-filenames", page([one_file(filename=n) for n in names]), True)
    # Big arrays (the page limit is 200000 links).
    seed(t, "json-files-20000", page([{"url": "a%d.whl" % i} for i in range(20000)]))
    seed(t, "json-files-200001",
         '{"meta":{"api-version":"1.0"},"files":[' + ",".join(['{"url":"a"}'] * 200001) + "]}")
    # Duplicate keys (the parser rejects them), and versions.
    seed(t, "json-duplicate-meta", '{"meta": {"api-version": "1.0"}, "meta": {"api-version": "2.0"}, '
         '"files": []}', True)
    seed(t, "json-duplicate-url", '{"meta": {"api-version": "1.0"}, "files": [{"url": "a.whl", '
         '"url": "javascript:x", "hashes": {"sha256": "%s", "sha256": "%s"}}]}' % (HEX, TRAVERSAL64),
         True)
    for v in ["2.0", "1.99999999999999999999", "1", "01.0", "-1", "1e0", "", " 1.0", "1.0garbage",
              "99999999999999999999.0", "0.9", "+1.0", "0x1", "1.0\u0000"]:
        commit = v in ("2.0", "1.99999999999999999999")
        seed(t, "json-api-version-" + (v.encode("unicode_escape").decode().replace("\\", "")
                                       .replace(" ", "_") or "empty"),
             page([one_file()], meta={"api-version": v}), commit)
    # PEP 503 HTML.
    href = "/whl/cu126/torch-2.8.0%2Bcu126-cp312-cp312-win_amd64.whl"
    seed(t, "html-good", '<a href="%s#sha256=%s" data-requires-python="&gt;=3.9" data-yanked>x</a>'
         % (href, HEX), True)
    seed(t, "html-sha256-traversal", "".join('<a href="%s#sha256=%s">x</a>\n' % (h, s) for h, s in [
        (href, TRAVERSAL64), (href, "../../../../pwn/x"), ("x.whl", "/etc/passwd"),
        (href, TRAVERSAL64 + "&md5=1"), (href + "?sha256=" + TRAVERSAL64, HEX),
        (href, "%2e%2e%2f" * 7 + "x"), (href, HEX.upper()), (href, "a" * 300)]), True)
    seed(t, "html-base-tricks", "\n".join([
        '<base href="javascript:alert(1)//">', '<a href="x.whl">1</a>',
        '<base href="//evil.example/">', '<a href="y.whl">2</a>',
        '<base href="file:///etc/">', '<a href="passwd">3</a>',
        '<base href>', '<a href="z.whl">4</a>', '<base href="">', '<base href="../../../..">',
        '<a href="w.whl">5</a>', "<BASE HREF='https://h/a/b/'>", "<a href='../v.whl'>6</a>",
        '<base href="https://h/?#">', '<a href="?x#y">7</a>']), True)
    seed(t, "html-unterminated", "".join([
        '<a href="a.whl">a</a><a href="x.whl', "\n<a href=x.whl", "\n<a", "\n<a href='x.whl",
        "\n<!-- <a href=\"c.whl\">", "\n<script><a href=\"s.whl\">", '\n<a href="&#x',
        '\n<a href="&#99999999999;.whl">', '\n<a href="&amp',
        '\n<a href="d.whl" data-requires-python="&gt', '\n<base href="']), True)
    seed(t, "html-entities", '<a href="e&#x2B;f.whl" data-requires-python="&gt;=3.9&#0;&#x110000;'
         '&#xD800;&#X41;&#65&lt&notanentity;&;&#;&#x;">e</a>', True)
    seed(t, "html-case-space", '<A\nHREF = "u.whl"\tDATA-YANKED="r&amp;s" >u</A><a href  =v.whl>v</a>'
         '<a data-core-metadata="sha256=%s" href="m.whl">m</a><a href="n.whl" data-dist-info-metadata'
         '="false">n</a>' % HEX)
    seed(t, "html-links-2000", "".join('<a href="t%d.whl#sha256=%s">t</a>\n' % (i, HEX)
                                       for i in range(2000)))
    seed(t, "html-links-200001", "<a href=a>" * 200001)
    # The configuration parser reads the same bytes.
    cfg = {"indexes": [{"root": "https://x/whl/", "ids": ["cu128"]}], "projects": ["torch"],
           "http": {"retries": 1}}
    seed(t, "config-good", json.dumps(cfg), True)
    seed(t, "config-hostile", json.dumps({
        "indexes": [{"root": "file:///etc/", "ids": ["../..", "", "a/b"]}, "javascript:x", "//h/",
                    {"root": "https://x/", "ids": [1, None, ["x"]]}, 7],
        "projects": ["../x", "", "a" * 300, "-x", 5],
        "jobs": -1, "http": {"retries": 99999999999999999999, "connect_timeout_ms": 1e300,
                             "resolve": [1, "h:443:1.2.3.4"], "allow_private_addresses": "yes"},
        "comment": {"x": 1}, "unknown": True}), True)
    seed(t, "config-stack", json.dumps({
        "indexes": [{"root": "https://x/whl/", "ids": ["cu126", "cu128"], "projects": ["torch", "xformers"]},
                    {"url": "https://pypi.example/simple/", "id": "pypi", "projects": ["torch", "cupy-cuda12x"]},
                    "https://y/simple/"],
        "projects": {"torch": {"min_version": "2.0"}, "bitsandbytes": {}}}), True)
    seed(t, "config-stack-hostile", json.dumps({
        "indexes": [{"url": "https://x/", "ids": ["a"], "root": "https://y/"}, {"url": "https://x/", "id": "../a"},
                    {"root": "https://x/", "ids": ["a"], "projects": []}, {"url": 5, "projects": ["a", 7]}],
        "projects": {"t": {"min_version": "x" * 100}, "": {}, "u": [], "v": {"min_version": None}}}), True)
    seed(t, "config-duplicate", '{"projects": ["torch"], "projects": ["x"], "indexes": ["https://h/"]}')
    if samples:
        for p in sorted(glob.glob(os.path.join(samples, "*.html")) + glob.glob(os.path.join(samples, "*.json"))):
            with open(p, "rb") as f:
                seed(t, "sample-" + os.path.basename(p), f.read())


def name_seeds():
    seed("names", "wheel", "torch-2.8.0%2Bcu128-cp312-cp312-manylinux_2_28_x86_64.whl", True)
    seed("names", "gencode", "-gencode;arch=compute_90a,code=[sm_90a,compute_90a];-arch=sm_80", True)
    seed("names", "targets", "sm_100f sm_90a compute_120 gfx90a:xnack+:sramecc- gfx1100 sm_9999999999", True)
    # the error texts people paste (explain)
    texts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "error-texts")
    for fn in sorted(os.listdir(texts)):
        if fn.endswith(".txt"):
            seed("names", "explain-" + fn[:-4], open(os.path.join(texts, fn)).read(), True)
    seed("names", "wheel-hostile", "../../x-1.0-py3-none-any.whl", True)


def tmpl_seeds():
    seed("tmpl", "sections", "<ul>\n  {{#items}}\n  <li>{{name}}</li>\n  {{/items}}\n</ul>\n"
         "{{^empty}}none{{/empty}}{{! c }}", True)
    seed("tmpl", "delimiters", "{{=<% %>=}}<%#obj%><%child.name%><%/obj%>\n  <%> part%>\n"
         "<%={{ }}=%>{{>self}}{{&n}}", True)


def fixture_seeds(fixtures):
    """The fixtures as smoke.sh has always fed them: ELF and PE files as is,
    fatbin and offload inputs behind the two bytes those targets read
    first (chunking seed)."""
    def files(*pats):
        out = []
        for p in pats:
            out += glob.glob(os.path.join(fixtures, p))
        return sorted(set(out))

    def add(target, paths, prefix=b""):
        for p in paths:
            with open(p, "rb") as f:
                seed(target, "fixture-" + os.path.basename(p), prefix + f.read())

    add("elf", files("cuda/*.so", "cuda/*.o", "hip/*.hsaco", "hip/lib*.so"))
    add("pe", files("cuda/*.dll"))
    add("fatbin", files("cuda/*.fatbin", "cuda/libk_two.so", "cuda/test.dll"), b"\x07\x00")
    add("offload", files("hip/*.co", "hip/*.hsaco", "hip/libhip_two.so", "hip/libhip_ccob.so"), b"\x07\x00")
    # kernel archives around the committed code object (tests/lib/kpackfile.py)
    sys.path.insert(0, os.path.join(HERE, "..", "lib"))
    import kpackfile
    hsaco = os.path.join(fixtures, "hip", "kern_gfx1100.hsaco")
    if os.path.exists(hsaco):
        with open(hsaco, "rb") as f:
            obj = f.read()
        one = kpackfile.write(None, [("lib/libtorch_hip.so", "gfx1100", obj)])
        two = kpackfile.write(None, [("lib/a.so", "gfx1100", obj), ("lib/b.so", "gfx90a:xnack-", obj)])
        seed("kpack", "one", b"\x07\x00" + one)
        seed("kpack", "one-known-size", b"\x08\x00" + one)
        seed("kpack", "two", b"\x07\x00" + two)
        seed("kpack", "zstd", b"\x07\x00" + one.replace(kpackfile.pack("none"), kpackfile.pack("zstd-per-kernel")))
        seed("kpack", "toc-only", b"\x07\x00" + one[struct.unpack("<Q", one[8:16])[0]:])


def targets():
    return sorted(os.path.basename(p)[len("fuzz_"):-len(".c")]
                  for p in glob.glob(os.path.join(HERE, "fuzz_*.c")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--fixtures")
    ap.add_argument("--samples")
    ap.add_argument("--max-size", type=int, default=0)
    ap.add_argument("--committed", action="store_true")
    a = ap.parse_args()

    fixtures = a.fixtures if a.fixtures and os.path.isdir(a.fixtures) else None
    samples = a.samples if a.samples and os.path.isdir(a.samples) else None
    zip_seeds(fixtures)
    index_seeds(samples)
    name_seeds()
    tmpl_seeds()
    if fixtures:
        fixture_seeds(fixtures)

    if a.committed:
        n = 0
        for t in ("zip", "index", "names", "tmpl"):
            os.makedirs(os.path.join(a.out, t), exist_ok=True)
            for name, data, commit in SEEDS.get(t, []):
                if commit:
                    with open(os.path.join(a.out, t, name), "wb") as f:
                        f.write(data)
                    n += 1
        print("make-seeds: %d committed seeds in %s" % (n, a.out))
        return 0

    if os.path.isdir(a.out) and os.listdir(a.out) and not os.path.exists(os.path.join(a.out, MARKER)):
        print("make-seeds: %s is not empty and was not written by make-seeds.py" % a.out,
              file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    open(os.path.join(a.out, MARKER), "w").close()
    total = 0
    for t in sorted(set(targets()) | set(SEEDS)):
        d = os.path.join(a.out, t)
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            os.remove(os.path.join(d, old))
        for name, data, _ in SEEDS.get(t, []):
            if a.max_size and len(data) > a.max_size:
                continue
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
            total += 1
    print("make-seeds: %d seeds in %s" % (total, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
