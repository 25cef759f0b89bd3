import { chromium } from 'playwright-core';
const b = await chromium.launch({executablePath:'/usr/bin/chromium',args:['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync']});
const qs = process.argv.slice(2);
for (const w of [390,1280]) {
  for (const q of qs) {
  const p = await b.newPage({viewport:{width:w,height:1000}});
  p.on('pageerror', e => console.log('ERR', e));
  await p.goto('file:///tmp/truth/site/index.html');
  await p.fill('#q', q);
  await p.waitForTimeout(500);
  const f = '/tmp/hq-' + w + '-' + q.replace(/[^a-z0-9]/gi,'_') + '.png';
  await p.screenshot({path:f});
  console.log(f, await p.evaluate(() => document.documentElement.scrollWidth));
  await p.close();
  }
}
await b.close();
