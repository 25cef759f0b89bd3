"""wheelarch scan on bad input: each broken input gets one line
`wheelarch: INPUT: what is wrong` on stderr and an "error" in its JSON line,
the other inputs are still reported, and the exit status is 3 when some
inputs failed, 1 when all did, 0 when none; never a crash or a hang."""
import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
W = args.work
CUDA = watest.CUDA


def path(name):
    return os.path.join(W, name)


def patched(src, name, patches):
    with open(src, "rb") as f:
        data = bytearray(f.read())
    for off, fmt, val in patches:
        struct.pack_into(fmt, data, off, val)
    with open(path(name), "wb") as f:
        f.write(data)
    return path(name)


good = watest.make_wheel(path("good-1.0-cp312-cp312-manylinux_2_28_x86_64.whl"),
                         [("good/libk.so", os.path.join(CUDA, "libk_default.so"))])

bad = {}
# A truncated zip: the first half of a good wheel.
with open(good, "rb") as f:
    data = f.read()
with open(path("truncated-1.0-py3-none-any.whl"), "wb") as f:
    f.write(data[: len(data) // 2])
bad["truncated"] = (path("truncated-1.0-py3-none-any.whl"), "zip")

# Not a zip (nor anything else).
with open(path("notazip-1.0-py3-none-any.whl"), "w") as f:
    f.write("<html>404 Not Found</html>\n")
bad["notzip"] = (path("notazip-1.0-py3-none-any.whl"), "not a wheel, ELF, PE, fatbin, offload bundle or kernel archive")

# A member whose CRC is wrong: flip a byte inside a stored member.
crcw = watest.make_wheel(path("crc-1.0-py3-none-any.whl"),
                         [("crc/libk.so", os.path.join(CUDA, "libk_default.so"))],
                         compression=zipfile.ZIP_STORED)
with open(crcw, "r+b") as f:
    f.seek(4000)
    b = f.read(1)
    f.seek(4000)
    f.write(bytes([b[0] ^ 0x01]))
bad["crc"] = (crcw, "CRC-32 mismatch")

# An ELF whose section offsets point past the end.
with open(os.path.join(CUDA, "nogpu.so"), "rb") as f:
    elf = f.read()
shoff = struct.unpack_from("<Q", elf, 0x28)[0]
bad["elf_shoff"] = (patched(os.path.join(CUDA, "nogpu.so"), "shoff.so", [(0x28, "<Q", len(elf) + 4096)]),
                    "extends past the end")
bad["elf_section"] = (patched(os.path.join(CUDA, "nogpu.so"), "secoff.so",
                              [(shoff + 64 * 2 + 0x18, "<Q", len(elf) * 3)]), "extends past the end")

# A fatbin header with absurd sizes.
bad["fatbin_size"] = (patched(os.path.join(CUDA, "kern.fatbin"), "absurd.fatbin", [(8, "<Q", 1 << 50)]),
                      "container")
bad["fatbin_entry"] = (patched(os.path.join(CUDA, "kern.fatbin"), "entry.fatbin", [(16 + 8, "<Q", 1 << 44)]),
                       "container")

# A PE with a broken section table.
with open(os.path.join(CUDA, "test.dll"), "rb") as f:
    dll = f.read()
lfanew = struct.unpack_from("<I", dll, 0x3C)[0]
optsize = struct.unpack_from("<H", dll, lfanew + 4 + 16)[0]
sect = lfanew + 24 + optsize
bad["pe_count"] = (patched(os.path.join(CUDA, "test.dll"), "count.dll", [(lfanew + 6, "<H", 0x5F)]), "PE")
bad["pe_raw"] = (patched(os.path.join(CUDA, "test.dll"), "raw.dll", [(sect + 20, "<I", 0x7FFFFF00)]),
                 "extends past the end")

# A zip bomb: a member inflating far past its declared size.
bomb = path("bomb-1.0-py3-none-any.whl")
with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("bomb/libzero.so", b"\x7fELF" + b"\0" * (64 << 20))
with open(bomb, "r+b") as f:
    d = bytearray(f.read())
    cd = d.rfind(b"PK\x01\x02")
    struct.pack_into("<I", d, 22, 4096)       # local header uncompressed size
    struct.pack_into("<I", d, cd + 24, 4096)  # central directory uncompressed size
    f.seek(0)
    f.write(d)
bad["bomb"] = (bomb, "past its declared size")

# Nothing at all, a directory, a missing file.
open(path("empty.so"), "w").close()
bad["empty"] = (path("empty.so"), "not a wheel")
os.makedirs(path("adir"), exist_ok=True)
bad["dir"] = (path("adir"), "not a regular file")
bad["missing"] = (path("missing.whl"), "cannot open")

for key, (p, needle) in sorted(bad.items()):
    objs, proc = watest.scan_json(args, p)
    c.eq(proc.returncode, 1, key + ": exit when the only input fails")
    lines = proc.stderr.splitlines()
    c.ok(len(lines) == 1 and lines[0].startswith("wheelarch: " + p + ": ") and needle in lines[0],
         "%s: one stderr line naming input and problem (%r)" % (key, proc.stderr))
    c.ok(len(objs) == 1 and objs[0]["error"] and needle in objs[0]["error"],
         "%s: JSON error (%r)" % (key, objs[0]["error"] if objs else None))
    c.ok(proc.returncode >= 0, key + ": no crash (signal)")

# Mixed inputs: bad ones fail, good ones are still reported, exit 3.
mixed = [good] + [p for p, _ in bad.values()] + [os.path.join(CUDA, "libk_fam.so")]
objs, proc = watest.scan_json(args, *mixed)
c.eq(proc.returncode, 3, "mixed exit status")
c.eq(len(objs), len(mixed), "one JSON line per input")
c.eq([o["input"] for o in objs], mixed, "inputs in order")
c.eq(sum(1 for o in objs if o["error"] is None), 2, "good inputs reported")
c.eq(len(proc.stderr.splitlines()), len(bad), "one stderr line per bad input")
good_obj = objs[0]
c.ok("sm_90a" in good_obj["sass"], "good wheel still scanned among bad ones")

# Text mode: errors on stderr only, results on stdout.
proc = watest.run(args, "scan", good, bad["crc"][0])
c.eq(proc.returncode, 3, "text mixed exit")
c.ok(good in proc.stdout and bad["crc"][0] not in proc.stdout, "text stdout holds only results")

# Member names are the wheel author's bytes: a terminal escape (ESC) and a
# C1 control (U+009B, C2 9B: CSI to some terminals) never reach stdout raw,
# in text or JSON; both print them as \xNN, byte by byte.
HOSTILE_MEMBER = "pkg/\x1b[32mx\u009b.so"
CLEAN_MEMBER = "pkg/\\x1b[32mx\\xc2\\x9b.so"
escw = watest.make_wheel(path("esc-1.0-cp312-cp312-manylinux_2_28_x86_64.whl"),
                         [(HOSTILE_MEMBER, os.path.join(CUDA, "libk_two.so"))])
with zipfile.ZipFile(escw) as z:
    c.ok(HOSTILE_MEMBER.encode("utf-8") in [i.filename.encode("utf-8") for i in z.infolist()],
         "the wheel holds the raw member name (ESC and C2 9B)")
for mode in ([], ["--json"]):
    p = subprocess.run([args.wheelarch, "scan"] + mode + [escw], capture_output=True, timeout=120)
    what = "scan " + " ".join(mode + ["(member with ESC and U+009B)"])
    c.eq(p.returncode, 0, what + ": exit status (%r)" % p.stderr)
    c.ok(b"\x1b" not in p.stdout and b"\xc2\x9b" not in p.stdout and b"\x9b" not in p.stdout,
         what + ": no raw ESC or C1 byte on stdout: %r" % p.stdout)
    c.ok(b"\x1b" not in p.stderr and b"\x9b" not in p.stderr, what + ": none on stderr")
    text = p.stdout.decode("utf-8")
    if mode:
        obj = json.loads(text)
        c.eq([b["path"] for b in obj["binaries"]], [CLEAN_MEMBER], what + ": the path, escaped")
        c.ok("sm_90a" in obj["sass"], what + ": the member is scanned")
    else:
        c.ok(("  " + CLEAN_MEMBER + "  sass ") in text, what + ": the path, escaped: %r" % text)
# Diagnostics too: an input name with ESC and U+009B, escaped on stderr.
p = subprocess.run([args.wheelarch, "scan", path("missing\x1b[2J\u009b.so")], capture_output=True,
                   timeout=60)
c.eq(p.returncode, 1, "missing input with ESC and U+009B in its name")
c.ok(b"\x1b" not in p.stderr and b"\x9b" not in p.stderr and b"missing\\x1b[2J\\xc2\\x9b.so" in p.stderr,
     "its diagnostic escapes ESC and both bytes of U+009B: %r" % p.stderr)

# Usage errors exit 2; --help exits 0 on stdout.
c.eq(watest.run(args, "scan").returncode, 2, "no input")
c.eq(watest.run(args, "scan", "--bogus", good).returncode, 2, "unknown option")
c.eq(watest.run(args, "frobnicate").returncode, 2, "unknown command")
h = watest.run(args, "scan", "--help")
c.ok(h.returncode == 0 and "usage: wheelarch scan" in h.stdout, "scan --help")
v = watest.run(args, "--version")
c.ok(v.returncode == 0 and v.stdout.startswith("wheelarch "), "--version")
c.done()
