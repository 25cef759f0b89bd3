// Time to answer, as a phone on a slow network meets the site: from the
// start of a navigation to the install command, drawn and on the first
// screen (wholly inside the 390x800 viewport), with Chromium's CPU
// throttled 4x and the network shaped (CDP Network.emulateNetworkConditions).
//
//   node bench/answer-time.mjs SITE_DIR
//
// Two ways in, each run five times (RUNS=N to change; the median is
// printed, with the fastest and slowest run): a GPU page
// opened directly (its answer is in its HTML), and the home page with a
// name typed as soon as it loads (the filter loads gpuname.js, answers.js
// and decide.js, then answers).  Two network profiles: "3G" (Lighthouse's
// mobile 3G: 300 ms round trip, 700 kbit/s each way) and Chrome DevTools'
// "Slow 3G" (2,000 ms, 400 kbit/s down).  The reference, measured in the
// same run and profile, is a 1-byte page: the network's own floor; each
// line prints the ratio to it.  The site is served gzipped, as static hosts
// serve it; the bytes printed are the bytes transferred.  Run it on an older
// build's site for a before and after: a command drawn below the first
// screen is "never" on it.  Target: the answer on the first screen within
// 2 s on 3G, a GPU page at most 40 KB of HTML.
import { chromium } from "../tests/node_modules/playwright-core/index.mjs";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { CHROMIUM, CHROMIUM_ARGS } from "../tests/lib/nodetest.mjs";

// The site served on 127.0.0.1 as a static host serves it: gzip for a
// client that accepts it (GitHub Pages, nginx's gzip_static, a CDN).
const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript",
  ".json": "application/json", ".svg": "image/svg+xml" };
function serve(root) {
  const server = createServer((req, res) => {
    let f = path.join(root, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!f.startsWith(root)) { res.writeHead(403).end(); return; }
    if (existsSync(f) && statSync(f).isDirectory()) f = path.join(f, "index.html");
    if (!existsSync(f)) { res.writeHead(404).end(); return; }
    let body = readFileSync(f);
    const head = { "Content-Type": TYPES[path.extname(f)] || "application/octet-stream" };
    if (/\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
      body = gzipSync(body);
      head["Content-Encoding"] = "gzip";
    }
    res.writeHead(200, head).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () =>
    resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) })));
}

const site = path.resolve(process.argv[2] || "site");
writeFileSync(path.join(site, "floor.html"), "x");
const PROFILES = {
  "3G": { latency: 300, downloadThroughput: 700 * 1000 / 8, uploadThroughput: 700 * 1000 / 8 },
  "Slow 3G": { latency: 2000, downloadThroughput: 400 * 1000 / 8, uploadThroughput: 400 * 1000 / 8 },
};
const GPU_PAGE = process.env.GPU_PAGE || "gpu/geforce-rtx-3060-laptop-gpu/";
const NAME = process.env.GPU_NAME || "NVIDIA GeForce RTX 3060 Laptop GPU";
const RUNS = Math.max(1, Number(process.env.RUNS) || 5);
// The command, on a GPU page and in the home page's card; the selector of
// the pages from before the answer moved to the first screen (pre.answer-cmd)
// too, so the same script measures an older site's build for a before and
// after.  A command that never reaches the first screen times out (60 s).
const COMMAND = process.env.COMMAND || ".answer-cmd pre, pre.answer-cmd";
const HOME_COMMAND = process.env.HOME_COMMAND || "#answer pre";
const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const spread = (a) => `${Math.min(...a)} to ${Math.max(...a)} ms over ${a.length} runs`;

// Waits are polled on every animation frame: a locator's waitFor polls at
// growing intervals (up to 500 ms), which would round a time up by as much.
// "Visible" is on the first screen: the command's box drawn and wholly
// inside the viewport (a command 900 px down is not an answer on a phone).
const shown = (sel, first) => (page, timeout) => page.waitForFunction(([s, first]) => {
  const e = [...document.querySelectorAll(s)].find((x) => x.getClientRects().length > 0);
  if (!e || getComputedStyle(e).visibility === "hidden") return false;
  const r = e.getBoundingClientRect();
  return !first || (r.top >= 0 && r.bottom <= innerHeight);
}, [sel, first], { polling: "raf", timeout: timeout || 60000 });
// The time the command is drawn (anywhere on the page) and the time it is on
// the first screen to stay: a command that is below the first screen once
// the page has loaded (and its scripts have run) gets null for the second,
// even if it passed through the first screen while the page was arriving.
async function command(page, sel, t0, into) {
  await shown(sel, false)(page);
  into.drawn = Date.now() - t0;
  into.first = await shown(sel, true)(page, 3000).then(() => Date.now() - t0, () => null);
  await page.waitForLoadState("load");
  await page.waitForTimeout(300);
  const still = await page.evaluate((s) => {
    const e = [...document.querySelectorAll(s)].find((x) => x.getClientRects().length > 0);
    const r = e && e.getBoundingClientRect();
    return !!r && r.top >= 0 && r.bottom <= innerHeight;
  }, sel);
  if (!still) into.first = null;
}

const srv = await serve(site);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

async function timed(profile, fn) {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...PROFILES[profile] });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  let bytes = 0;
  cdp.on("Network.loadingFinished", (e) => { bytes += e.encodedDataLength; });
  const t = { t0: Date.now() };
  await fn(page, t);
  t.ms = Date.now() - t.t0;
  await page.waitForLoadState("load"); /* the bytes of everything it loads */
  await page.waitForTimeout(200);
  await ctx.close();
  return { ...t, bytes };
}

const out = [];
const say = (xs, floor) => xs.includes(null) ? `never (${xs.filter((x) => x === null).length} of ${xs.length} runs)`
  : `${median(xs)} ms (${spread(xs)}), ${(median(xs) / floor).toFixed(1)}x the floor`;
for (const profile of Object.keys(PROFILES).filter((k) => !process.env.PROFILE || k === process.env.PROFILE)) {
  const runs = { floor: [], gpu: [], gpuFirst: [], home: [], homeFirst: [] };
  let gpuBytes = 0, homeBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    runs.floor.push((await timed(profile, (p) => p.goto(srv.url + "floor.html"))).ms);
    const g = await timed(profile, async (p, t) => {
      await p.goto(srv.url + GPU_PAGE, { waitUntil: "commit" });
      await command(p, COMMAND, t.t0, t);
    });
    runs.gpu.push(g.drawn);
    runs.gpuFirst.push(g.first);
    gpuBytes = g.bytes;
    const h = await timed(profile, async (p, t) => {
      await p.goto(srv.url, { waitUntil: "commit" });
      await shown("#q", false)(p);
      await p.fill("#q", NAME);
      await command(p, HOME_COMMAND, t.t0, t);
    });
    runs.home.push(h.drawn);
    runs.homeFirst.push(h.first);
    homeBytes = h.bytes;
  }
  const floor = median(runs.floor);
  const html = statSync(path.join(site, GPU_PAGE, "index.html")).size;
  out.push(`${profile}, CPU x4, 390x800: network floor (1-byte file) ${floor} ms`);
  out.push(`  GPU page (${GPU_PAGE}, HTML ${html} bytes, ${gpuBytes} bytes transferred): command drawn in ${say(runs.gpu, floor)}; on the first screen in ${say(runs.gpuFirst, floor)}`);
  out.push(`  home page, "${NAME}" typed at once (${homeBytes} bytes transferred): command drawn in ${say(runs.home, floor)}; on the first screen in ${say(runs.homeFirst, floor)}`);
}
await browser.close();
await srv.close();
console.log(out.join("\n"));
console.log("target: the answer on the first screen within 2,000 ms on 3G; a GPU page at most 40 KB of HTML");
