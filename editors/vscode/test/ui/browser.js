// browser.js - what the code-server UI scripts (drive.js, testing.js) share:
// headless Chromium with a fresh profile, a log timed from the start, and
// numbered screenshots.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(process.env.PW_CORE || 'playwright-core');

// open launches Chromium; shot(name) saves dir/<prefix><n>-<name>.png, and
// close() closes the browser and removes its profile.
async function open(dir, prefix) {
  fs.mkdirSync(dir, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzzbox-chromium-'));
  const t0 = Date.now();
  const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  let step = 0;
  const shot = async (name) => {
    step++;
    const file = path.join(dir, `${prefix}${step}-${name}.png`);
    await page.screenshot({ path: file });
    log(`screenshot ${file}`);
  };
  const close = async () => {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { page, log, shot, close };
}

module.exports = { open };
