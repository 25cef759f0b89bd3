import { chromium } from 'playwright-core';
const b = await chromium.launch({executablePath:'/usr/bin/chromium',args:['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync']});
for (const w of [390,1280]) {
  const p = await b.newPage({viewport:{width:w,height:1100}});
  await p.goto('file:///tmp/truth/site/index.html');
  await p.fill('input[type=search], #q, input', 'RTX 5090');
  await p.waitForTimeout(300);
  await p.screenshot({path:'/tmp/home-q-'+w+'.png'});
  const d = await p.$('#driver'); if (d) { await d.fill('575.51'); await p.waitForTimeout(200); await p.screenshot({path:'/tmp/home-qd-'+w+'.png'}); }
}
await b.close();
