import { chromium } from 'playwright-core';
const b = await chromium.launch({executablePath:'/usr/bin/chromium',args:['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync']});
const pages = process.argv.slice(2);
for (const name of pages) {
  for (const w of [390,1280]) {
    const p = await b.newPage({viewport:{width:w,height:1600}});
    const path = name === 'home' ? '' : name + '/';
    await p.goto('file:///tmp/truth/site/' + path + 'index.html');
    const sw = await p.evaluate(() => document.documentElement.scrollWidth);
    const sh = await p.evaluate(() => document.documentElement.scrollHeight);
    console.log(name, w, 'scrollWidth', sw, 'height', sh);
    await p.screenshot({path:'/tmp/' + name.replace(/\//g,'_') + '-' + w + '.png'});
    await p.close();
  }
}
await b.close();
