// drive.js - the fuzzbox extension in a real VS Code (code-server), driven like
// a person would through Debian's chromium and playwright-core: fuzz a test
// without a bug and see the lens's live state, stop it from the lens; then
// open a fuzz test with a planted bug, see the lenses, click "fuzz", see the
// progress, see the failure, its diagnostic and the reproducer appear, click
// "open reproducer", click "rerun this input"; then, in a module with a typed
// fuzz test (package typed), a corpus entry's values lens and hover show its
// typed arguments. A screenshot is saved after each step.
//
// env: CS_URL (code-server), WS (workspace folder), TYPED_WS (a copy of
//      lsp/testdata/typedmod with its go.mod), SHOTS (screenshot dir),
//      PW_CORE (path of playwright-core)
const fs = require('fs');
const path = require('path');
const { open } = require('./browser');

const CS_URL = process.env.CS_URL || 'http://127.0.0.1:8080';
const WS = process.env.WS;
const SHOTS = process.env.SHOTS;
const TYPED_WS = process.env.TYPED_WS;

(async () => {
  const { page, log, shot, close } = await open(SHOTS, '');
  // lens(string) is the lens with exactly that title, lens(RegExp) one whose title matches
  const exact = (t) => new RegExp('^' + t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$');
  const lens = (text) => page.locator('.codelens-decoration a').filter({ hasText: typeof text === 'string' ? exact(text) : text }).first();
  const progressItem = (re) => page.locator('.statusbar-item', { hasText: re }).first();
  const lensTexts = async () => (await page.locator('.codelens-decoration').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
  const toast = (text) => page.locator('.notifications-toasts .notification-list-item', { hasText: text }).first();
  const openFile = async (name) => {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
    await row.waitFor({ timeout: 60000 });
    await row.click();
    await page.locator('.tabs-container .tab', { hasText: name }).first().waitFor({ timeout: 30000 });
  };
  let ok = false;
  try {
    await page.goto(`${CS_URL}/?folder=${encodeURIComponent(WS)}`, { waitUntil: 'commit', timeout: 180000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 240000 });
    log('workbench loaded');

    // 0. a fuzz test without a bug: the lens shows the run's live state, and "stop" stops it
    await openFile('nobug_test.go');
    await lens('fuzz').waitFor({ timeout: 120000 });
    await lens('fuzz').click();
    const live = lens(/execs\/s, corpus \d+, new \d+/);
    await live.waitFor({ timeout: 240000 }); // the first build of the instrumented standard library can take minutes
    const liveProgress = progressItem(/fuzzbox: fuzzing FuzzLength: .*execs/);
    await liveProgress.waitFor({ timeout: 30000 });
    log(`live lens: ${JSON.stringify(await lensTexts())}; progress: ${(await liveProgress.innerText()).replace(/\s+/g, ' ')}`);
    await shot('live-state');
    await live.click();
    const stopped = toast('FuzzLength: stopped after');
    await stopped.waitFor({ timeout: 60000 });
    await lens('fuzz').waitFor({ timeout: 30000 });
    log(`notification: ${(await stopped.innerText()).replace(/\s+/g, ' ')}; lenses: ${JSON.stringify(await lensTexts())}`);
    await shot('stopped');
    await page.locator('.notifications-toasts .codicon-notifications-clear-all, .notifications-toasts .clear-notification-action').first().click({ timeout: 2000 }).catch(() => {});
    await page.keyboard.press('Escape');

    // 1. the fuzz test with the planted bug, and its lenses
    await openFile('parse_test.go');
    await lens('run seeds').waitFor({ timeout: 120000 });
    log(`lenses: ${JSON.stringify(await lensTexts())}`);
    await shot('lenses');

    // 2. click "fuzz": the lens becomes "stop" with the live state, the status bar shows progress
    await lens('fuzz').click();
    // the planted bug is found in a second or two: catch the running state if it is still there
    await lens(/^stop/).or(lens(/^open reproducer/)).waitFor({ timeout: 60000 });
    // The run may end between the check and the read (CI once saw the item go
    // while innerText waited 30 s for it): read it briefly, or go on without it.
    const progress = progressItem(/fuzzbox: fuzzing FuzzParse/);
    const progressText = (await progress.isVisible()) ? await progress.innerText({ timeout: 1000 }).catch(() => null) : null;
    if (progressText !== null) {
      log(`progress: ${progressText.replace(/\s+/g, ' ')}; lenses: ${JSON.stringify(await lensTexts())}`);
      await shot('fuzzing');
    }

    // 3. the failure: a notification, and the "open reproducer" lens
    const found = toast('FuzzParse: found panic failure');
    await found.waitFor({ timeout: 300000 });
    log(`notification: ${(await found.innerText()).replace(/\s+/g, ' ')}`);
    await lens(/^open reproducer/).waitFor({ timeout: 30000 });
    log(`lenses: ${JSON.stringify(await lensTexts())}`);
    const entries = fs.readdirSync(path.join(WS, 'testdata/fuzz/FuzzParse')).filter((f) => f !== 'ok1');
    if (entries.length !== 1) throw new Error(`want one reproducer in testdata/fuzz/FuzzParse, got ${entries}`);
    log(`reproducer on disk: testdata/fuzz/FuzzParse/${entries[0]}`);
    await page.waitForTimeout(1000);
    await shot('failure');

    // the failure as a diagnostic at the first frame in the module (parse.go's planted line), with the reproducer
    await openFile('parse.go');
    await page.keyboard.press('Control+Shift+M'); // the Problems panel
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'FuzzParse fails (panic)' }).first();
    await problem.waitFor({ timeout: 30000 });
    log(`problem: ${(await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ')}`);
    await shot('diagnostic');
    await openFile('parse_test.go');

    // 4. "open reproducer": the reproducer opens with its rerun lens and its values
    await lens(/^open reproducer/).click();
    await page.locator('.tabs-container .tab', { hasText: entries[0] }).first().waitFor({ timeout: 30000 });
    await lens('rerun this input').waitFor({ timeout: 60000 });
    log(`reproducer lenses: ${JSON.stringify(await lensTexts())}`);
    await shot('reproducer');

    // 5. "rerun this input": go test runs exactly that entry and fails the same way
    await lens('rerun this input').click();
    const rerun = toast(`FuzzParse/${entries[0]}: panic failure`);
    await rerun.waitFor({ timeout: 120000 });
    log(`notification: ${(await rerun.innerText()).replace(/\s+/g, ' ')}`);
    await page.waitForTimeout(1000);
    await shot('rerun');

    // 6. typed values: a typed fuzz test's entry is one []byte; its lens and hover show the arguments as Go
    await page.goto(`${CS_URL}/?folder=${encodeURIComponent(TYPED_WS)}`, { waitUntil: 'commit', timeout: 180000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 240000 });
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('testdata/fuzz/FuzzCheck/one');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'one' }).first().click();
    const typedLens = lens('values: Config{Name: "admin", Magic: 0x5eed}, int8(-2)');
    await typedLens.waitFor({ timeout: 240000 }); // the bytes first, the typed values once the test binary answered
    log(`typed entry lenses: ${JSON.stringify(await lensTexts())}`);
    await page.locator('.editor-instance .view-line', { hasText: '[]byte(' }).first().locator('span span').first().hover();
    const hover = page.locator('.monaco-hover', { hasText: 'typed arguments' }).first();
    await hover.waitFor({ timeout: 30000 });
    log(`hover: ${(await hover.innerText()).replace(/\s+/g, ' ')}`);
    if (!/Config\{Name: "admin", Magic: 0x5eed\}/.test(await hover.innerText())) throw new Error('the hover does not show the typed Config');
    await shot('typed-values');
    ok = true;
  } catch (e) {
    console.error('FAIL:', e.message);
    await page.screenshot({ path: path.join(SHOTS, 'failure-state.png') }).catch(() => {});
  } finally {
    await close();
  }
  console.log(ok ? 'code-server UI test: PASS' : 'code-server UI test: FAIL');
  process.exit(ok ? 0 : 1);
})();
