"""Golden tests: `scan --json` and text output for a set of fixtures,
compared byte for byte with tests/expected/scan/.  Regenerate with
UPDATE_GOLDEN=1 after an intended change, and review the diff."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args()
c = watest.Checker()
EXPECTED = os.path.join(watest.TESTS, "expected", "scan")
update = os.environ.get("UPDATE_GOLDEN") == "1"

CASES = ["libk_default.so", "libk_two.so", "libk_fam.so", "libk_rdc.so", "libk_dlink.so",
         "libk_speed.so", "kern.fatbin", "kern_lto.o", "test.dll", "codec_lz4frame.fatbin",
         "codec_zlib.fatbin", "libk_gencode.so", "nogpu.so"]

for case in CASES:
    for mode, ext in (("--json", ".json"), (None, ".txt")):
        argv = [args.wheelarch, "scan"] + ([mode] if mode else []) + [case]
        p = subprocess.run(argv, cwd=watest.CUDA, capture_output=True, text=True, timeout=120)
        c.eq(p.returncode, 0, "%s %s exit (%s)" % (case, ext, p.stderr.strip()))
        golden = os.path.join(EXPECTED, case + ext)
        if update:
            with open(golden, "w") as f:
                f.write(p.stdout)
            continue
        if not c.ok(os.path.exists(golden), "missing golden file " + golden):
            continue
        with open(golden) as f:
            want = f.read()
        if not c.ok(p.stdout == want, "%s%s differs from %s" % (case, ext, golden)):
            sys.stdout.write("--- want\n%s--- got\n%s" % (want, p.stdout))
c.done()
