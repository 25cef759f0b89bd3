"""README.md stays true: its command reference is exactly what
`wheelarch help --markdown` generates from the option table, its quick start
has two commands, and CI runs the README's test command."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import watest  # noqa: E402

args = watest.parse_args(lambda ap: ap.add_argument("--readme", required=True))
c = watest.Checker()
with open(args.readme) as f:
    readme = f.read()

m = re.search(r"<!-- BEGIN COMMANDS[^>]*-->\n(.*)<!-- END COMMANDS -->", readme, re.S)
if c.ok(m is not None, "README has the generated command block"):
    p = watest.run(args, "help", "--markdown")
    c.eq(p.returncode, 0, "help --markdown exit")
    if not c.ok(m.group(1) == p.stdout, "README command block matches `wheelarch help --markdown`"):
        print("--- regenerate the block with: build/wheelarch help --markdown")

q = re.search(r"## Quick start.*?```\n(.*?)```", readme, re.S)
if c.ok(q is not None, "README has a quick start block"):
    cmds = [l.strip() for l in q.group(1).splitlines() if l.strip()]
    c.eq(len(cmds), 2, "quick start has exactly two commands")
    with open(os.path.join(watest.ROOT, ".ci", "run")) as f:
        ci = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    if len(cmds) == 2:
        c.ok(cmds[1] in ci, "CI runs the README's test command %r" % cmds[1])

# Every command in the table is documented by --help too.
p = watest.run(args, "--help")
c.ok(p.returncode == 0 and "scan" in p.stdout, "--help lists commands")
c.done()
