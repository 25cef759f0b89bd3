// Shared helpers of the node-based site tests: arguments, a site built from
// the committed test database, a static file server on 127.0.0.1, and the
// same pass/fail bookkeeping as tests/lib/watest.py.
import { spawnSync } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const TESTS = path.resolve(HERE, "..");
export const ROOT = path.resolve(TESTS, "..");

export function parseArgs() {
  const a = process.argv.slice(2);
  const get = (k) => {
    const i = a.indexOf(k);
    if (i < 0 || i + 1 >= a.length) throw new Error("missing " + k);
    return path.resolve(a[i + 1]);
  };
  const work = get("--work");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  return { wheelarch: get("--wheelarch"), work };
}

export class Checker {
  constructor() {
    this.passed = 0;
    this.failed = 0;
  }
  ok(cond, msg) {
    if (cond) this.passed++;
    else {
      this.failed++;
      console.log("FAIL: " + msg);
    }
    return cond;
  }
  eq(got, want, msg) {
    return this.ok(got === want, `${msg}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  done() {
    console.log(`${this.passed} passed, ${this.failed} failed`);
    process.exit(this.failed ? 1 : 0);
  }
}

// Builds the site of tests/fixtures/site-db (imported into a database in
// work/site-db) into work/site; returns its path.
export function buildSite(args) {
  const out = path.join(args.work, "site");
  const cache = path.join(args.work, "site-db");
  const imp = spawnSync(args.wheelarch, ["db", "import", path.join(TESTS, "fixtures", "site-db"), "--cache", cache],
    { encoding: "utf8" });
  if (imp.status !== 0) throw new Error("wheelarch db import failed: " + imp.stderr);
  const p = spawnSync(args.wheelarch, ["build", "-q", "--cache", cache, "--out", out],
    { encoding: "utf8" });
  if (p.status !== 0) throw new Error("wheelarch build failed: " + p.stderr);
  return out;
}

const TYPES = {
  ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript",
  ".json": "application/json", ".svg": "image/svg+xml", ".atom": "application/atom+xml", ".csv": "text/csv",
};

// Serves root on 127.0.0.1 (a free port); resolves to {url, close}.
export function serve(root) {
  const server = createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let f = path.join(root, p);
    if (!f.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(f) && statSync(f).isDirectory()) f = path.join(f, "index.html");
    if (!existsSync(f)) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(f)] || "application/octet-stream" });
    createReadStream(f).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}/`;
      resolve({ url, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
