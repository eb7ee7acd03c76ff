// run.js - runs the extension's integration suite (out/test/integration/suite.js)
// in code-server's real Node extension host, driven by Debian's chromium
// through playwright-core. The workbench URL carries payload=
// [["extensionDevelopmentPath",URI],["extensionTestsPath",URI]] (VS Code web's
// development parameters); the workbench reports the result by calling
// window.codeAutomationExit(code). Exit code = the suite's.
// env: CS_URL, WS (workspace), EXT_DEV (this extension's folder), EXT_TESTS (the suite
// module; default out/test/integration/suite.js), PW_CORE, TIMEOUT_S
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(process.env.PW_CORE || 'playwright-core');

const EXT_DEV = process.env.EXT_DEV || path.resolve(__dirname, '..', '..');
const TESTS = process.env.EXT_TESTS || path.join(EXT_DEV, 'out', 'test', 'integration', 'suite.js');
const TIMEOUT_S = Number(process.env.TIMEOUT_S || 600);

(async () => {
  const remote = (p) => `vscode-remote://remote${p}`; // code-server's remote authority is "remote"
  const payload = JSON.stringify([['extensionDevelopmentPath', remote(EXT_DEV)], ['extensionTestsPath', remote(TESTS)]]);
  const url = `${process.env.CS_URL}/?folder=${encodeURIComponent(process.env.WS)}&payload=${encodeURIComponent(payload)}`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzzbox-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  let resolveExit;
  const exited = new Promise((r) => { resolveExit = r; });
  await page.exposeFunction('codeAutomationLog', () => {}); // the console lines below carry the same text
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
  page.on('console', (m) => {
    const t = m.text();
    if (/\[suite\]|passing|failing|✔|✓|AssertionError|Error:|^\s+\d+\) /.test(t)) console.log('[extension host]', t.replace(/%c/g, '').slice(0, 600));
  });
  await page.goto(url, { waitUntil: 'commit', timeout: 180000 });
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), TIMEOUT_S * 1000))]);
  console.log('extension integration tests exit code:', code);
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
  process.exit(code === 0 ? 0 : 1);
})();
