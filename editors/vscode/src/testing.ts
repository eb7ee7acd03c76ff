// testing.ts is the extension's Test Explorer: a TestController whose items
// are the workspace's fuzz tests with their corpus files as children (from
// the server's fuzzbox.tests, refreshed as files come and go), and run
// profiles Run (seeds and corpus files, as go test runs them), Fuzz, Run
// with Coverage and Debug. Runs are the server's (fuzzbox.runSeeds,
// fuzzbox.rerunEntry, fuzzbox.fuzz, stopped with fuzzbox.stop); their
// fuzzbox/run notifications become the test run's states, output and
// failure messages, and fuzzbox.coverage its coverage. On request (the context
// menu of a fuzz test) the server also lists the test's generated corpus, a
// "generated corpus" child refreshed on fuzzbox/testsChanged; its entries are
// not replayed by go test, and "Copy to testdata" (fuzzbox.copyGenerated)
// makes one a testdata entry.
import * as path from 'path';
import * as vscode from 'vscode';
import { commands, clientCommands, CoverageReport, EntryArgs, EntryInfo, FuzzArgs, GeneratedArgs, RunEvent, runStates, TestList } from './commands';
import { blockSpan, countStatements, failureText, generatedIds, generatedNotRunnable } from './convert';

type Kind = 'run' | 'fuzz' | 'coverage';

/** How often the coverage of a fuzzing test's corpus is refreshed, at most (ms). */
const coverageEvery = 30000;

/** A FileCoverage with its statements, for loadDetailedCoverage. */
class FuzzFileCoverage extends vscode.FileCoverage {
  constructor(uri: vscode.Uri, covered: number, total: number, readonly details: vscode.StatementCoverage[]) {
    super(uri, new vscode.TestCoverageCount(covered, total));
  }
}

export class FuzzTests implements vscode.Disposable {
  readonly ctrl = vscode.tests.createTestController('fuzzbox', 'Fuzz tests (fuzzbox)');
  private readonly disposables: vscode.Disposable[] = [this.ctrl];
  private readonly tests = new Map<string, FuzzArgs>(); // item id -> the test's file and name
  private readonly listeners = new Map<string, (e: RunEvent) => void>(); // test id -> the run waiting on its events
  private readonly reproducers = new Map<string, string>(); // test id -> the child id of its last reproducer
  private refreshTimer: NodeJS.Timeout | undefined;
  // fuzzing tests: their run, the time of the last coverage refresh, the refresh in flight
  private readonly live = new Map<string, { run: vscode.TestRun; args: FuzzArgs; last: number; pending?: Promise<void> }>();

  constructor() {
    const goExt = vscode.extensions.getExtension('golang.go') !== undefined;
    const c = this.ctrl;
    // Beside vscode-go, whose test items already run the seeds, fuzzbox's Run is not the default profile.
    const run = c.createRunProfile('Run', vscode.TestRunProfileKind.Run, (r, t) => this.run('run', r, t), !goExt);
    const fuzz = c.createRunProfile('Fuzz', vscode.TestRunProfileKind.Run, (r, t) => this.run('fuzz', r, t), false);
    const cover = c.createRunProfile('Run with Coverage', vscode.TestRunProfileKind.Coverage, (r, t) => this.run('coverage', r, t), true);
    c.createRunProfile('Debug', vscode.TestRunProfileKind.Debug, (r, t) => this.debug(r, t), true);
    for (const p of [run, fuzz, cover]) {
      p.loadDetailedCoverage = async (_run, fc) => (fc as FuzzFileCoverage).details ?? [];
    }
    c.resolveHandler = async (item) => { if (!item) await this.refresh(); };
    c.refreshHandler = async () => this.refresh();
    const w = vscode.workspace.createFileSystemWatcher('**/{*_test.go,testdata/fuzz/Fuzz*/*}');
    for (const ev of [w.onDidCreate, w.onDidDelete, w.onDidChange]) {
      this.disposables.push(ev(() => this.refreshSoon()));
    }
    this.disposables.push(w,
      vscode.commands.registerCommand('fuzzbox.testing.showGenerated', (i: vscode.TestItem) => this.showGenerated(i, true)),
      vscode.commands.registerCommand('fuzzbox.testing.hideGenerated', (i: vscode.TestItem) => this.showGenerated(i, false)),
      vscode.commands.registerCommand('fuzzbox.testing.copyToTestdata', (i: vscode.TestItem) => this.copyToTestdata(i)));
  }

  dispose() { for (const d of this.disposables) d.dispose(); }

  /** abortAll ends every run waiting on the server, which stopped: they end errored. */
  abortAll(why: string) {
    for (const [test, listener] of [...this.listeners]) {
      listener({ test, run: '', entry: '', state: runStates.errored, message: why, execs: 0, failure: null });
    }
  }

  /** onRunEvent receives the server's fuzzbox/run notifications. */
  onRunEvent(e: RunEvent) { this.listeners.get(e.test)?.(e); }

  refreshSoon() {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refresh().catch((e) => console.error('fuzzbox: refresh tests:', e)), 300);
  }

  /** refresh lists the fuzz tests of every workspace folder again. */
  async refresh(): Promise<void> {
    const items: vscode.TestItem[] = [];
    const shown: string[] = []; // tests whose generated corpus is listed, for the context menu
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const list = await vscode.commands.executeCommand<TestList>(commands.tests.name, { uri: folder.uri.toString() });
      for (const t of list?.tests ?? []) {
        const uri = vscode.Uri.parse(t.uri);
        const item = this.ctrl.createTestItem(t.id, t.name, uri);
        item.range = new vscode.Range(t.line - 1, 0, t.line - 1, 0);
        this.tests.set(t.id, { uri: t.uri, name: t.name });
        this.addEntries(item, t.entries, (name) => `${t.id}/${name}`);
        if (t.generated) {
          shown.push(t.id);
          const g = this.ctrl.createTestItem(generatedIds.group(t.id), 'generated corpus');
          g.description = `${t.generated.entries.length} entries, not replayed by go test`;
          g.error = t.generated.error ? new vscode.MarkdownString().appendText(t.generated.error) : undefined;
          this.addEntries(g, t.generated.entries, (name) => generatedIds.entry(t.id, name));
          item.children.add(g);
        }
        items.push(item);
      }
    }
    this.ctrl.items.replace(items);
    await vscode.commands.executeCommand('setContext', 'fuzzbox.generatedShown', shown);
  }

  /** addEntries adds corpus files as children of an item; a file that does not parse shows its error. */
  private addEntries(item: vscode.TestItem, entries: EntryInfo[], id: (name: string) => string) {
    for (const e of entries) {
      const child = this.ctrl.createTestItem(id(e.name), e.name, vscode.Uri.parse(e.uri));
      child.range = new vscode.Range(0, 0, 0, 0);
      child.error = e.error ? new vscode.MarkdownString().appendText(e.error) : undefined;
      item.children.add(child);
    }
  }

  /** showGenerated asks the server to list (or stop listing) a fuzz test's generated corpus. */
  private async showGenerated(item: vscode.TestItem, show: boolean) {
    const args = this.tests.get(item.id);
    if (!args) return;
    await vscode.commands.executeCommand(commands.showGenerated.name, { ...args, show, entry: '' } as GeneratedArgs);
    await this.refresh();
  }

  /** copyToTestdata copies a generated entry to testdata/fuzz/FuzzX, where it can be run and debugged. */
  private async copyToTestdata(item: vscode.TestItem) {
    const g = generatedIds.parse(item.id);
    const args = g && this.tests.get(g.testId);
    if (!g?.entry || !args) return;
    try {
      const e = await vscode.commands.executeCommand<EntryInfo>(commands.copyGenerated.name,
        { ...args, show: false, entry: g.entry } as GeneratedArgs);
      await this.refresh();
      vscode.window.showInformationMessage(`fuzzbox: copied ${g.entry} to ${vscode.workspace.asRelativePath(vscode.Uri.parse(e.uri))}`);
    } catch (e) {
      vscode.window.showErrorMessage(`fuzzbox: ${e}`);
    }
  }

  /** the items a request runs: its include list, or every test, minus its exclude list */
  private requested(req: vscode.TestRunRequest): vscode.TestItem[] {
    const all: vscode.TestItem[] = [];
    this.ctrl.items.forEach((i) => all.push(i));
    const skip = new Set((req.exclude ?? []).map((i) => i.id));
    return (req.include ?? all).filter((i) => !skip.has(i.id));
  }

  private async run(kind: Kind, req: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    if (this.ctrl.items.size === 0) await this.refresh();
    const run = this.ctrl.createTestRun(req);
    try {
      for (const item of this.requested(req)) {
        if (token.isCancellationRequested) { run.skipped(item); continue; }
        if (generatedIds.parse(item.id)) { run.errored(item, new vscode.TestMessage(generatedNotRunnable)); continue; }
        await this.runItem(kind, run, item, token);
      }
    } finally {
      run.end();
    }
  }

  /** runItem runs one item and, unless it was stopped, adds its test's coverage. */
  private async runItem(kind: Kind, run: vscode.TestRun, item: vscode.TestItem, token: vscode.CancellationToken) {
    const testItem = item.parent ?? item;
    const args = this.tests.get(testItem.id);
    if (!args) { run.errored(item, new vscode.TestMessage(`fuzzbox: unknown test ${item.id}`)); return; }
    run.started(item);
    if (kind === 'fuzz' && !item.parent) this.live.set(testItem.id, { run, args, last: 0 });
    const end = this.waitEnd(run, testItem, item);
    const stop = token.onCancellationRequested(() => vscode.commands.executeCommand(commands.stop.name, args));
    const t0 = Date.now();
    try {
      if (item.parent) {
        await vscode.commands.executeCommand(commands.rerunEntry.name, { uri: item.uri!.toString() } as EntryArgs);
      } else {
        await vscode.commands.executeCommand(kind === 'fuzz' ? commands.fuzz.name : commands.runSeeds.name, args);
      }
    } catch (e) {
      this.listeners.delete(testItem.id);
      run.errored(item, new vscode.TestMessage(String(e)));
      stop.dispose();
      return;
    }
    const e = await end;
    stop.dispose();
    await this.live.get(testItem.id)?.pending; // no coverage is added after the run ends
    this.live.delete(testItem.id);
    await this.report(run, item, testItem, e, Date.now() - t0);
    if (e.state !== runStates.stopped && e.state !== runStates.errored) {
      await this.addCoverage(run, args);
    }
  }

  /** waitEnd resolves with the end event of the test's run; meanwhile live numbers go to the output and the item. */
  private waitEnd(run: vscode.TestRun, testItem: vscode.TestItem, item: vscode.TestItem): Promise<RunEvent> {
    return new Promise((resolve) => {
      this.listeners.set(testItem.id, (e) => {
        if (e.state === runStates.started) return;
        if (e.state === runStates.progress) {
          item.description = e.message;
          run.appendOutput(`${testItem.label}: ${e.message}\r\n`, undefined, item);
          this.refreshCoverage(testItem.id);
          return;
        }
        this.listeners.delete(testItem.id);
        resolve(e);
      });
    });
  }

  private async report(run: vscode.TestRun, item: vscode.TestItem, testItem: vscode.TestItem, e: RunEvent, ms: number) {
    run.appendOutput(`${e.message}\r\n`, undefined, item);
    item.description = e.run === 'fuzz' ? e.message.replace(`${testItem.label}: `, '') : undefined;
    switch (e.state) {
      case runStates.passed: run.passed(item, ms); return;
      case runStates.stopped: run.skipped(item); return;
      case runStates.errored: run.errored(item, new vscode.TestMessage(e.message)); return;
    }
    const f = e.failure!;
    const msg = new vscode.TestMessage(failureText(f));
    if (f.uri) msg.location = new vscode.Location(vscode.Uri.parse(f.uri), new vscode.Position(f.line - 1, 0));
    msg.stackTrace = f.frames.map((fr) =>
      new vscode.TestMessageStackFrame(fr.func, vscode.Uri.parse(fr.uri), new vscode.Position(fr.line - 1, 0)));
    run.failed(item, msg, ms);
    if (f.reproducer) {
      await this.refresh(); // the reproducer is a new child: show it, failed
      const child = this.ctrl.items.get(testItem.id)?.children.get(`${testItem.id}/${path.posix.basename(f.reproducer)}`);
      if (child) this.reproducers.set(testItem.id, child.id);
      if (child && child !== item) run.failed(child, msg);
    }
  }

  /**
   * refreshCoverage, while a test fuzzes, adds the coverage of its growing
   * corpus to the run: at the first live numbers, then at most every
   * coverageEvery ms, one replay at a time.
   */
  private refreshCoverage(testId: string) {
    const l = this.live.get(testId);
    if (!l || l.pending || Date.now() - l.last < coverageEvery) return;
    l.pending = this.addCoverage(l.run, l.args).finally(() => { l.pending = undefined; l.last = Date.now(); });
  }

  /** addCoverage asks the server what the test's corpus reaches and adds it to the run. */
  private async addCoverage(run: vscode.TestRun, args: FuzzArgs) {
    let rep: CoverageReport | undefined;
    try {
      rep = await vscode.commands.executeCommand<CoverageReport>(commands.coverage.name, args);
    } catch (e) {
      run.appendOutput(`coverage: ${e}\r\n`);
      return;
    }
    for (const f of rep?.files ?? []) {
      const details = f.blocks.map((b) => {
        const [l1, c1, l2, c2] = blockSpan(b);
        return new vscode.StatementCoverage(b.count, new vscode.Range(l1, c1, l2, c2));
      });
      const n = countStatements(f.blocks);
      run.addCoverage(new FuzzFileCoverage(vscode.Uri.parse(f.uri), n.covered, n.total, details));
    }
    run.appendOutput(`coverage: the corpus (${rep?.entries} entries) reaches ${rep?.covered} of ${rep?.statements} statements\r\n`);
  }

  /** debug starts a Delve session for each requested corpus file (a fuzz test: its last reproducer, else its first file). */
  private async debug(req: vscode.TestRunRequest, _token: vscode.CancellationToken) {
    for (const item of this.requested(req)) {
      if (generatedIds.parse(item.id)) {
        vscode.window.showWarningMessage(`fuzzbox: ${item.label}: ${generatedNotRunnable}`);
        continue;
      }
      let entry = item.parent ? item : item.children.get(this.reproducers.get(item.id) ?? '');
      if (!entry) item.children.forEach((c) => { if (!generatedIds.parse(c.id)) entry = entry ?? c; });
      if (!entry?.uri) {
        vscode.window.showWarningMessage(`fuzzbox: ${item.label} has no corpus file to debug`);
        continue;
      }
      await vscode.commands.executeCommand(clientCommands.debug.name, { uri: entry.uri.toString() } as EntryArgs);
    }
  }
}
