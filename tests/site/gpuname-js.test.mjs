// The browser's GPU resolver (templates/assets/gpuname.js) against the C one
// (src/rules/gpuname.c, the one `wheelarch query --gpu` uses): the same answer,
// matches and suggestions for every string of tests/fixtures/gpu-names.tsv
// (~800 names as nvidia-smi, torch, rocminfo print them and as people type
// them) and for the strings below.  test_gpuname --print gives the C side.
// usage: node gpuname-js.test.mjs --print-bin PATH --work DIR
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Checker, ROOT } from "../lib/nodetest.mjs";

const require = createRequire(import.meta.url);
const a = process.argv.slice(2);
const arg = (k) => path.resolve(a[a.indexOf(k) + 1]);
const bin = arg("--print-bin"), work = arg("--work");
mkdirSync(work, { recursive: true });
const c = new Checker();
const G = require(path.join(ROOT, "templates/assets/gpuname.js"));

// extra strings beyond the corpus: edge cases of the rules
const extra = ["", "   ", "titan", "quadro", "rtx 40", "rtx 409", "1080", "K40", "vega 6",
  "gtx 1030", "rtx 3070 laptpo", "GPU 1: NVIDIA A100-SXM4-40GB (UUID: GPU-1234)", "sm_90a",
  "compute_120", "750", "61", "gfx11-generic", "gfx90a:xnack-", "AMD Instinct MI250X / MI250",
  "Marketing Name: AMD Radeon Pro W7900", "Device 0: \"Orin\"", "NVIDIA GeForce(R) GTX 1080(TM)",
  "a".repeat(300), "rtx 3060 with max-q design", "GeForce RTX 2080 Super Mobile", "p100", "mi300",
  // words typed as one must sit side by side in the name
  "H100", "h10", "h100 pcie", "gtx1080ti", "1080ti", "rtx3060ti", "7900xtx", "m2000m", "v100s"];
const corpusFile = path.join(work, "names.tsv");
const corpus = readFileSync(path.join(ROOT, "tests/fixtures/gpu-names.tsv"), "utf8");
writeFileSync(corpusFile, corpus + extra.map((s) => s + "\tEXTRA\n").join(""));

const p = spawnSync(bin, [path.join(ROOT, "data"), corpusFile, "--print"], { encoding: "utf8", maxBuffer: 64 << 20 });
c.eq(p.status, 0, "test_gpuname --print exit status " + p.stderr);
const lines = p.stdout.trim().split("\n").map((l) => JSON.parse(l));
const gpus = lines.filter((l) => "gpu" in l).map((l) => ({ name: l.gpu, cc: l.cc, amd: l.amd, other: l.other }));
const results = lines.filter((l) => "query" in l);
c.ok(gpus.length > 500, `the table (${gpus.length} GPUs)`);
c.ok(results.length > 800, `the strings (${results.length})`);

let same = 0;
for (const want of results) {
  const r = G.resolve(gpus, want.query);
  const got = {
    query: want.query, kind: r.kind, decided: r.decided,
    ...(r.decided ? { cc: r.cc } : {}),
    matches: r.matches.map((m) => m.gpu.name),
    suggest: r.suggest.map((g) => g.name),
  };
  if (c.eq(JSON.stringify(got), JSON.stringify(want), `'${want.query}': JS and C agree`)) same++;
}
console.log(`${same} of ${results.length} strings resolved alike by gpuname.js and gpuname.c`);

// Typed letter by letter (the filter's typing mode): the list never
// empties, and no prefix answers for another device code than the whole
// name's (a word still open that may become "RX" or "PCIe" answers nothing
// yet).
for (const name of ["NVIDIA GeForce RTX 3060 Laptop GPU", "NVIDIA H100 80GB HBM3", "Quadro P1000",
  "Radeon RX 7900 XTX", "NVIDIA GeForce GTX 1080 Ti", "AMD Instinct MI300X", "NVIDIA H100 PCIe"]) {
  const whole = G.resolve(gpus, name, { typing: true });
  if (!c.ok(whole.decided, `'${name}' answers when typed whole`)) continue;
  const empty = [], wrong = [], lost = [];
  for (let i = 1; i <= name.length; i++) {
    const p = name.slice(0, i);
    if (!p.trim()) continue;
    const r = G.resolve(gpus, p, { typing: true });
    if (!(r.all || []).length) empty.push(p);
    if (r.decided && r.cc !== whole.cc) wrong.push(p + " -> " + r.cc);
    // while a brand is being typed the list holds the GPU being typed:
    // "g" is GeForce as much as "... Blackwell Generation"
    const open = (/([a-z]+)$/i.exec(p) || ["", ""])[1].toLowerCase();
    const brand = open && ["nvidia", "geforce", "amd", "radeon", "instinct"].some((w) => w.length > open.length && w.startsWith(open));
    if (brand && !(r.all || []).some((g) => whole.gpu && g.name === whole.gpu.name)) lost.push(p);
  }
  c.ok(lost.length === 0, `'${name}' typed letter by letter: the GPU typed stays in the list (lost at ${JSON.stringify(lost.slice(0, 6))})`);
  c.ok(empty.length === 0, `'${name}' typed letter by letter: the list never empties (empty at ${JSON.stringify(empty)})`);
  c.ok(wrong.length === 0, `'${name}' typed letter by letter: no prefix answers for another device (${JSON.stringify(wrong)})`);
}
// what cannot travel through a line of the file: a pasted nvidia-smi CSV
// with its header (test_gpuname checks the same strings in C)
const csv = G.resolve(gpus, "name, compute_cap\nNVIDIA GeForce GTX 1080 Ti, 6.1\n");
c.ok(csv.decided && csv.gpu.name === "GeForce GTX 1080 Ti", "a pasted nvidia-smi CSV resolves to its GPU");
const csv2 = G.resolve(gpus, "name, compute_cap\r\nGeForce GT 730, 3.5");
c.ok(csv2.decided && csv2.cc === "3.5", "the compute capability field decides");
c.ok(!G.resolve(gpus, "name, compute_cap").decided, "a header alone decides nothing");
c.done();
