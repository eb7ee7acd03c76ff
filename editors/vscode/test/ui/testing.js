// testing.js - the fuzzbox Test Explorer, coverage and "debug this input" in a
// real VS Code (code-server), driven like a person would through Debian's
// chromium and playwright-core, a screenshot after each step:
//  1. the Testing view lists every fuzz test with its corpus files as
//     children; a malformed corpus file is an item with an error; a file
//     written or deleted on disk appears or disappears;
//  2. the Fuzz profile on FuzzLength: the live numbers in the item's
//     description and the run's output, the corpus's coverage while it
//     fuzzes; the stop button ends it, no fuzzing process is left;
//  2b. the generated corpus on request: "Show Generated Corpus" on
//     FuzzLength lists what its fuzzing kept (in the cache dir) as a
//     "generated corpus" child; a malformed file there is an item with an
//     error, deleting it removes it; Run on a generated entry says go test
//     cannot replay it; "Copy to testdata" makes it a testdata entry, which
//     runs and passes; "Hide Generated Corpus" takes the child away;
//  3. the Fuzz profile on FuzzParse: the failure as a test message at the
//     crash line in parse.go (peek), with the input's values and the stack;
//     the reproducer appears as a new, failed child;
//  4. the coverage of that run in parse.go's gutter: the planted branch
//     never reached, the rest reached;
//  5. Debug on the reproducer: Delve (dlv dap) stops at the panic; the
//     panicking frame's variables show the failing input;
//  6. the same from the reproducer's "debug" code lens, clicked.
// env: CS_URL, WS (a fresh copy of lsp/testdata/planted), SHOTS, PW_CORE,
//      GENERATED (FuzzLength's generated corpus directory)
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const { open } = require('./browser');

const CS_URL = process.env.CS_URL || 'http://127.0.0.1:8080';
const WS = process.env.WS;
const SHOTS = process.env.SHOTS;
const GENERATED = process.env.GENERATED;

(async () => {
  const { page, log, shot, close } = await open(SHOTS, 'testing-');
  const squash = (s) => s.replace(/\s+/g, ' ').trim();
  const tree = () => page.locator('.test-explorer .monaco-list-row');
  // row is the tree row of an item; its label is followed by its description, if any
  const row = (label) => tree().filter({
    has: page.locator(`xpath=.//div[contains(concat(" ", @class, " "), " label ")][normalize-space(text()[1])="${label}"]`),
  }).first();
  const rowsText = async () => (await tree().allInnerTexts()).map(squash);
  const command = async (title) => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>' + title);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
  };
  const openFile = async (name) => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill(name);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
    await page.locator('.tabs-container .tab', { hasText: name }).first().waitFor({ timeout: 30000 });
  };
  // expand opens an item's children
  const expand = async (label) => {
    const tw = row(label).locator('.monaco-tl-twistie.collapsed');
    if (await tw.count()) await tw.click();
  };
  // runWith runs an item with a named run profile: context menu, "Execute Using Profile...", the profile
  const runWith = async (label, profileName) => {
    await row(label).click({ button: 'right' });
    await page.locator('.context-view .action-label', { hasText: 'Execute Using Profile...' }).first().hover();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: new RegExp('^\\s*' + profileName + '\\b') }).first().click();
  };
  // menu runs an item's context menu entry
  const menu = async (label, entry) => {
    await row(label).click({ button: 'right' });
    await page.locator('.context-view .action-label', { hasText: new RegExp('^' + entry + '$') }).first().hover();
    await page.keyboard.press('Enter'); // as runWith: a click on a context menu entry does not always take
  };
  // debugStoppedAtPanic: a debug session stopped at the panic; walk the call
  // stack down to the Parse frame and see the failing input s = "FUZZ"; stop it,
  // no dlv left.
  const debugStoppedAtPanic = async (name) => {
    const paused = page.locator('.debug-call-stack .monaco-list-row', { hasText: /\bpanic\b/i }).first();
    await paused.waitFor({ timeout: 240000 }); // dlv builds the test binary first
    log(`call stack: ${JSON.stringify((await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts()).map(squash))}`);
    // room for the call stack: fold the Watch and Breakpoints sections, then walk down the panicking goroutine to Parse
    for (const title of ['Watch', 'Breakpoints']) {
      const h = page.locator('.pane-header[aria-expanded="true"]', { hasText: new RegExp('^\\s*' + title, 'i') }).first();
      if (await h.count()) await h.click();
    }
    const frame = page.locator('.debug-call-stack .monaco-list-row', { hasText: /planted\.Parse|^\s*Parse/ }).first();
    await page.locator('.debug-call-stack .monaco-list-row.selected, .debug-call-stack .monaco-list-row.focused').first().click();
    for (let i = 0; i < 30 && !(await frame.isVisible()); i++) await page.keyboard.press('ArrowDown');
    log(`call stack: ${JSON.stringify((await page.locator('.debug-call-stack .monaco-list-row').allInnerTexts()).map(squash))}`);
    await frame.click();
    const value = page.locator('.debug-variables .monaco-list-row', { hasText: /s\s*=?\s*"FUZZ"/ }).first();
    await value.waitFor({ timeout: 60000 });
    log(`variables: ${JSON.stringify((await page.locator('.debug-variables .monaco-list-row').allInnerTexts()).map(squash))}`);
    await page.waitForTimeout(1000);
    await shot(name);
    await page.keyboard.press('Shift+F5'); // stop debugging
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 60000 });
    const dlvLeft = () => cp.execSync(`pgrep -af -- '/dlv dap' || true`).toString().split('\n').filter((l) => l && !l.includes('pgrep'));
    for (let i = 0; i < 60 && dlvLeft().length; i++) await page.waitForTimeout(500); // dlv exits after its session
    if (dlvLeft().length) throw new Error(`dlv dap left after the debug session: ${dlvLeft()}`);
    log('debug session stopped, no dlv dap left');
  };
  const fuzzProcs = () => {
    try {
      return cp.execSync(`pgrep -af -- '-test[.]fuzz=[^ ]*FuzzLength' || true`).toString().split('\n')
        .filter((l) => l && !l.includes('pgrep'));
    } catch { return []; }
  };
  let ok = false;
  try {
    await page.goto(`${CS_URL}/?folder=${encodeURIComponent(WS)}`, { waitUntil: 'commit', timeout: 180000 });
    await page.waitForSelector('.monaco-workbench', { timeout: 240000 });
    log('workbench loaded');
    // a malformed corpus file: listed with its error, never a crash
    fs.writeFileSync(path.join(WS, 'testdata/fuzz/FuzzParse/bad'), 'go test fuzz v1\nstring("unterminated)\n');

    // 1. the Testing view: items and children
    await openFile('parse_test.go');
    await page.locator('.activitybar .action-item a[aria-label^="Testing"]').first().click();
    await row('FuzzParse').waitFor({ timeout: 120000 });
    await expand('FuzzParse');
    await row('ok1').waitFor({ timeout: 30000 });
    await row('bad').waitFor({ timeout: 30000 });
    const rows = await rowsText();
    log(`tree: ${JSON.stringify(rows)}`);
    const want = ['FuzzLength', 'FuzzModify', 'FuzzParse', 'bad', 'ok1'];
    if (JSON.stringify(rows.filter((r) => !r.startsWith('malformed'))) !== JSON.stringify(want)) throw new Error(`tree ${rows}, want ${want}`);
    if (!rows.some((r) => r.startsWith('malformed corpus file: line 2'))) throw new Error('no error shown on the malformed corpus file');
    await shot('items');

    fs.writeFileSync(path.join(WS, 'testdata/fuzz/FuzzParse/added'), 'go test fuzz v1\nstring("new")\n');
    await row('added').waitFor({ timeout: 60000 });
    log(`after writing testdata/fuzz/FuzzParse/added: ${JSON.stringify(await rowsText())}`);
    fs.rmSync(path.join(WS, 'testdata/fuzz/FuzzParse/added'));
    await row('added').waitFor({ state: 'detached', timeout: 60000 });
    log(`after deleting it: ${JSON.stringify(await rowsText())}`);
    fs.rmSync(path.join(WS, 'testdata/fuzz/FuzzParse/bad')); // go test refuses the package while it is there
    await row('bad').waitFor({ state: 'detached', timeout: 60000 });

    // 2. Fuzz FuzzLength (no bug): live numbers in the item's description, the stop button ends it
    await runWith('FuzzLength', 'Fuzz');
    const live = row('FuzzLength').filter({ hasText: /execs\/s, corpus \d+/ });
    await live.waitFor({ timeout: 240000 }); // the first instrumented build can take minutes
    log(`live: ${squash(await row('FuzzLength').innerText())}`);
    await command('Test: Show Output');
    await page.locator('.xterm-rows', { hasText: /FuzzLength: \d+ execs/ }).first().waitFor({ timeout: 30000 });
    // the coverage of the corpus arrives while it fuzzes: "View Test Coverage" in the run's results, then the Test Coverage view
    const viewCoverage = page.locator('.monaco-list-row', { hasText: /^\s*View Test Coverage\s*$/ }).first();
    await viewCoverage.waitFor({ timeout: 240000 }); // a coverage build beside two fuzzing workers on a small machine
    await viewCoverage.click();
    await page.locator('.pane-body', { hasText: /parse\.go\s*\d+\.\d+%/ }).first().waitFor({ timeout: 60000 });
    if (!(await row('FuzzLength').locator('.codicon-testing-loading-icon, .codicon-loading').count())) throw new Error('FuzzLength stopped before its coverage showed');
    log(`coverage while fuzzing: ${squash(await page.locator('.pane-body', { hasText: /parse\.go\s*\d+\.\d+%/ }).first().innerText())}`);
    await page.waitForTimeout(1500);
    await shot('fuzz-live');
    await page.locator('.pane-header', { hasText: /test explorer/i }).first().hover(); // its buttons show on hover
    await page.locator('a.action-label[aria-label^="Cancel Test Run"]:visible').first().click(); // the stop button of the Testing view

    await row('FuzzLength').locator('.codicon-testing-skipped-icon').waitFor({ timeout: 60000 });
    await row('FuzzLength').filter({ hasText: /stopped after \d+ executions/ }).waitFor({ timeout: 30000 });
    const left = fuzzProcs();
    log(`after stop: ${squash(await row('FuzzLength').innerText())}; fuzzing processes left: ${JSON.stringify(left)}`);
    if (left.length) throw new Error(`processes left after stop: ${left}`);
    await shot('fuzz-stopped');

    // 2b. the generated corpus on request: what fuzzing FuzzLength kept, outside the workspace
    const generated = fs.readdirSync(GENERATED).sort();
    log(`generated corpus of FuzzLength: ${generated.length} files in ${GENERATED}`);
    if (!generated.length) throw new Error(`no generated corpus in ${GENERATED}`);
    if (await row('generated corpus').count()) throw new Error('the generated corpus is listed before it was asked for');
    await menu('FuzzLength', 'Show Generated Corpus');
    for (let i = 0; i < 120 && !(await row('generated corpus').isVisible()); i++) { // FuzzLength gets children: open it
      await expand('FuzzLength');
      await page.waitForTimeout(500);
    }
    await row('generated corpus').waitFor({ timeout: 1000 });
    await expand('generated corpus');
    await row(generated[0]).waitFor({ timeout: 30000 });
    log(`generated corpus row: ${squash(await row('generated corpus').innerText())}`);
    // a file fuzzing writes appears, a malformed one with its error ("0-" sorts first: it stays in view)
    fs.writeFileSync(path.join(GENERATED, '0-malformed'), 'go test fuzz v1\nint(\n');
    await row('0-malformed').waitFor({ timeout: 60000 });
    const genRows = await rowsText();
    log(`tree: ${JSON.stringify(genRows.slice(0, 12))}`);
    if (!genRows.some((r) => r.startsWith('malformed corpus file'))) throw new Error('no error shown on the malformed generated file');
    await shot('generated-corpus');
    fs.rmSync(path.join(GENERATED, '0-malformed'));
    await row('0-malformed').waitFor({ state: 'detached', timeout: 60000 });
    // Run on a generated entry: go test cannot replay it, the item says so
    const entry = generated[0];
    await menu(entry, 'Run Test');
    await row(entry).locator('.codicon-testing-error-icon').waitFor({ timeout: 60000 });
    await page.keyboard.press('Escape');
    // Copy to testdata: it becomes a child of FuzzLength (a file of testdata/fuzz/FuzzLength, listed before the generated corpus), and runs
    await menu(entry, 'Copy to testdata');
    const copy = path.join(WS, 'testdata/fuzz/FuzzLength', entry);
    const copyRow = () => tree().filter({ has: page.locator(`xpath=.//div[contains(concat(" ", @class, " "), " label ")][normalize-space(text()[1])="${entry}"]`) });
    for (let i = 0; i < 120 && (await copyRow().count()) < 2; i++) await page.waitForTimeout(500);
    if (!fs.existsSync(copy) || (await copyRow().count()) < 2) throw new Error(`${entry} not copied to testdata: ${JSON.stringify(await rowsText())}`);
    if (fs.readFileSync(copy, 'utf8') !== fs.readFileSync(path.join(GENERATED, entry), 'utf8')) throw new Error('the copy differs');
    await copyRow().first().click({ button: 'right' });
    await page.locator('.context-view .action-label', { hasText: /^Run Test$/ }).first().hover();
    await page.keyboard.press('Enter');
    await copyRow().first().locator('.codicon-testing-passed-icon').waitFor({ timeout: 180000 });
    log(`tree after copying ${entry} to testdata and running it: ${JSON.stringify((await rowsText()).slice(0, 8))}`);
    await shot('generated-copied');
    await menu('FuzzLength', 'Hide Generated Corpus');
    await row('generated corpus').waitFor({ state: 'detached', timeout: 60000 });

    // 3. Fuzz FuzzParse: the failure at the crash line (parse.go:9) with the input and the stack; the reproducer child
    await openFile('parse.go');
    await runWith('FuzzParse', 'Fuzz');
    const peek = page.locator('.peekview-widget', { hasText: /index out of range/ }).first();
    await peek.waitFor({ timeout: 300000 });
    const reproducers = () => fs.readdirSync(path.join(WS, 'testdata/fuzz/FuzzParse')).filter((f) => f !== 'ok1');
    const [repro] = reproducers();
    if (!repro) throw new Error('no reproducer written');
    log(`reproducer: testdata/fuzz/FuzzParse/${repro}`);
    await row(repro).locator('.codicon-testing-failed-icon').waitFor({ timeout: 60000 });
    const peekText = squash(await peek.innerText());
    log(`peek: ${peekText.slice(0, 300)}`);
    if (!/input: "FUZZ/.test(peekText)) throw new Error('the failure message does not show the input');
    // the peek sits under the crash line: line 9 of parse.go is the last line above it
    const peekTop = (await peek.boundingBox()).y;
    const lineAbove = await page.locator('.editor-instance .view-line').evaluateAll((ls, y) => {
      const above = ls.filter((l) => l.getBoundingClientRect().bottom <= y + 2).sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top);
      return above.length ? above[0].innerText : '';
    }, peekTop);
    log(`line above the peek: ${JSON.stringify(lineAbove)}`);
    if (!squash(lineAbove).includes('return table[len(s)]')) throw new Error(`the failure is not at the crash line: ${lineAbove}`);
    log(`tree: ${JSON.stringify(await rowsText())}`);
    await shot('failure-at-line');

    // 4. the coverage of that run in the gutter of parse.go: the planted branch never reached (the crash is not counted)
    await peek.locator('.codicon-close').first().click();
    await page.locator('.pane-body', { hasText: /parse\.go\s*50\.00%/ }).first().waitFor({ timeout: 120000 }); // the Test Coverage view
    const lineMarks = () => page.locator('.margin-view-overlays .line-numbers').evaluateAll((ds) =>
      Object.fromEntries(ds.map((d) => [d.innerText.trim(), (d.className.match(/coverage-deco-(hit|miss)/g) || []).join(' ')])));
    await page.waitForFunction(() => document.querySelectorAll('.margin-view-overlays .coverage-deco-miss').length > 0, null, { timeout: 60000 });
    const marks = await lineMarks();
    log(`coverage gutter of parse.go (line: marks): ${JSON.stringify(marks)}`);
    for (const [line, want] of [['6', 'coverage-deco-hit'], ['8', 'coverage-deco-miss'], ['9', 'coverage-deco-miss'], ['11', 'coverage-deco-hit']]) {
      if (marks[line] !== want) throw new Error(`parse.go line ${line}: gutter ${marks[line]}, want ${want}`);
    }
    await shot('coverage-gutter');

    // 5. Debug the reproducer from the Testing view: dlv dap stops at the panic; the panicking frame (Parse) shows the input
    await page.locator('.activitybar .action-item a[aria-label^="Testing"]').first().click().catch(() => {});
    await row(repro).click({ button: 'right' });
    await page.locator('.context-view .action-label', { hasText: /^Debug Test$/ }).first().hover();
    await page.keyboard.press('Enter');
    await debugStoppedAtPanic('debug-stopped-at-panic');

    // 6. the same from the reproducer's "debug" code lens, clicked as a person would
    await openFile(repro);
    const debugLens = page.locator('.codelens-decoration a').filter({ hasText: /^debug$/ }).first();
    await debugLens.waitFor({ timeout: 60000 });
    log(`lenses of ${repro}: ${JSON.stringify((await page.locator('.codelens-decoration').allInnerTexts()).map(squash))}`);
    await debugLens.click();
    await debugStoppedAtPanic('debug-lens-stopped-at-panic');
    ok = true;
  } catch (e) {
    console.error('FAIL:', e.message);
    await page.screenshot({ path: path.join(SHOTS, 'testing-failure-state.png') }).catch(() => {});
  } finally {
    await close();
  }
  console.log(ok ? 'code-server Test Explorer test: PASS' : 'code-server Test Explorer test: FAIL');
  process.exit(ok ? 0 : 1);
})();
