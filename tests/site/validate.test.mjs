// Validity of what wheelarch build writes, checked by real validators:
//   - every HTML page (and the stylesheet and inline SVG) with the Nu Html
//     Checker (vnu.jar from the vnu-jar npm package, run by the system
//     Java);
//   - every api/v1 document against api/v1/schema.json with Ajv (JSON
//     Schema 2020-12, strict mode), and a few broken copies that must fail,
//     so the schema is known to constrain something;
//   - changes.atom is well-formed XML with the Atom namespace (by chromium's
//     XML parser would need a browser; a small structural check is enough).
// usage: node validate.test.mjs --wheelarch PATH --work DIR
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { buildSite, Checker, parseArgs } from "../lib/nodetest.mjs";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;
const args = parseArgs();
const c = new Checker();
const site = buildSite(args);

// ---- HTML, CSS and SVG ----------------------------------------------------------
const jar = path.join(path.dirname(require.resolve("vnu-jar/package.json")), "build", "dist", "vnu.jar");
const vnu = spawnSync("java", ["-Xss4m", "-jar", jar, "--errors-only", "--skip-non-html", "--also-check-css",
  "--also-check-svg", "--format", "json", site], { encoding: "utf8", maxBuffer: 64 << 20 });
if (c.ok(!vnu.error, "java runs vnu.jar (" + (vnu.error || "") + ")")) {
  let messages = [];
  try {
    messages = JSON.parse(vnu.stderr || vnu.stdout || "{}").messages || [];
  } catch (e) {
    c.ok(false, "vnu output is JSON: " + (vnu.stderr || vnu.stdout).slice(0, 300));
  }
  const errors = messages.filter((m) => m.type === "error" || m.subType === "fatal");
  for (const m of errors.slice(0, 20))
    console.log(`  ${path.relative(site, new URL(m.url).pathname)}:${m.lastLine}: ${m.message}`);
  c.ok(errors.length === 0, `vnu: ${errors.length} errors in the site's HTML/CSS/SVG`);
  c.eq(vnu.status, errors.length ? 1 : 0, "vnu exit status");
}

// ---- the feed against its schema ----------------------------------------------------
const schema = JSON.parse(readFileSync(path.join(site, "api/v1/schema.json"), "utf8"));
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(schema, "wheelarch");
const docs = { matrix: "matrix", gpus: "gpus", "index-table": "index-table", variants: "variants" };
const loaded = {};
for (const [file, def] of Object.entries(docs)) {
  const validate = ajv.getSchema(`wheelarch#/$defs/${def}`);
  if (!c.ok(validate, `schema.json has $defs/${def}`)) continue;
  const doc = JSON.parse(readFileSync(path.join(site, `api/v1/${file}.json`), "utf8"));
  loaded[file] = { doc, validate };
  const ok = validate(doc);
  c.ok(ok, `${file}.json validates against $defs/${def}: ` + JSON.stringify((validate.errors || []).slice(0, 3)));
}

// Every device's own file (api/v1/gpu/<device>.json) against $defs/gpu.
{
  const validate = ajv.getSchema("wheelarch#/$defs/gpu");
  const files = readdirSync(path.join(site, "api/v1/gpu")).filter((f) => f.endsWith(".json"));
  c.ok(validate && files.length > 20, `schema.json has $defs/gpu, and there are device files (${files.length})`);
  let bad = [];
  for (const f of files) {
    const doc = JSON.parse(readFileSync(path.join(site, "api/v1/gpu", f), "utf8"));
    if (!validate(doc)) bad.push(f + " " + JSON.stringify(validate.errors.slice(0, 2)));
    if (f === "8.6.json") loaded.gpu = { doc, validate };
    if (f === "8.7.json") loaded.jetson = { doc, validate };
  }
  c.eq(bad.length, 0, "every api/v1/gpu/*.json validates against $defs/gpu: " + bad.slice(0, 3).join("; "));
}

// Broken copies must be rejected.
function rejects(file, mutate, what) {
  const x = loaded[file];
  c.ok(x, `${file}.json was read`);
  if (!x) return;
  const copy = structuredClone(x.doc);
  mutate(copy);
  c.ok(!x.validate(copy), `${file}.json with ${what} is rejected`);
}
rejects("matrix", (d) => { d.rows[0].cells["8.6"] = "maybe"; }, "an unknown verdict");
rejects("matrix", (d) => { delete d.meta["api-version"]; }, "no meta.api-version");
rejects("matrix", (d) => { d.rows[0].sass.push("sm_8x"); }, "a malformed target");
rejects("gpus", (d) => { d.gpus[0].compute_capability = 8.6; }, "a number for a compute capability");
rejects("index-table", (d) => {
  const ix = Object.values(d.indexes)[0];
  const plat = Object.values(ix.platforms)[0];
  const proj = Object.values(plat)[0];
  Object.values(proj)[0].sass = "sm_86";
}, "a string for a target list");
rejects("gpu", (d) => { d.platforms["linux-x86_64"].grid.verdicts["2.8"].cu128 = "maybe"; }, "an unknown verdict in the grid");
rejects("gpu", (d) => { d.platforms["linux-x86_64"].by_driver_python["3.12"] = [["525.60.13", "cu126"]]; }, "a short driver-table row");
rejects("jetson", (d) => { d.platforms["linux-aarch64"].answer.guidance.kind = "maybe"; }, "an unknown kind of guidance");
rejects("jetson", (d) => { d.platforms["linux-aarch64"].answer.guidance.jetson_builds[0].torch = "2.5.0"; }, "a string for a Jetson build's torch versions");
rejects("jetson", (d) => { delete d.platforms["linux-aarch64"].answer.guidance.jetson_builds[0].index_url; }, "a Jetson build without its index");
rejects("index-table", (d) => {
  const plat = d.indexes.cu126.platforms["linux-x86_64"].torch;
  plat["2.8"] = plat[Object.keys(plat)[0]];
}, "a row keyed by its release alone");
rejects("variants", (d) => {
  const p = Object.values(d.variants)[0];
  const r = Object.values(p)[0];
  const pl = Object.values(r)[0];
  Object.values(pl)[0].properties.push("nvidia :: sm_arch :: 86");
}, "a malformed variant property");

// ---- wheel-variant files against the schemas they name ------------------------------
// The published schemas, copied with their sources into tests/fixtures/variant-schemas/:
// PEP 825's 0.1.1 and the Providers draft's (PEP 850) 0.2.0.  They are not written for
// Ajv's strict mode (the 0.2.0 one has keywords where they do nothing), so they are
// compiled as published; the draft's rules the 0.2.0 schema file does not hold (exactly
// one of requires and static-properties; a provider per namespace) are checked here.
{
  const here = path.dirname(new URL(import.meta.url).pathname);
  const sdir = path.join(here, "..", "fixtures", "variant-schemas");
  const pep = new Ajv2020({ strict: false, allErrors: true });
  const byId = {};
  for (const f of ["v0.1.1.json", "v0.2.0.json"]) {
    const sch = JSON.parse(readFileSync(path.join(sdir, f), "utf8"));
    byId[sch.$id] = { version: f.slice(1, -5), validate: pep.compile(sch) };
  }
  const vdir = path.join(site, "api/v1/variants");
  const folders = { "": "0.1.1", "v0.2.0": "0.2.0" };
  const read = {};
  for (const [sub, want] of Object.entries(folders)) {
    const dir = path.join(vdir, sub);
    const files = readdirSync(dir).filter((f) => f.endsWith("-variants.json"));
    let bad = [];
    for (const f of files) {
      const doc = JSON.parse(readFileSync(path.join(dir, f), "utf8"));
      const s = byId[doc.$schema];
      if (!s || s.version !== want) { bad.push(`${f}: $schema ${doc.$schema}`); continue; }
      if (!s.validate(doc)) bad.push(f + " " + JSON.stringify(s.validate.errors.slice(0, 2)));
      if (want === "0.2.0") {
        const ns = doc["default-priorities"].namespace;
        const prov = Object.keys(doc.providers || {});
        if (JSON.stringify([...prov].sort()) !== JSON.stringify([...ns].sort())) bad.push(`${f}: providers ${prov} for namespaces ${ns}`);
        for (const [n, p] of Object.entries(doc.providers || {}))
          if (("requires" in p) === ("static-properties" in p) || ("plugin-api" in p && !("requires" in p)))
            bad.push(`${f}: provider ${n} has not exactly one of requires and static-properties`);
      }
      if (f === "torch-2.9.0-variants.json") read[want] = { doc, validate: s.validate };
    }
    c.ok(files.length > 0, `api/v1/variants/${sub}: wheel-variant files (${files.length})`);
    c.eq(bad.length, 0, `every api/v1/variants/${sub} file validates against schema ${want}: ` + bad.slice(0, 3).join("; "));
  }
  // broken copies fail: the schemas constrain what wheelarch writes
  const broken = (want, mutate, what) => {
    const x = read[want];
    if (!c.ok(x, `torch-2.9.0-variants.json (${want}) was read`)) return;
    const copy = structuredClone(x.doc);
    mutate(copy);
    c.ok(!x.validate(copy), `a ${want} file with ${what} is rejected`);
  };
  broken("0.1.1", (d) => { d.variants["CU130"] = d.variants[Object.keys(d.variants)[0]]; }, "an upper-case label");
  broken("0.1.1", (d) => { d.providers = {}; }, "a key 0.1.1 does not have");
  broken("0.2.0", (d) => { delete d.providers; }, "no providers");
  broken("0.2.0", (d) => { d.variants["cu130.linux_aarch64"] = {}; }, "a label of 19 characters");
  // formats.json and the static lists against wheelarch's own schema
  const formats = ajv.getSchema("wheelarch#/$defs/variant_formats");
  const fdoc = JSON.parse(readFileSync(path.join(vdir, "formats.json"), "utf8"));
  c.ok(formats && formats(fdoc), "formats.json validates against $defs/variant_formats: " + JSON.stringify(formats && formats.errors));
  c.eq(JSON.stringify(fdoc.formats.map((f) => f.schema)), JSON.stringify(Object.keys(byId)), "formats.json names the schemas the files follow");
  const stat = ajv.getSchema("wheelarch#/$defs/variant_static");
  const sfiles = readdirSync(path.join(vdir, "static")).filter((f) => f.endsWith(".json"));
  const sbad = sfiles.filter((f) => !stat(JSON.parse(readFileSync(path.join(vdir, "static", f), "utf8"))));
  c.ok(sfiles.length > 20 && sbad.length === 0, `every api/v1/variants/static/*.json (${sfiles.length}) validates against $defs/variant_static: ${sbad.slice(0, 3)} ${JSON.stringify(stat.errors)}`);
}

// ---- the Atom feed -------------------------------------------------------------------
const atom = readFileSync(path.join(site, "changes.atom"), "utf8");
c.ok(atom.startsWith('<?xml version="1.0" encoding="utf-8"?>') && atom.includes('<feed xmlns="http://www.w3.org/2005/Atom">'),
  "changes.atom: XML declaration and Atom namespace");
for (const tag of ["id", "title", "updated"]) c.ok(new RegExp(`<${tag}>[^<]+</${tag}>`).test(atom), `changes.atom: feed ${tag}`);
c.done();
