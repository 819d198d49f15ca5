// Opens a pttrace report in Debian's chromium (headless, file://) and checks what a
// reader relies on: every page loads without console errors or page errors, no request
// leaves file://, every local link resolves (and #L anchors exist), the stack trie folds,
// a table sorts, a payload page's raw download is its payload, untrusted text never runs. Screenshots go to SHOTS.
//
//   node check_report.mjs REPORT_DIR SHOTS_DIR [--xss NEEDLE]
// Prints "N passed, M failed" and exits 1 on any failure.
import { chromium } from 'playwright-core';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const [dir, shots, flag, needle] = process.argv.slice(2);
const root = path.resolve(dir);
let passed = 0, failed = 0;
const ok = (cond, what) => { if (cond) passed++; else { failed++; console.log('FAIL: ' + what); } };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
const errors = [], outside = [], dialogs = [];
page.on('console', m => { if (m.type() === 'error') errors.push(page.url() + ': ' + m.text()); });
page.on('pageerror', e => errors.push(page.url() + ': ' + e.message));
page.on('dialog', d => { dialogs.push(d.message()); d.dismiss(); });
page.on('request', r => { if (!/^(file:|data:|blob:)/.test(r.url())) outside.push(r.url()); });

// Visit every page reachable from index.html.
const seen = new Set(), queue = [path.join(root, 'index.html')];
let visited = 0;
while (queue.length) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  ok(fs.existsSync(file), 'page exists: ' + path.relative(root, file));
  if (!fs.existsSync(file) || !file.endsWith('.html')) continue;
  await page.goto(pathToFileURL(file).href);
  visited++;
  const links = await page.$$eval('a[href]', as => as.map(a => a.href));
  for (const href of links) {
    if (!href.startsWith('file://')) { ok(false, `link leaves the report: ${href} on ${file}`); continue; }
    const u = new URL(href);
    const target = fileURLToPath(u.href.split('#')[0]);
    ok(target.startsWith(root), `link stays inside the report: ${href}`);
    ok(fs.existsSync(target), `link resolves: ${path.relative(root, target)} (on ${path.relative(root, file)})`);
    if (u.hash && target.endsWith('.html') && fs.existsSync(target)) {
      const id = decodeURIComponent(u.hash.slice(1));
      ok(fs.readFileSync(target, 'utf8').includes(`id="${id}"`), `anchor ${u.hash} in ${path.relative(root, target)}`);
    }
    if (target.endsWith('.html') && !seen.has(target)) queue.push(target);
  }
}
ok(visited > 0, 'pages visited');

// The trie folds: a click on a summary closes its <details>.
await page.goto(pathToFileURL(path.join(root, 'index.html')).href);
const hasTrie = await page.$('ul.trie details');
if (hasTrie) {
  const before = await page.$eval('ul.trie details', d => d.open);
  await page.click('ul.trie details > summary');
  const after = await page.$eval('ul.trie details', d => d.open);
  ok(before === true && after === false, 'the stack trie folds');
}
await page.setViewportSize({ width: 1280, height: 1000 });
await page.screenshot({ path: path.join(shots, 'index.png'), fullPage: false });

// A table sorts: click the first numeric heading of compiles.html twice, check the order.
await page.goto(pathToFileURL(path.join(root, 'compiles.html')).href);
const rows = await page.$$eval('#compiles tbody tr', r => r.length);
if (rows > 1) {
  const col = await page.$$eval('#compiles thead th', ths => ths.findIndex(t => t.textContent === 'ops'));
  const read = () => page.$$eval(`#compiles tbody tr td:nth-child(${col + 1})`,
    tds => tds.map(t => { const n = parseFloat(t.textContent); return isNaN(n) ? Infinity : n; /* "-" (unknown) sorts after every number */ }));
  await page.click(`#compiles thead th:nth-child(${col + 1})`);
  const asc = await read();
  ok(asc.every((v, i) => i === 0 || asc[i - 1] <= v), 'compiles sort ascending by ops');
  await page.click(`#compiles thead th:nth-child(${col + 1})`);
  const desc = await read();
  ok(desc.every((v, i) => i === 0 || desc[i - 1] >= v), 'compiles sort descending by ops');
  await page.fill('input[data-filter="compiles"]', 'zzz-no-such-frame');
  const shown = await page.$$eval('#compiles tbody tr', r => r.filter(x => x.style.display !== 'none').length);
  ok(shown === 0, 'the filter hides rows that do not match');
}
await page.screenshot({ path: path.join(shots, 'compiles.png') });

// A payload page that holds its payload as it is makes the "raw bytes" download itself
// (report.js): the bytes downloaded are the md5 the page is named after.
{
  const pages = fs.readdirSync(path.join(root, 'p')).filter(f => f.endsWith('.html')).sort().slice(0, 25);
  let tried = 0;
  for (const p of pages) {
    await page.goto(pathToFileURL(path.join(root, 'p', p)).href);
    if (!(await page.$('a.raw'))) continue;
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('a.raw')]);
    const md5 = crypto.createHash('md5').update(fs.readFileSync(await dl.path())).digest('hex');
    ok(md5 === p.slice(0, -5), `raw bytes downloaded from ${p}: md5 ${md5}`);
    ok(dl.suggestedFilename() === p.slice(0, -5) + '.txt', `the download is named ${p.slice(0, -5)}.txt`);
    tried++;
  }
  if (pages.length) ok(tried > 0, 'some payload page makes its raw download');
}

if (flag === '--xss') {
  // The hostile payload page must show the needle as text and run nothing.
  const payloads = fs.readdirSync(path.join(root, 'p')).filter(f => f.endsWith('.html'));
  let found = false;
  for (const p of payloads) {
    await page.goto(pathToFileURL(path.join(root, 'p', p)).href);
    const text = await page.textContent('body');
    if (text.includes(needle)) found = true;
  }
  ok(found, 'the hostile payload is shown as text');
  ok(await page.evaluate(() => window.__pwned === undefined), 'no script from a payload ran');
  ok(dialogs.length === 0, 'no dialog opened by a payload: ' + dialogs.join(', '));
}

ok(errors.length === 0, 'no console or page errors:\n  ' + errors.join('\n  '));
ok(outside.length === 0, 'no request left file://:\n  ' + outside.join('\n  '));
await browser.close();
console.log(`report_browser: ${visited} pages`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
