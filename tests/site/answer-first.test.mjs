// The answer first, and one answer per page state: the site in Debian's
// chromium (playwright-core), built from tests/fixtures/site-db and served
// on 127.0.0.1.
//   - at 390x844, on the GPU pages of a sample of at least 40 devices
//     (NVIDIA, AMD, Jetson, Arm-only): the GPU, the verdict and the command
//     end above 844 px, and the Copy button copies exactly the command;
//   - on the home page, 10 names as nvidia-smi prints them: the same for
//     the answer card;
//   - for 20 devices, drivers below, at and above each driver floor of the
//     answer and several Pythons: the heading, the headline, the command,
//     the grid's star and the plain-pip line name the release and variant
//     `wheelarch query --json` names for the same inputs, on the GPU page
//     and on the home card;
//   - error texts (tests/fixtures/error-texts) pasted into the home box
//     find the GPU they name, link the message's page and give query's
//     command; the message pages exist and link GPU pages;
//   - a Kepler GPU on Windows with Python 3.11 opens its other ways forward;
//   - without JavaScript: no input box or control that does nothing is
//     visible (a screenshot of it: work/nojs-390.png).
// usage: node answer-first.test.mjs --wheelarch PATH --work DIR  (DECLARED=1: the
// shipped data's site)
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { buildSite, Checker, CHROMIUM, CHROMIUM_ARGS, parseArgs, serve } from "../lib/nodetest.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = parseArgs();
const c = new Checker();
// DECLARED=1: the site of the shipped data alone (an empty database), as a
// first run builds it, instead of the test database's.
let site, cache;
if (process.env.DECLARED === "1") {
  cache = path.join(args.work, "declared-db");
  site = path.join(args.work, "site");
  const p = spawnSync(args.wheelarch, ["build", "-q", "--cache", cache, "--out", site], { encoding: "utf8" });
  if (p.status !== 0) throw new Error("wheelarch build failed: " + p.stderr);
} else {
  site = buildSite(args);
  cache = path.join(args.work, "site-db");
}
const srv = await serve(site);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const origin = srv.url.replace(/\/$/, "");

// The GPU list of the home page: name, page, device code.
const home = readFileSync(path.join(site, "index.html"), "utf8");
const listed = [...home.matchAll(/<li[^>]*><a href="([^"]+)">([^<]+)<\/a> <small>([^<]+)<\/small>/g)]
  .map((m) => ({ href: m[1], name: m[2].replace(/&amp;/g, "&"), cc: m[3] }));
c.ok(listed.length > 300, `the home page lists the GPUs (${listed.length})`);
const byName = (n) => listed.find((g) => g.name === n);

// 40+ devices: named ones across kinds, then every 15th of the list.
const NAMED = ["GeForce GTX 1080 Ti", "NVIDIA H100", "Tesla K40c", "GeForce RTX 5090", "NVIDIA A100",
  "GeForce RTX 3060 Laptop GPU", "NVIDIA GB10", "NVIDIA GH200", "Jetson AGX Orin", "Jetson Nano",
  "AMD Radeon RX 7900 XTX", "AMD Instinct MI300X", "AMD Radeon RX 6800 XT", "Tesla K80", "Tesla V100-SXM2-16GB",
  "Tesla T4", "GeForce GTX 970", "NVIDIA GeForce RTX 4090", "GeForce MX330", "NVIDIA DRIVE AGX Orin"];
const sample = [];
for (const n of NAMED) if (byName(n)) sample.push(byName(n));
for (let i = 0; i < listed.length && sample.length < 44; i += 15)
  if (!sample.includes(listed[i])) sample.push(listed[i]);
c.ok(sample.length >= 40, `at least 40 devices sampled (${sample.length})`);
c.ok(sample.some((g) => g.cc.startsWith("gfx")) && sample.some((g) => /Jetson/.test(g.name)) &&
     sample.some((g) => g.name === "NVIDIA GB10"), "the sample has AMD, Jetson and Arm-only devices");

// The first visible command of a page (or of the home card): its box, its
// text, and what its Copy button put on the clipboard.
async function firstCommand(page, scope) {
  return page.evaluate((scope) => {
    const root = document.querySelector(scope) || document;
    const pre = [...root.querySelectorAll(".answer-cmd pre")].find((p) => p.getClientRects().length);
    const head = [...root.querySelectorAll("p.headline")].find((p) => p.getClientRects().length);
    if (!pre) return { headBottom: head ? head.getBoundingClientRect().bottom + scrollY : null };
    const r = pre.getBoundingClientRect();
    return { bottom: r.bottom + scrollY, text: pre.querySelector("code").textContent,
             button: !!pre.querySelector("button.copy") };
  }, scope);
}
async function copied(page, scope) {
  await page.evaluate(() => navigator.clipboard.writeText("-"));
  await page.locator(`${scope} .answer-cmd pre:visible button.copy`).first().click();
  await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t !== "-"), null, { timeout: 10000 }).catch(() => {});
  return page.evaluate(() => navigator.clipboard.readText());
}

try {
  // ---- every sampled GPU page: the answer on the first screen -------------
  const ctx = await browser.newContext({ ...PHONE });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  let withCmd = 0;
  for (const g of sample) {
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(srv.url + g.href);
    await page.waitForSelector("#driverbox[data-loaded], body:not(:has(#driverbox))", { timeout: 15000 }).catch(() => {});
    const f = await firstCommand(page, "main");
    if (f.text !== undefined) {
      withCmd++;
      c.ok(f.bottom <= 844, `${g.name}: the command ends at ${Math.round(f.bottom)} px, within the first screen`);
      c.ok(f.button, `${g.name}: the command has a Copy button`);
      c.eq(await copied(page, "main"), f.text, `${g.name}: Copy copies exactly the command`);
    } else {
      c.ok(f.headBottom !== null && f.headBottom <= 844, `${g.name}: no command; the verdict ends within the first screen (${f.headBottom})`);
    }
    c.eq(errors.length, 0, `${g.name}: script errors ${JSON.stringify(errors)}`);
    await page.close();
  }
  c.ok(withCmd >= 35, `most sampled pages have a command (${withCmd})`);

  // ---- the home page: names as nvidia-smi prints them ----------------------
  const SMI = ["NVIDIA GeForce RTX 3060 Laptop GPU", "NVIDIA GeForce GTX 1080 Ti", "NVIDIA H100 80GB HBM3",
    "NVIDIA A100-SXM4-40GB", "Tesla K40c", "NVIDIA GeForce RTX 5090", "Tesla T4", "NVIDIA GB10",
    "NVIDIA GeForce RTX 4090", "Tesla V100-SXM2-16GB"];
  {
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.waitForSelector("#search[data-ready]");
    for (const n of SMI) {
      await page.evaluate(() => scrollTo(0, 0));
      await page.fill("#q", n);
      await page.waitForSelector("#answer .card .answer-cmd pre button.copy", { timeout: 15000 }).catch(() => {});
      const f = await firstCommand(page, "#answer");
      c.ok(f.text !== undefined, `home, "${n}": the card has a command`);
      if (f.text === undefined) continue;
      c.ok(f.bottom <= 844, `home, "${n}": the card's command ends at ${Math.round(f.bottom)} px, within the first screen`);
      c.eq(await copied(page, "#answer"), f.text, `home, "${n}": Copy copies exactly the command`);
    }
    // while a name is unfinished, the line describes the list, never "no name"
    await page.fill("#q", "NVIDIA GeForce RT");
    await page.waitForTimeout(100);
    const t = await page.textContent("#answer");
    c.ok(/Keep typing/.test(t) && !/No GPU/.test(t), "an unfinished name: keep typing, with the count: " + t);
    await page.close();
  }

  // ---- one answer per page state, held to `wheelarch query --json` ---------
  const CONSIST = ["GeForce GTX 1080 Ti", "NVIDIA H100", "Tesla K40c", "GeForce RTX 5090", "NVIDIA A100",
    "GeForce RTX 3060 Laptop GPU", "NVIDIA GB10", "NVIDIA GH200", "Tesla K80", "Tesla V100-SXM2-16GB",
    "Tesla T4", "GeForce GTX 970", "NVIDIA GeForce RTX 4090", "GeForce MX330", "GeForce GTX 1050",
    "Quadro P1000", "NVIDIA B200", "NVIDIA L4", "AMD Radeon RX 7900 XTX", "AMD Instinct MI300X"]
    .map(byName).filter(Boolean);
  c.ok(CONSIST.length >= 18, `devices held to query (${CONSIST.length})`);
  const PYS = ["", "3.8", "3.12", "3.14t"];
  const pinText = (p) => String(p).replace(/\.\*$/, "");
  function lower(f) {
    const v = f.split(".").map(Number);
    while (v.length < 3) v.push(0);
    if (v[2] > 0) v[2]--; else if (v[1] > 0) { v[1]--; v[2] = 99; } else { v[0]--; v[1] = 99; v[2] = 99; }
    return v.join(".");
  }
  function higher(f) {
    const v = f.split(".").map(Number);
    while (v.length < 3) v.push(0);
    v[2]++;
    return v.join(".");
  }
  function query(name, platform, driver, python) {
    const a = ["query", "--cache", cache, "--gpu", name, "--platform", platform, "--python", python || "any", "--json"];
    if (driver) a.push("--driver", driver);
    const p = spawnSync(args.wheelarch, a, { encoding: "utf8" });
    try { return JSON.parse(p.stdout); } catch (e) { return null; }
  }
  // What the visible platform block of the GPU page (or the home card) says.
  const readBlock = (page) => page.evaluate(() => {
    const b = [...document.querySelectorAll(".platform[data-platform]")].find((x) => !x.hidden);
    if (!b) return null;
    const vis = (e) => e && e.getClientRects().length > 0;
    const star = b.querySelector("td.rec");
    let starAt = null, starClass = null;
    if (star) {
      starClass = [...star.classList].find((k) => k.startsWith("c-")) || null;
      const tr = star.parentNode, col = [...tr.children].indexOf(star);
      starAt = tr.querySelector("th").textContent + " " + b.querySelectorAll("table.rgrid thead th")[col].textContent;
    }
    const pre = b.querySelector(".answer-cmd pre code");
    const pypi = b.querySelector("p.pypi .pypi-say");
    const said = [...b.querySelectorAll("p")].filter(vis).map((p) => p.textContent).join(" ");
    return { platform: b.getAttribute("data-platform"), answer: b.getAttribute("data-answer"), said,
             head: b.querySelector("h2.ans-head").textContent, headline: b.querySelector("p.headline").textContent,
             pip: pre && vis(pre) ? pre.textContent : null, star: starAt, starClass, pypi: pypi ? pypi.textContent : null };
  });
  const hctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let states = 0, homeStates = 0;
  for (const g of CONSIST) {
    const page = await hctx.newPage();
    await page.goto(srv.url + g.href);
    await page.waitForSelector("#driverbox[data-loaded]", { timeout: 15000 }).catch(() => {});
    const plat = (await readBlock(page) || {}).platform;
    if (!c.ok(!!plat, `${g.name}: a platform block shows`)) { await page.close(); continue; }
    const hasDriver = await page.$("#driver");
    const doc = JSON.parse(readFileSync(path.join(site, (await page.getAttribute("#driverbox", "data-src")).replace(/^(\.\.\/)+/, "")), "utf8"));
    const bd = (doc.platforms[plat].answer.by_driver || []).map((r) => r.min_driver).filter(Boolean);
    const drivers = [""];
    if (hasDriver) for (const f of [...new Set(bd)].slice(0, 3)) drivers.push(lower(f), f, higher(f));
    const options = await page.$$eval("#python option", (o) => o.map((x) => x.value));
    for (const drv of drivers) {
      for (const py of PYS) {
        if (py && !options.includes(py)) continue;
        if (hasDriver) await page.fill("#driver", drv);
        await page.selectOption("#python", py);
        const s = await readBlock(page);
        const q = query(g.name, plat, drv, py);
        const what = `${g.name} ${plat} driver "${drv}" Python "${py || "any"}"`;
        if (!c.ok(q !== null, `${what}: query --json answers`)) continue;
        const a = q.recommendation || q.fallback;
        states++;
        if (a) {
          c.eq(s.answer, a.release + " " + a.index, `${what}: the page's answer`);
          c.ok(s.head.includes("torch " + pinText(a.pin)), `${what}: the heading names torch ${pinText(a.pin)}: ${s.head}`);
          c.ok(s.headline.includes(a.index), `${what}: the headline names ${a.index}: ${s.headline}`);
          c.eq(s.pip, a.commands.pip, `${what}: the command`);
          if (s.star !== null || doc.platforms[plat].grid) {
            c.eq(s.star, a.release + " " + a.index, `${what}: the grid's star`);
            // the starred cell judges the answer's own build (a pinned patch too)
            c.eq(s.starClass, { "native": "c-n", "ptx-jit": "c-j", "partial": "c-p" }[a.verdict], `${what}: the starred cell's verdict`);
          }
        } else {
          c.ok(s.pip === null, `${what}: no answer, no command (${s.pip})`);
          c.ok(s.star === null, `${what}: no answer, no star (${s.star})`);
          c.ok(/driver too old|no Python|✗ no/.test(s.headline), `${what}: the headline says what blocks: ${s.headline}`);
        }
        if (s.pip === null) c.ok(!/command above/.test(s.said), `${what}: no command, and nothing points to one: ${s.said.slice(0, 300)}`);
        if (q.pypi && s.pypi !== null)
          c.eq(!/✗/.test(s.pypi), !!q.pypi.runs, `${what}: the plain-pip line says it ${q.pypi.runs ? "runs" : "does not run"}: ${s.pypi}`);
      }
    }
    // every platform at once: each block's heading names a release, or says none
    if (await page.$("input[name=platpick][value=all]")) {
      await page.check("input[name=platpick][value=all]");
      for (const drv of ["", drivers[1] || ""]) {
        if (hasDriver) await page.fill("#driver", drv);
        const heads = await page.$$eval(".platform[data-platform] h2.ans-head", (hs) => hs.map((h) => h.textContent));
        c.ok(heads.length > 1 && heads.every((h) => /^(torch \d|No )/.test(h) && !/undefined/.test(h)),
             `${g.name}, all platforms, driver "${drv}": every heading names a release or says none: ${JSON.stringify(heads)}`);
      }
      await page.check(`input[name=platpick][value="${plat}"]`);
    }
    await page.close();

    // the home card, for the same GPU with a few of the same inputs
    const hp = await hctx.newPage();
    await hp.goto(srv.url);
    await hp.waitForSelector("#search[data-ready]");
    await hp.check(`input[name=platform][value="${plat}"]`);
    // (an AMD GPU with an NVIDIA driver remembered from another page: the
    // driver changes nothing)
    for (const [drv, py] of [[drivers[1] || "570.86.15", ""], [drivers[2] || "300", "3.12"], ["", "3.8"], ["abc", ""]]) {
      await hp.fill("#driver", drv);
      await hp.selectOption("#python", py);
      await hp.fill("#q", "");
      await hp.fill("#q", g.name);
      // the card drawn (the filter's scripts loaded) and its answer found
      // (the device's tables loaded when a driver or Python is set)
      await hp.waitForFunction(() => {
        const k = document.querySelector("#answer .card");
        return k !== null && !/finding the answer/.test(k.textContent);
      }, null, { timeout: 15000 }).catch(() => {});
      const card = await hp.evaluate(() => {
        const k = document.querySelector("#answer .card");
        const code = k && k.querySelector(".answer-cmd pre code");
        const pp = k && k.querySelector("p.pypi");
        return k ? { text: k.querySelector("p.headline") ? k.querySelector("p.headline").textContent : "", pip: code ? code.textContent : null, said: k.textContent,
                     pypi: pp ? pp.textContent : null } : null;
      });
      // a driver that is not a version: the card answers for any driver, and says so
      const version = /^\d+(\.\d+){0,2}$/.test(drv);
      const q = query(g.name, plat, version ? drv : "", py);
      const a = q && (q.recommendation || q.fallback);
      const what = `home card, ${g.name} ${plat} driver "${drv}" Python "${py || "any"}"`;
      if (drv && !version && card && !g.cc.startsWith("gfx")) c.ok(/is not a driver version/.test(card.said), `${what}: the card says the driver is not a version: ${card.said.slice(0, 200)}`);
      if (card === null || !card.text) continue; /* the name fits several GPUs: no card */
      homeStates++;
      if (a) {
        c.eq(card.pip, a.commands.pip, `${what}: the command`);
        c.ok(card.text.includes(a.index) && card.text.includes("torch " + pinText(a.pin)), `${what}: the headline names ${a.index}, torch ${pinText(a.pin)}: ${card.text}`);
      } else {
        c.ok(card.pip === null, `${what}: no answer, no command`);
      }
      if (card.pip === null) c.ok(!/command above/.test(card.said), `${what}: no command, and nothing points to one: ${card.said.slice(0, 300)}`);
      if (q && q.pypi && card.pypi && q.pypi.verdict !== null && /cu\d/.test(q.pypi.build))
        c.eq(/runs on it too/.test(card.pypi), !!q.pypi.runs, `${what}: the plain-pip line: ${card.pypi}`);
    }
    await hp.close();
  }
  console.log(`states held to query: ${states} on GPU pages, ${homeStates} home cards`);
  c.ok(states >= 300, `at least 300 page states checked (${states})`);

  // ---- the error texts people paste, in the home page's box ----------------
  // (tests/fixtures/error-texts; an <input> joins pasted lines into one)
  {
    const TEXTS = path.join(HERE, "..", "fixtures", "error-texts");
    const PASTES = [
      ["uv-14742-gtx-1080-ti.txt", "GeForce GTX 1080 Ti", "not-compatible"],
      ["mx330-no-kernel-image.txt", "GeForce MX330", "no-kernel-image"],
      ["k40c-nvidia-smi.txt", "Tesla K40c", null],
      ["gt-710-too-old.txt", "GeForce GT 710", "too-old"],
      ["titan-x-capability-table.txt", "GeForce GTX TITAN X", "capability-table"],
    ];
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.waitForSelector("#search[data-ready]");
    for (const [file, gpu, msg] of PASTES) {
      const text = readFileSync(path.join(TEXTS, file), "utf8").split("\n").filter((l) => !l.startsWith("#")).join("\n");
      await page.evaluate(() => scrollTo(0, 0));
      await page.fill("#q", text);
      await page.waitForSelector("#answer .card .gpuline", { timeout: 15000 }).catch(() => {});
      const got = await page.evaluate(() => {
        const card = document.querySelector("#answer .card");
        const a = card && card.querySelector(".paste a");
        return { gpu: card && card.querySelector(".gpuline a") ? card.querySelector(".gpuline a").textContent : null,
                 link: a ? a.getAttribute("href") : null, text: card ? card.textContent : "" };
      });
      c.eq(got.gpu, gpu, `home, pasted ${file}: the GPU it names`);
      if (msg) c.eq(got.link, "errors/" + msg + "/", `home, pasted ${file}: links the message's page`);
      const want = query(gpu, "linux-x86_64", "", "");
      const base = want && (want.recommendation || want.fallback);
      if (base) c.ok(got.text.includes(base.commands.pip), `home, pasted ${file}: the answer's command ${base.commands.pip}`);
    }
    // a message that names no GPU says what to paste
    await page.fill("#q", "RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.");
    await page.waitForTimeout(200);
    const t = await page.textContent("#answer");
    c.ok(/does not say which GPU/.test(t) && /nvidia-smi --query-gpu=name,compute_cap/.test(t),
      "a pasted message without a GPU: what to paste: " + t);
    // each message's page exists and shows its text
    for (const slug of ["not-compatible", "no-kernel-image", "ptx-unsupported-toolchain", "too-old"]) {
      const r = await page.goto(srv.url + "errors/" + slug + "/");
      c.ok(r && r.ok(), `errors/${slug}/ is served`);
      const links = await page.evaluate(() => [...document.querySelectorAll("main a[href*='gpu/']")].length);
      c.ok(links >= 1, `errors/${slug}/ links GPU pages (${links})`);
    }
    await page.close();
  }

  // ---- no build for the Python: the other ways forward, on that platform ---
  {
    const k = byName("Tesla K40c");
    const page = await ctx.newPage();
    await page.goto(srv.url + k.href);
    await page.waitForSelector("#driverbox:not([hidden])");
    await page.check("input[name=platpick][value=windows-x86_64]").catch(() => {});
    await page.selectOption("#python", "3.11").catch(() => {});
    await page.waitForTimeout(500);
    const st = await page.evaluate(() => {
      const div = [...document.querySelectorAll(".platform")].find((d) => d.getAttribute("data-platform") === "windows-x86_64");
      const d = div && div.querySelector("details.self-build");
      return { has: !!d, open: !!(d && d.open), steps: d ? [...d.querySelectorAll("li")].map((l) => l.textContent) : [],
               hl: div && div.querySelector("p.headline") ? div.querySelector("p.headline").textContent : "" };
    });
    c.ok(st.has && st.open, "Tesla K40c on Windows with Python 3.11: the other ways forward, opened");
    c.ok(st.steps.length >= 3 && st.steps.some((x) => /TORCH_CUDA_ARCH_LIST="3.5"/.test(x) && /R470/.test(x)),
      "and they name a Python, the source build's arch list and R470: " + JSON.stringify(st.steps).slice(0, 400));
    c.ok(/build it yourself/i.test(st.hl), "the headline points to them: " + st.hl);
    await page.close();
  }

  // ---- without JavaScript: nothing that does nothing ------------------------
  {
    const nctx = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    for (const g of [byName("GeForce GTX 1080 Ti"), byName("AMD Radeon RX 7900 XTX"), byName("Tesla K40c")].filter(Boolean)) {
      const page = await nctx.newPage();
      await page.goto(srv.url + g.href);
      const boxes = await page.evaluate(() => [...document.querySelectorAll("input, select, button, textarea")]
        .filter((e) => e.getClientRects().length).map((e) => e.outerHTML.slice(0, 80)));
      c.eq(boxes.length, 0, `${g.name} without JavaScript: no visible control (${JSON.stringify(boxes)})`);
      const scope = await page.textContent(".platform p.scope").catch(() => "");
      c.ok(/^For /.test(scope || ""), `${g.name} without JavaScript: the answer says which driver and Python it is for: ${scope}`);
      if (g.name === "GeForce GTX 1080 Ti") await page.screenshot({ path: path.join(args.work, "nojs-390.png") });
      await page.close();
    }
    await nctx.close();
  }
} finally {
  await browser.close();
  await srv.close();
}
c.done();
