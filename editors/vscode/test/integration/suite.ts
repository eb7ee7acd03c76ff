// suite.ts - integration tests inside a real VS Code extension host
// (code-server, started by editors/code-server.sh through
// test/integration/run.js with extensionDevelopmentPath/extensionTestsPath).
// The workspace is lsp/testdata/planted with fuzzbox.mode = "proxy": one
// server that is gopls and fuzzbox at once.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';

const Mocha = require('mocha');

/** run is the extension test entry point VS Code calls. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 180000, color: false });
  mocha.suite.emit('pre-require', globalThis, 'suite.js', mocha);
  defineTests();
  return new Promise((resolve, reject) => {
    mocha.run((failures: number) => (failures ? reject(new Error(`${failures} integration tests failed`)) : resolve()));
  });
}

const ws = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const file = (rel: string) => vscode.Uri.file(path.join(ws(), rel));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function poll<T>(what: string, f: () => Promise<T | undefined>, ms = 120000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

function defineTests() {
  describe('fuzzbox extension in proxy mode (gopls behind fuzzbox)', () => {
    before(async () => {
      const ext = vscode.extensions.getExtension('fuzzbox.fuzzbox');
      assert.ok(ext, 'extension fuzzbox.fuzzbox not found');
      await ext!.activate();
      assert.strictEqual(vscode.workspace.getConfiguration('fuzzbox').get('mode'), 'proxy');
      await vscode.window.showTextDocument(file('parse_test.go'));
    });

    it('shows the fuzz lenses', async () => {
      const titles = await poll('fuzz lenses', async () => {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file('parse_test.go'));
        const t = (lenses || []).map((l) => l.command?.title);
        return t.includes('run seeds') ? t : undefined;
      });
      console.log('[suite] lenses:', JSON.stringify(titles));
      assert.ok(titles.includes('fuzz'));
    });

    it("answers gopls's hover and completion", async () => {
      const pos = new vscode.Position(7, 3); // Par|se(s) in parse_test.go
      const text = await poll('gopls hover', async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', file('parse_test.go'), pos);
        const t = (hovers || []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
        return t.includes('func Parse(s string) int') ? t : undefined;
      });
      console.log('[suite] hover:', JSON.stringify(text.slice(0, 120)));
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider',
        file('parse_test.go'), new vscode.Position(7, 5));
      const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      assert.ok(labels.includes('Parse'), `completion: ${labels.slice(0, 20)}`);
    });

    it('reruns a crashing entry and merges its failure with gopls diagnostics', async () => {
      const crash = file('testdata/fuzz/FuzzParse/crash1');
      await vscode.workspace.fs.writeFile(crash, Buffer.from('go test fuzz v1\nstring("FUZZ!")\n'));
      const res = await vscode.commands.executeCommand<{ started: string }>('fuzzbox.rerunEntry', { uri: crash.toString() });
      assert.deepStrictEqual(res, { started: 'FuzzParse/crash1' });
      const diags = await poll('merged diagnostics of parse.go', async () => {
        const d = vscode.languages.getDiagnostics(file('parse.go'));
        const fuzzbox = d.some((x) => x.source === 'fuzzbox' && x.message.startsWith('FuzzParse fails (panic)'));
        const gopls = d.some((x) => x.source === 'nilness');
        return fuzzbox && gopls ? d : undefined;
      });
      console.log('[suite] parse.go diagnostics:', JSON.stringify(diags.map((d) => `${d.source}: ${d.message.split('\n')[0]} @${d.range.start.line + 1}`)));
      const failure = diags.find((d) => d.source === 'fuzzbox')!;
      assert.strictEqual(failure.range.start.line, 8, 'the failure is at the planted line 9');
    });

    it("builds and runs with the Go extension's go.buildTags, go.testFlags and go.testEnvVars", async () => {
      // FuzzTagged (written by editors/code-server.sh) is behind the build tag
      // "special" and fails saying what it was run with: -short, an
      // environment variable, its package's flag given after -args, and a
      // variable set by go.testFlags' -ldflags.
      const tagged = file('tagged_test.go');
      const res = await vscode.commands.executeCommand<{ started: string }>('fuzzbox.runSeeds', { uri: tagged.toString(), name: 'FuzzTagged' });
      assert.deepStrictEqual(res, { started: 'FuzzTagged' });
      const diag = await poll('the diagnostic of FuzzTagged', async () =>
        vscode.languages.getDiagnostics(tagged).find((d) => d.source === 'fuzzbox' && d.message.includes('fuzzbox-e2e:')));
      console.log('[suite] tagged_test.go diagnostic:', JSON.stringify(diag.message.split('\n')[0]));
      assert.ok(diag.message.includes(`fuzzbox-e2e: short=true var=${ws()}/x flag=yes mode=ldflags`), diag.message);
    });

    it('refuses files outside the workspace', async () => {
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('fuzzbox.rerunEntry', { uri: 'file:///etc/passwd' })),
        /outside the workspace/,
      );
    });
  });
}
