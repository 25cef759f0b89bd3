"""Writes AMD kernel archives (.kpack) for tests, by the layout in
docs/formats.md ("AMD kernel archives"): "KPAK", u32 version, u64 offset of
the table of contents, 64-byte aligned blobs, then the table as MessagePack.
The code objects put in are real ones (clang's); only the container is made
here.  MessagePack is written by the small encoder below (maps, arrays,
strings, unsigned integers, booleans), enough for the table."""
import os
import shutil
import struct
import subprocess

ALIGN = 64
HIP_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "hip", "src", "k1.hip")


def code_object(work, arch):
    """A real AMDGPU code object for arch, built by Debian's clang-14 from
    tests/fixtures/hip/src/k1.hip into work.  Returns (bytes or None, clang's
    stderr)."""
    clang = shutil.which("clang-14") or shutil.which("clang")
    out = os.path.join(work, "k_%s.hsaco" % arch)
    p = subprocess.run([clang, "-x", "hip", "-nogpulib", "-nogpuinc", "-O1", "--offload-arch=" + arch,
                        "--cuda-device-only", "--no-gpu-bundle-output", HIP_SOURCE, "-o", out],
                       capture_output=True, text=True)
    return (open(out, "rb").read() if p.returncode == 0 else None), p.stderr.strip()


def pack(v):
    """v as MessagePack bytes."""
    if v is None:
        return b"\xc0"
    if v is True or v is False:
        return b"\xc3" if v else b"\xc2"
    if isinstance(v, int):
        if v < 0:
            raise ValueError("negative integers are not needed here")
        if v < 0x80:
            return bytes([v])
        for code, fmt in ((0xcc, ">B"), (0xcd, ">H"), (0xce, ">I"), (0xcf, ">Q")):
            try:
                return bytes([code]) + struct.pack(fmt, v)
            except struct.error:
                continue
    if isinstance(v, str):
        b = v.encode()
        if len(b) < 32:
            return bytes([0xa0 | len(b)]) + b
        if len(b) < 256:
            return b"\xd9" + bytes([len(b)]) + b
        return b"\xda" + struct.pack(">H", len(b)) + b
    if isinstance(v, (list, tuple)):
        head = bytes([0x90 | len(v)]) if len(v) < 16 else b"\xdc" + struct.pack(">H", len(v))
        return head + b"".join(pack(x) for x in v)
    if isinstance(v, dict):
        head = bytes([0x80 | len(v)]) if len(v) < 16 else b"\xde" + struct.pack(">H", len(v))
        return head + b"".join(pack(k) + pack(x) for k, x in v.items())
    raise TypeError(type(v))


def write(path, kernels, family="", group="torch", scheme="none", toc_extra=None):
    """kernels: [(binary path, gfx target, code object bytes)].  Returns the
    archive's bytes (also written to path when it is not None)."""
    out = bytearray(b"KPAK" + struct.pack("<IQ", 1, 0))
    out += b"\0" * (ALIGN - len(out))
    blobs, toc = [], {}
    for binary, arch, data in kernels:
        while len(out) % ALIGN:
            out += b"\0"
        blobs.append({"offset": len(out), "size": len(data)})
        toc.setdefault(binary, {})[arch] = {"type": "hsaco", "ordinal": len(blobs) - 1,
                                            "original_size": len(data)}
        out += data
    arches = sorted({a for _, a, _ in kernels})
    table = {"format_version": 1, "group_name": group, "gfx_arch_family": family or (arches[0] if arches else ""),
             "gfx_arches": arches, "compression_scheme": scheme, "blobs": blobs, "toc": toc}
    table.update(toc_extra or {})
    toc_offset = len(out)
    out += pack(table)
    out[8:16] = struct.pack("<Q", toc_offset)
    if path:
        with open(path, "wb") as f:
            f.write(out)
    return bytes(out)
