// Unit tests of the extension without VS Code (mocha under plain Node).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { defaults, documentSelector, goDefaults, goEnv, goFlags, serverCommand, settingKeys } from '../../src/config';
import { commands } from '../../src/commands';
import { generatedIds } from '../../src/convert';

const root = path.join(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('serverCommand', () => {
  it('starts fuzzbox lsp with the defaults', () => {
    assert.deepStrictEqual(serverCommand(defaults), { command: 'fuzzbox', args: ['lsp'] });
  });
  it('passes fuzz time, parallelism and proxy mode', () => {
    const s = { ...defaults, path: '/opt/fuzzbox', fuzzTime: '5m', parallel: 2, mode: 'proxy' as const, goplsPath: '/go/bin/gopls' };
    assert.deepStrictEqual(serverCommand(s), {
      command: '/opt/fuzzbox',
      args: ['lsp', '-fuzztime=5m', '-parallel=2', '-gopls=/go/bin/gopls'],
    });
  });
  it('refuses a fuzz time that is not a Go duration', () => {
    assert.throws(() => serverCommand({ ...defaults, fuzzTime: '5 minutes' }), /not a Go duration/);
  });
  it('accepts compound durations', () => {
    assert.deepStrictEqual(serverCommand({ ...defaults, fuzzTime: '1h30m' }).args, ['lsp', '-fuzztime=1h30m']);
  });
});

describe('the Go extension\'s settings', () => {
  it('pass go.buildTags as -tags', () => {
    assert.deepStrictEqual(serverCommand(defaults, { ...goDefaults, buildTags: 'integration,special' }).args, ['lsp', '-tags=integration,special']);
  });
  it('pass each element of go.testFlags as -gotestflag, after go.buildTags\' -tags (the server reads them as go test does)', () => {
    assert.deepStrictEqual(goFlags({ ...goDefaults, buildTags: 'a', testFlags: ['-v', '-tags=b', '-short'] }),
      ['-tags=a', '-gotestflag=-v', '-gotestflag=-tags=b', '-gotestflag=-short']);
    assert.deepStrictEqual(goFlags({ ...goDefaults, testFlags: null as any }), []);
    assert.deepStrictEqual(goFlags({ ...goDefaults, buildTags: ' ', testFlags: ['-short', '-args', '-update', '-golden=x y'] }),
      ['-gotestflag=-short', '-gotestflag=-args', '-gotestflag=-update', '-gotestflag=-golden=x y']);
  });
  it('put the go flags before the proxy\'s gopls', () => {
    assert.deepStrictEqual(serverCommand({ ...defaults, mode: 'proxy' }, { ...goDefaults, testFlags: ['-short'] }).args,
      ['lsp', '-gotestflag=-short', '-gopls=gopls']);
  });
  it('set the environment of go.toolsEnvVars and go.testEnvVars, with the variables the Go extension replaces', () => {
    const g = { ...goDefaults, toolsEnvVars: { GOFLAGS: '-mod=mod', A: 'tools' }, testEnvVars: { A: 'test', D: '${workspaceFolder}/data', H: '${env:HOME}/x' } };
    assert.deepStrictEqual(goEnv(g, '/w', { HOME: '/home/u' }), { GOFLAGS: '-mod=mod', A: 'test', D: '/w/data', H: '/home/u/x' });
  });
});

describe('documentSelector', () => {
  it('serves Go files and corpus files', () => {
    const sel = documentSelector(defaults);
    assert.ok(sel.some((f) => f.language === 'go'));
    assert.ok(sel.some((f) => f.pattern === '**/testdata/fuzz/Fuzz*/*'));
  });
});

describe('package.json', () => {
  it('declares exactly the settings config.ts reads, with the same defaults', () => {
    const props = manifest.contributes.configuration.properties;
    assert.deepStrictEqual(Object.keys(props).sort(), settingKeys.map((k) => 'fuzzbox.' + k).sort());
    for (const k of settingKeys) {
      assert.deepStrictEqual(props['fuzzbox.' + k].default, (defaults as any)[k], k);
    }
  });
  it('does not claim the server commands (the language client registers them)', () => {
    const names = new Set(Object.values(commands).map((c) => c.name));
    for (const c of manifest.contributes.commands) {
      assert.ok(!names.has(c.command), `${c.command} is a server command`);
    }
  });
});

describe('the Testing view context menu', () => {
  // a when clause's /regex/ as a RegExp
  const whenRegex = (cmd: string) => {
    const m = manifest.contributes.menus['testing/item/context'].find((x: any) => x.command === cmd);
    return new RegExp(/testId =~ \/(.*?)\/(?: |$)/.exec(m.when)![1]);
  };
  const test = 'file:///w/pkg#FuzzParse';
  it('offers "Show Generated Corpus" on fuzz tests only', () => {
    const re = whenRegex('fuzzbox.testing.showGenerated');
    assert.ok(re.test(test));
    for (const id of [`${test}/ok1`, generatedIds.group(test), generatedIds.entry(test, 'ab12')]) assert.ok(!re.test(id), id);
  });
  it('offers "Copy to testdata" on generated entries only', () => {
    const re = whenRegex('fuzzbox.testing.copyToTestdata');
    assert.ok(re.test(generatedIds.entry(test, 'ab12')));
    for (const id of [test, `${test}/ok1`, generatedIds.group(test)]) assert.ok(!re.test(id), id);
  });
});

describe('commands.ts', () => {
  it('names every command fuzzbox.*', () => {
    for (const c of Object.values(commands)) {
      assert.match(c.name, /^fuzzbox\.[a-zA-Z]+$/);
    }
  });
});
