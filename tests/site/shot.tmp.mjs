import { chromium } from "playwright-core";
import { serve, CHROMIUM, CHROMIUM_ARGS } from "../lib/nodetest.mjs";
const root = process.argv[2], pages = process.argv.slice(3);
const s = await serve(root);
const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
for (const w of [390, 1280]) {
  const ctx = await b.newContext({ viewport: { width: w, height: 900 }, userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36" });
  const page = await ctx.newPage();
  for (const p of pages) {
    await page.goto(s.url + p);
    await page.waitForTimeout(300);
    const name = p.replace(/[\/.]/g, "_") + "_" + w + ".png";
    await page.screenshot({ path: "/tmp/shots/" + name, fullPage: process.env.FULL === "1" });
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    console.log(name, "scrollWidth", sw);
  }
  await ctx.close();
}
await b.close(); await s.close();
