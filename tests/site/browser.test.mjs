// The site in a real browser: Debian's chromium driven by playwright-core,
// the site built from tests/fixtures/site-db and served on 127.0.0.1.
//   - the home page: reach the GPU box by keyboard, type "1080 Ti" (and
//     "7900 XTX" for a ROCm answer), see the
//     cu126 index recommended; without JavaScript the plain list of GPU
//     pages is there;
//   - the matrix at 375 px: no page-wide horizontal scrolling, sticky
//     headers, a screenshot (work/matrix-375.png);
//   - dark mode through prefers-color-scheme;
//   - axe-core on every kind of page: no serious or critical violations
//     (every rule in light mode, the colour rules in dark mode);
//   - no request leaves 127.0.0.1, no script error.
// usage: node browser.test.mjs --wheelarch PATH --work DIR
import { createRequire } from "node:module";
import path from "node:path";
import { chromium } from "playwright-core";
import { buildSite, Checker, CHROMIUM, CHROMIUM_ARGS, parseArgs, serve } from "../lib/nodetest.mjs";

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core/axe.min.js");
const args = parseArgs();
const c = new Checker();
const site = buildSite(args);
const srv = await serve(site);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });

// Each part's time, printed as it ends (what to look at when the test is slow).
let lapName = "", lapStart = Date.now();
function lap(next) {
  if (lapName) console.log(`time: ${lapName} ${((Date.now() - lapStart) / 1000).toFixed(1)} s`);
  lapName = next;
  lapStart = Date.now();
}

// Every page gets the same watch: requests to other hosts are refused and
// recorded, script errors recorded.
async function open(context, rel) {
  const page = await context.newPage();
  page.outside = [];
  page.errors = [];
  await page.route("**/*", (route) => {
    const u = route.request().url();
    if (u.startsWith(srv.url) || u.startsWith("data:")) return route.continue();
    page.outside.push(u);
    return route.abort();
  });
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(m.text());
  });
  const resp = await page.goto(srv.url + rel);
  c.eq(resp && resp.status(), 200, `${rel}: HTTP status`);
  return page;
}

function settle(page, rel) {
  c.eq(page.outside.length, 0, `${rel}: requests to other hosts ${JSON.stringify(page.outside)}`);
  c.eq(page.errors.length, 0, `${rel}: script errors ${JSON.stringify(page.errors)}`);
}

try {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });

  // ---- home: keyboard, search, instant verdict -------------------------------
  lap("home keyboard");
  {
    const page = await open(ctx, "");
    let reached = false;
    for (let i = 0; i < 25 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => document.activeElement && document.activeElement.id === "q");
    }
    c.ok(reached, "home: the GPU box is reachable with the Tab key");
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    c.ok(ring !== "none", "home: the focused box shows a focus ring (" + ring + ")");
    await page.keyboard.type("1080 Ti");
    const answer = page.locator("#answer");
    await answer.getByText("cu126").waitFor({ timeout: 5000 }).catch(() => {});
    const text = (await answer.textContent()) || "";
    c.ok(text.includes("GeForce GTX 1080 Ti"), "home: the answer names the GPU: " + text);
    c.ok(/use the\s*cu126\s*index/.test(text), "home: cu126 is recommended for a GTX 1080 Ti: " + text);
    c.ok(text.includes("--index-url https://download.pytorch.org/whl/cu126"), "home: with the pip command");
    const visible = await page.locator("ul.gpus li:visible").count();
    c.ok(visible >= 1 && visible <= 3, "home: the list is filtered to the matches, shown (" + visible + ")");
    c.eq(await page.locator("details.seg:visible").count(), 1, "home: only the segment with the matches shows");
    c.eq(await page.getAttribute("#answer", "aria-live"), "polite", "home: the answer is announced as it changes");
    const under = await page.evaluate(() => {
      const q = document.getElementById("q").getBoundingClientRect(), k = document.querySelector("#answer .card").getBoundingClientRect();
      return k.top - q.bottom;
    });
    c.ok(under >= 0 && under < 40, "home: the answer card is right under the box (" + under + " px)");
    // The recommendation's link leads to the GPU page.
    await page.locator("#answer a").first().click();
    await page.waitForURL(/gpu\/geforce-gtx-1080-ti\//);
    c.ok(true, "home: the answer links to the GPU page");
    settle(page, "index.html");
    await page.close();
  }

  // ---- home: the filter knows a GPU any way people know it -----------------------
  lap("home filter");
  {
    const page = await open(ctx, "");
    const cases = [
      ["6.1", /compute capability 6\.1/, /use the\s*cu126\s*index/],
      ["sm_61", /compute capability 6\.1/, /use the\s*cu126\s*index/],
      ["gfx1100", /gfx1100/, /use the\s*rocm[0-9.]+\s*index/],
      ["NVIDIA GeForce RTX 3060 Laptop GPU", /GeForce RTX 3060 Laptop GPU \(compute capability 8\.6\)/, /use the\s*cu\d+\s*index/],
      ["1080 ti", /GeForce GTX 1080 Ti \(compute capability 6\.1\)/, /use the\s*cu126\s*index/],
      ["K40c", /Tesla K40c \(compute capability 3\.5\)/, /the newest that does is torch 1\.3\.0/],
      ["NVIDIA GH200", /NVIDIA GH200 \(compute capability 9\.0\)/, /comes only in Arm systems/],
      ["Jetson Orin NX", /Jetson Orin NX \(compute capability 8\.7\)/, /This is a Jetson \(Tegra\) GPU/],
      // the same compute capability in a DRIVE system: not the Jetson answer
      ["NVIDIA DRIVE AGX Orin", /NVIDIA DRIVE AGX Orin \(compute capability 8\.7\)/, /DRIVE or IGX system(?![\s\S]*JetPack release)/],
      ["name, compute_cap NVIDIA GeForce GTX 1080 Ti, 6.1", /GeForce GTX 1080 Ti \(compute capability 6\.1\)/, /use the\s*cu126\s*index/],
    ];
    for (const [query, who, what] of cases) {
      await page.locator("#q").fill(query);
      await page.locator("#answer .card").first().waitFor({ timeout: 5000 }).catch(() => {});
      await page.waitForFunction(() => !/Loading/.test(document.getElementById("count").textContent), null, { timeout: 5000 }).catch(() => {});
      const text = (await page.locator("#answer").textContent()) || "";
      c.ok(who.test(text), `home: '${query}' names the GPU: ${text.slice(0, 200)}`);
      c.ok(what.test(text), `home: '${query}' gets the right index: ${text.slice(0, 300)}`);
    }
    // "1080" answers for the GTX 1080 and still lists the Ti
    await page.locator("#q").fill("1080");
    await page.locator("#answer .card").first().waitFor({ timeout: 5000 });
    c.ok(/GeForce GTX 1080 \(/.test((await page.locator("#answer").textContent()) || ""), "home: '1080' answers for the GTX 1080");
    c.ok(await page.locator("ul.gpus li:visible a", { hasText: "GeForce GTX 1080 Ti" }).count() === 1, "home: '1080' still lists the Ti");
    // the Ti has the same answer: no "also fits" line for it (issue 31)
    c.ok(!/also fits/.test((await page.locator("#answer").textContent()) || ""), "home: '1080' adds no note for GPUs with the same answer");
    // typed letter by letter, the list of GPUs never empties
    {
      const name = "NVIDIA GeForce RTX 3060 Laptop GPU", empty = [];
      for (let i = 1; i <= name.length; i++) {
        await page.locator("#q").fill(name.slice(0, i));
        if ((await page.locator("ul.gpus li:visible").count()) === 0) empty.push(name.slice(0, i));
      }
      c.ok(empty.length === 0, `home: '${name}' typed letter by letter never empties the list (empty at ${JSON.stringify(empty)})`);
    }
    // the H100 as nvidia-smi prints it: answered, with no ambiguity note
    // (the "Tesla V100-SXM3-32GB-H" has an H and a 100, not the H100)
    for (const name of ["H100", "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe"]) {
      await page.locator("#q").fill(name);
      await page.locator("#answer .card").first().waitFor({ timeout: 5000 });
      const text = (await page.locator("#answer").textContent()) || "";
      c.ok(/NVIDIA H100 \(/.test(text) && !/also fits|V100/.test(text), `home: '${name}' answers for the H100 alone: ${text.slice(0, 200)}`);
    }
    // a miss: a hint with suggestions and examples, no empty headings
    await page.locator("#q").fill("gtx 1030");
    const miss = (await page.locator("#answer").textContent()) || "";
    c.ok(/No GPU matches “gtx 1030”\. Did you mean GeForce GT 1030/.test(miss), "home: a miss says did you mean: " + miss);
    c.ok(/compute capability \(6\.1, sm_61\)/.test(miss), "home: a miss gives examples");
    c.eq(await page.locator("ul.gpus li:visible").count(), 0, "home: a miss lists no GPU");
    c.eq(await page.locator("h3[id^=seg-]:visible").count(), 0, "home: a miss leaves no empty headings");
    // cleared, the segments are back as they were: closed, but one the
    // visitor opened before typing stays open
    await page.locator("#q").fill("");
    c.eq(await page.locator("details.seg[open]").count(), 0, "home: a cleared filter closes the segments again");
    c.eq(await page.locator("ul.gpus li:visible").count(), 0, "home: and lists no GPU until one is opened");
    await page.locator("details.seg > summary", { hasText: "Jetson" }).click();
    await page.locator("#q").fill("1080");
    await page.locator("#q").fill("");
    c.eq((await page.locator("details.seg[open] h3").evaluateAll((hs) => hs.map((h) => h.id))).join(" "), "seg-jetson",
      "home: a segment opened before typing is open again after");
    // several chips under one name
    await page.locator("#q").fill("GeForce GT 730");
    c.ok(/sold with chips of compute capability 3\.5, 3\.0, 2\.1/.test((await page.locator("#answer").textContent()) || ""), "home: GT 730 asks for the compute capability");
    // the platform switch
    await page.locator("#q").fill("1080 ti");
    await page.locator("input[name=platform][value=windows-x86_64]").check();
    c.ok(/Windows x86_64, torch/.test((await page.locator("#answer").textContent()) || ""), "home: the platform switch answers for Windows");
    await page.locator("input[name=platform][value=linux-x86_64]").check();
    // Enter opens the GPU's page
    await page.locator("#q").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/gpu\/geforce-gtx-1080-ti\//, { timeout: 5000 }).catch(() => {});
    c.ok(/gpu\/geforce-gtx-1080-ti\//.test(page.url()), "home: Enter opens the GPU page (" + page.url() + ")");
    settle(page, "index.html (filter)");
    await page.close();
  }

  // ---- home: an AMD GPU answers with a ROCm index ---------------------------------
  lap("home AMD");
  {
    const page = await open(ctx, "");
    await page.locator("#q").fill("7900 XTX");
    const answer = page.locator("#answer");
    await answer.getByText("rocm").first().waitFor({ timeout: 5000 }).catch(() => {});
    const text = (await answer.textContent()) || "";
    c.ok(text.includes("AMD Radeon RX 7900 XTX"), "home: the answer names the AMD GPU: " + text);
    c.ok(text.includes("(gfx1100)"), "home: with its gfx processor: " + text);
    c.ok(/use the\s*rocm[0-9.]+\s*index/.test(text), "home: a ROCm index is recommended for an RX 7900 XTX: " + text);
    c.ok(/--index-url https:\/\/download\.pytorch\.org\/whl\/rocm/.test(text), "home: with the ROCm pip command");
    settle(page, "index.html (AMD)");
    await page.close();
  }

  // ---- home without JavaScript: a plain list of links --------------------------
  lap("home no JS");
  {
    const nojs = await browser.newContext({ javaScriptEnabled: false });
    const page = await open(nojs, "");
    const links = await page.locator("ul.gpus li a").count();
    c.ok(links > 200, "no JavaScript: every GPU is a plain link (" + links + ")");
    // in segments that open without a script
    await page.locator("details.seg > summary", { hasText: "GeForce" }).click();
    c.ok(await page.locator("ul.gpus li a", { hasText: "GeForce GTX 1080 Ti" }).first().isVisible(), "no JavaScript: the GeForce segment opens to its links");
    c.ok(!(await page.locator("#q").isVisible()), "no JavaScript: the filter box stays hidden");
    const href = await page.locator("ul.gpus li a", { hasText: "GeForce GTX 1080 Ti" }).first().getAttribute("href");
    c.eq(href, "gpu/geforce-gtx-1080-ti/", "no JavaScript: link to the GPU page");
    settle(page, "index.html (no JavaScript)");
    await nojs.close();
  }

  // ---- poisoned storage ---------------------------------------------------------
  // Any page of the same origin (GitHub Pages: OWNER.github.io) can write
  // wheelarch's keys: a quote that would break a selector, names of
  // Object.prototype's members, markup.  The home filter and the GPU page's
  // platform switch stay, nothing throws, and a stored value is shown only
  // as text in an input.
  lap("poisoned storage");
  for (const plat of ["x'", "constructor", "__proto__", "toString", "all\"]"]) {
    const pctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await pctx.addInitScript(([p]) => {
      window.localStorage.setItem("wheelarch.platform", p);
      window.localStorage.setItem("wheelarch.driver", "\"><img src=x onerror=window.pwned=1>");
      window.localStorage.setItem("wheelarch.python", "__proto__");
    }, [plat]);
    const home = await open(pctx, "");
    await home.waitForSelector("#search[data-ready]", { timeout: 5000 }).catch(() => {});
    const h = await home.evaluate(() => ({
      ready: document.getElementById("search").hasAttribute("data-ready") && !document.getElementById("search").hidden,
      checked: [...document.querySelectorAll("input[name=platform]")].filter((r) => r.checked).map((r) => r.value),
      driver: document.getElementById("driver") && document.getElementById("driver").value,
      imgs: document.querySelectorAll("#find img, #answer img").length,
    }));
    c.ok(h.ready && h.checked.length <= 1 && h.checked.every((v) => ["linux-x86_64", "linux-aarch64", "windows-x86_64", ""].includes(v)),
         `poisoned platform ${JSON.stringify(plat)}: the home filter is there, its platform a real one: ${JSON.stringify(h)}`);
    c.ok(h.imgs === 0, `poisoned driver: no markup made of it on the home page (${h.imgs} images)`);
    await home.fill("#q", "1080 Ti");
    await home.locator("#answer").getByText("cu126").first().waitFor({ timeout: 5000 }).catch(() => {});
    c.ok(/GeForce GTX 1080 Ti/.test((await home.locator("#answer").textContent()) || ""),
         `poisoned storage ${JSON.stringify(plat)}: the home page still answers`);
    settle(home, `home with poisoned storage ${JSON.stringify(plat)}`);
    const gpu = await open(pctx, "gpu/geforce-gtx-1080-ti/");
    await gpu.waitForSelector("#driverbox[data-loaded]", { timeout: 5000 }).catch(() => {});
    const g = await gpu.evaluate(() => ({
      radios: [...document.querySelectorAll("input[name=platpick]")].map((r) => r.value),
      shown: [...document.querySelectorAll(".platform[data-platform]")].filter((b) => !b.hidden).map((b) => b.getAttribute("data-platform")),
      pwned: !!window.pwned,
      python: document.getElementById("python") && document.getElementById("python").value,
    }));
    c.ok(g.radios.length >= 2 && g.shown.length === 1 && g.shown[0] === "linux-x86_64" && !g.pwned && g.python !== "__proto__",
         `poisoned platform ${JSON.stringify(plat)}: the GPU page's platform switch stays, the browser's platform shown: ${JSON.stringify(g)}`);
    settle(gpu, `GPU page with poisoned storage ${JSON.stringify(plat)}`);
    await pctx.close();
  }

  // ---- the GPU page ---------------------------------------------------------------
  lap("GPU page");
  {
    const page = await open(ctx, "gpu/geforce-gtx-1080-ti/");
    const body = (await page.locator("main").textContent()) || "";
    c.ok(/native.*Use the cu126 index/s.test(body), "GPU page: cu126 recommended natively");
    // The answer first, the picture right under it: the grid of releases x
    // variants is open, below the command, its marked cell in the column of
    // the index the headline names.
    const grid = await page.evaluate(() => {
      const blk = document.querySelector('.platform[data-platform="linux-x86_64"]');
      const t = blk && blk.querySelector("table.rgrid");
      const rec = t && t.querySelector("td.rec");
      const pre = blk && blk.querySelector(".answer-cmd pre");
      if (!rec) return null;
      const col = [...rec.parentNode.children].indexOf(rec);
      return { rows: t.querySelectorAll("tbody tr").length, recCol: t.querySelector("thead tr").children[col].textContent,
               recRow: rec.parentNode.querySelector("th").textContent, visible: t.getBoundingClientRect().height > 0,
               below: !!(pre && (t.compareDocumentPosition(pre) & Node.DOCUMENT_POSITION_PRECEDING)) };
    });
    c.ok(grid && grid.visible && grid.rows >= 5 && grid.below, "GPU page: the grid shows, open, below the command: " + JSON.stringify(grid));
    c.ok(grid && grid.recCol === "cu126" && grid.recRow === "2.14", "GPU page: the marked cell is the answer's (2.14, cu126): " + JSON.stringify(grid));
    // The platform: the browser's own (Linux x86_64 here) shows, the others
    // are one click away, and the choice is remembered.
    const shown = () => page.evaluate(() => [...document.querySelectorAll(".platform[data-platform]")].filter((b) => !b.hidden).map((b) => b.getAttribute("data-platform")));
    c.eq(JSON.stringify(await shown()), JSON.stringify(["linux-x86_64"]), "GPU page: the browser's platform by default");
    await page.check("input[name=platpick][value=windows-x86_64]");
    c.eq(JSON.stringify(await shown()), JSON.stringify(["windows-x86_64"]), "GPU page: Windows picked, Windows shown");
    const other = await open(ctx, "gpu/geforce-gtx-1080/");
    c.eq(await other.evaluate(() => [...document.querySelectorAll(".platform[data-platform]")].filter((b) => !b.hidden).map((b) => b.getAttribute("data-platform")).join()),
         "windows-x86_64", "the next GPU page remembers Windows");
    await page.check("input[name=platpick][value=all]");
    c.eq((await shown()).length, 4, "GPU page: all platforms on request (Windows on Arm the fourth)");
    await page.check("input[name=platpick][value=linux-x86_64]");
    await page.waitForSelector("#driverbox[data-loaded]");
    // A typed driver and Python change the headline itself, not a line below.
    const headline = () => page.locator('.platform[data-platform="linux-x86_64"] p.headline').textContent();
    // the command's lines, without their Copy buttons
    const command = () => page.locator('.platform[data-platform="linux-x86_64"] .answer-cmd code').allTextContents().then((l) => l.join("\n"));
    const before = await headline();
    c.ok(/cu126/.test(before) && /525\.60\.13 or newer/.test(before), "GPU page: the headline names the driver it needs: " + before);
    await page.fill("#driver", "470.82");
    let h = await headline();
    c.ok(/With driver 470\.82/.test(h) && /cu118/.test(h) && /torch 2\.7/.test(h), "a CUDA 11 driver: the headline is cu118, torch 2.7: " + h);
    c.ok(/cu118/.test(await command()), "and so is the command");
    // a branch alone is any driver of it (query --driver 525 reads it so):
    // "525" reaches 525.60.13's cu126, not the build below it
    await page.fill("#driver", "525");
    h = await headline();
    c.ok(/With driver 525/.test(h) && /cu126/.test(h), "driver 525 (a branch): cu126, as 525.60.13 gets: " + h);
    await page.fill("#driver", "470.82");
    await page.selectOption("#python", "3.14");
    h = await headline();
    c.ok(/driver too old/.test(h) && /525\.60\.13 or newer/.test(h) && /torch 2\.14/.test(h) &&
         !(await page.locator('.platform[data-platform="linux-x86_64"] .answer-cmd').isVisible()),
         "Python 3.14 with that driver: only torch 2.14 has its wheels, and it needs 525.60.13; no command: " + h);
    // The Python's own driver table, not the next row of the page's: a CUDA
    // 12.6 driver with Python 3.8 gets torch 2.4 (cu124), the last release
    // with 3.8 wheels, as `wheelarch query --driver 560.35 --python 3.8` does
    // (walking the page's table down gave torch 1.12 cu102).
    await page.fill("#driver", "560.35");
    await page.selectOption("#python", "3.8");
    h = await headline();
    c.ok(/cu124/.test(h) && /torch 2\.4\b/.test(h) && /torch 2\.14 has no wheel for Python 3\.8/.test(h),
         "driver 560.35 and Python 3.8: cu124, torch 2.4: " + h);
    c.ok(/^pip install "torch==2\.4\.\*" --index-url https:\/\/download\.pytorch\.org\/whl\/cu124\nuv pip install "torch==2\.4\.\*" --torch-backend cu124$/.test(await command()), "and its command, as wheelarch wrote it in the feed: " + await command());
    await page.selectOption("#python", "3.14");
    await page.fill("#driver", "300.1");
    h = await headline();
    c.ok(/update it to/.test(h), "a driver older than every build: update it, to what: " + h);
    c.ok(/^\s*⚠ driver too old/.test(h) && !/✗ no/.test(h),
         "and its label says the driver blocks (the table lists only builds with code): " + h);
    // The driver and Python typed follow the visitor to the next GPU page.
    await page.fill("#driver", "470.82");
    await page.selectOption("#python", "");
    await other.reload();
    await other.waitForSelector("#driverbox[data-loaded]");
    c.eq(await other.inputValue("#driver"), "470.82", "the next GPU page has the driver typed");
    const oh = await other.locator('.platform[data-platform="linux-x86_64"] p.headline').textContent();
    c.ok(/With driver 470\.82/.test(oh) && /cu118/.test(oh), "and its headline follows it: " + oh);
    await other.close();
    await page.fill("#driver", "");
    await page.selectOption("#python", "");
    c.eq(await headline(), before, "cleared: the page's own answer comes back");
    settle(page, "gpu page");
    await page.close();
  }

  // ---- the matrix on a phone -------------------------------------------------------
  lap("matrix phone");
  {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await open(phone, "matrix/");
    const shot = path.join(args.work, "matrix-375.png");
    await page.screenshot({ path: shot });
    c.ok(true, "matrix at 375 px: screenshot in " + shot);
    const m = await page.evaluate(() => {
      const region = document.querySelector(".scroll");
      const th = document.querySelector("thead th");
      const rowTh = document.querySelector("table.matrix tbody th");
      return {
        page: document.documentElement.scrollWidth,
        region: region ? [region.scrollWidth, region.clientWidth] : null,
        stickyHead: th ? getComputedStyle(th).position : null,
        stickyRow: rowTh ? getComputedStyle(rowTh).position : null,
        font: parseFloat(getComputedStyle(document.body).fontSize),
      };
    });
    c.ok(m.page <= 375, "matrix at 375 px: the page itself does not scroll sideways (" + m.page + " px)");
    c.ok(m.region && m.region[0] > m.region[1], "matrix at 375 px: the table scrolls inside its region " + JSON.stringify(m.region));
    c.eq(m.stickyHead, "sticky", "matrix: the header row is sticky");
    c.eq(m.stickyRow, "sticky", "matrix: the row headers are sticky");
    c.ok(m.font >= 14, "matrix at 375 px: readable text (" + m.font + " px)");
    // Scrolled down and right inside its region, the table keeps its column
    // headers at the region's top and its row headers at its left edge.
    const stays = await page.evaluate(() => {
      const region = document.querySelector(".scroll.matrix") || document.querySelector(".scroll");
      const th = region.querySelector("thead th:nth-child(3)");
      const row = region.querySelector("tbody tr:nth-child(12) th");
      region.scrollTop = 400;
      region.scrollLeft = 300;
      const r = region.getBoundingClientRect();
      return Math.abs(th.getBoundingClientRect().top - r.top) < 3 && Math.abs(row.getBoundingClientRect().left - r.left) < 3;
    });
    c.ok(stays, "matrix: column and row headers stay in view while the table scrolls");
    settle(page, "matrix");
    await phone.close();
  }

  // ---- phones first: no page wider than the screen ------------------------------------
  lap("widths");
  {
    const kinds = ["", "gpu/geforce-gtx-1080-ti/", "gpu/tesla-k40c/", "gpu/jetson-orin-nx/", "matrix/",
      "release/torch/2.8.0/", "methodology/", "changes/", "api/", "faq/"];
    // each page loaded once and laid out at each width (a resize applies
    // the media queries as a load at that width does)
    const vp = await browser.newContext({ viewport: { width: 320, height: 800 } });
    for (const rel of kinds) {
      const page = await open(vp, rel);
      for (const width of [320, 390, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: window.innerWidth }));
        c.eq(m.iw, width, `${rel || "home"}: laid out at ${width} px`);
        c.ok(m.sw <= m.iw, `${rel || "home"} at ${width} px: no wider than the screen (${m.sw} > ${m.iw})`);
      }
      settle(page, `${rel || "home"} at 320, 390 and 1280 px`);
      await page.close();
    }
    await vp.close();
    // Markdown tables are tables, with header scopes and a caption
    const page = await open(ctx, "methodology/");
    const t = await page.evaluate(() => {
      const tb = document.querySelector("main table");
      return tb ? { cap: tb.querySelector("caption") && tb.querySelector("caption").textContent,
                    scopes: [...tb.querySelectorAll("thead th")].every((th) => th.getAttribute("scope") === "col"),
                    pipes: /\|---/.test(document.querySelector("main").textContent) } : null;
    });
    c.ok(t && t.cap && t.scopes && !t.pipes, "methodology: the Markdown table is a <table> with a caption and scopes " + JSON.stringify(t));
    // GPU pages in layers: the answer and its grid open, the details folded
    const gp = await open(ctx, "gpu/geforce-gtx-1080-ti/");
    const layers = await gp.evaluate(() => [...document.querySelectorAll("main details")].map((d) => d.open));
    c.ok(layers.length >= 1 && layers.every((o) => !o), "GPU page: the details folded in <details> (" + layers.length + ")");
    // At 1280 px nothing is cut off: with every layer open, no scroll region
    // is narrower than what it holds (the page has the room).
    await gp.setViewportSize({ width: 1280, height: 900 });
    await gp.check("input[name=platpick][value=all]");
    const clipped = await gp.evaluate(() => {
      document.querySelectorAll("main details").forEach((d) => { d.open = true; });
      return [...document.querySelectorAll("main .scroll")].filter((r) => r.scrollWidth > r.clientWidth + 1)
        .map((r) => (r.querySelector("caption") || r).textContent.slice(0, 60) + " " + r.scrollWidth + ">" + r.clientWidth);
    });
    c.eq(JSON.stringify(clipped), "[]", "GPU page at 1280 px: no region cut off");
    c.ok(await gp.locator("a[href$='faq/']").count() >= 1, "GPU page: links the FAQ");
    const faqLink = await gp.locator("main a[href*='faq/#']").first().getAttribute("href");
    const anchor = faqLink && faqLink.split("#")[1];
    const faq = await open(ctx, "faq/");
    c.ok(anchor && (await faq.locator("#" + anchor).count()) === 1, "GPU page: the FAQ link lands on its question (" + anchor + ")");
    await faq.close();
    settle(gp, "gpu page layers");
    await page.close();
    await gp.close();
  }

  // ---- dark mode -----------------------------------------------------------------------
  lap("dark mode");
  {
    const page = await open(ctx, "");
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    c.ok(light !== dark, `dark mode: the background changes (${light} -> ${dark})`);
    await page.close();
  }

  // ---- axe-core on every kind of page, light and dark ------------------------------------
  lap("axe");
  const pages = ["", "matrix/", "gpu/geforce-gtx-1080-ti/", "gpu/jetson-agx-orin/", "gpu/amd-radeon-rx-7900-xtx/", "release/torch/2.9.0/",
    "release/torchvision/0.24.0/", "wheel/dbb3ef635357a2eb037f857bf739f5307f725ec56d2808c2aee868a0b38cb2c7.html",
    "changes/", "methodology/", "faq/", "api/"];
  // Each page in its own tab, a few at a time: axe waits on the renderer,
  // so tabs side by side keep both cores busy (the same checks, in about
  // half the time).
  async function axe(actx, scheme, rel) {
    const page = await open(actx, rel);
    await page.addScriptTag({ path: AXE });
    // Dark mode changes colours only: in the dark, the rules about colour
    // (every rule runs in the light).
    const only = scheme === "dark" ? { runOnly: { type: "rule", values: ["color-contrast", "link-in-text-block"] } } : {};
    const result = await page.evaluate((o) => window.axe.run(document, { resultTypes: ["violations"], ...o }), only);
    const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    c.ok(bad.length === 0, `axe (${scheme}) ${rel || "index.html"}: ` +
      bad.map((v) => `${v.id} (${v.impact}): ${v.help} e.g. ${v.nodes[0] && v.nodes[0].html.slice(0, 120)}`).join("; "));
    const minor = result.violations.filter((v) => !bad.includes(v)).map((v) => v.id);
    if (minor.length) console.log(`axe (${scheme}) ${rel || "index.html"}: minor: ${minor.join(", ")}`);
    settle(page, rel);
    await page.close();
  }
  const contexts = {};
  const jobs = [];
  for (const scheme of ["light", "dark"]) {
    contexts[scheme] = await browser.newContext({ viewport: { width: 1100, height: 900 }, colorScheme: scheme });
    for (const rel of pages) jobs.push([scheme, rel]);
  }
  let next = 0;
  const tabs = Array.from({ length: 3 }, async () => {
    while (next < jobs.length) {
      const [scheme, rel] = jobs[next++];
      await axe(contexts[scheme], scheme, rel);
    }
  });
  await Promise.all(tabs);
  c.eq(next, jobs.length, "axe: every page in both schemes");
  for (const actx of Object.values(contexts)) await actx.close();
  await ctx.close();
  lap("");
} finally {
  await browser.close();
  await srv.close();
}
c.done();
