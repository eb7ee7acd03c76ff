// Unit tests of convert.ts (the server's answers as Testing and Debug API data), without VS Code.
import * as assert from 'assert';
import { blockSpan, countStatements, dlvPort, failureText, generatedIds, launchConfig } from '../../src/convert';

describe('coverage blocks', () => {
  const blocks = [
    { startLine: 6, startCol: 26, endLine: 7, endCol: 36, statements: 1, count: 2 },
    { startLine: 7, startCol: 36, endLine: 10, endCol: 3, statements: 2, count: 0 },
  ];
  it('turns 1-based lines and columns into zero-based spans', () => {
    assert.deepStrictEqual(blockSpan(blocks[1]), [6, 35, 9, 2]);
  });
  it('counts the statements reached', () => {
    assert.deepStrictEqual(countStatements(blocks), { covered: 1, total: 3 });
  });
});

describe('failureText', () => {
  it('names the kind, the input and the reproducer before the report', () => {
    const text = failureText({ kind: 'panic', message: 'runtime error: index out of range [5] with length 0',
      stack: 'panic: runtime error\ngoroutine 1', uri: 'file:///w/parse.go', line: 9, frames: [],
      values: ['"FUZZ!"'], reproducer: 'file:///w/testdata/fuzz/FuzzParse/crash1' });
    assert.strictEqual(text.split('\n').slice(0, 3).join('\n'),
      'panic: runtime error: index out of range [5] with length 0\ninput: "FUZZ!"\nreproducer: /w/testdata/fuzz/FuzzParse/crash1');
    assert.ok(text.endsWith('goroutine 1'));
  });
});

describe('dlvPort', () => {
  it('reads the address dlv dap listens at', () => {
    assert.deepStrictEqual(dlvPort('DAP server listening at: 127.0.0.1:38397\n'), { host: '127.0.0.1', port: 38397 });
    assert.deepStrictEqual(dlvPort('DAP server listening at: [::1]:4000\n'), { host: '::1', port: 4000 });
    assert.strictEqual(dlvPort('could not attach'), undefined);
  });
});

describe('launchConfig', () => {
  it('debugs the package test binary with exactly the entry', () => {
    const c = launchConfig({ dir: '/w', test: 'FuzzParse', entry: 'crash1', args: ['-test.run=^FuzzParse$/^crash1$'], buildFlags: [], commandLine: '' }, 'fuzzbox-dlv');
    assert.deepStrictEqual(c, { type: 'fuzzbox-dlv', request: 'launch', name: 'fuzzbox: debug FuzzParse/crash1', mode: 'test',
      program: '/w', cwd: '/w', args: ['-test.run=^FuzzParse$/^crash1$'] });
  });
  it('builds with the server\'s build flags (its -tags)', () => {
    const c = launchConfig({ dir: '/w', test: 'FuzzParse', entry: 'crash1', args: ['-test.run=^FuzzParse$/^crash1$', '-test.short'],
      buildFlags: ['-tags=special'], commandLine: '' }, 'fuzzbox-dlv');
    assert.deepStrictEqual(c.buildFlags, '-tags=special');
    assert.deepStrictEqual(c.args, ['-test.run=^FuzzParse$/^crash1$', '-test.short']);
  });
});

describe('generatedIds', () => {
  const test = 'file:///w/pkg#FuzzParse';
  it('round-trips the ids of the generated corpus and its entries', () => {
    assert.deepStrictEqual(generatedIds.parse(generatedIds.group(test)), { testId: test, entry: undefined });
    assert.deepStrictEqual(generatedIds.parse(generatedIds.entry(test, '0123abcd')), { testId: test, entry: '0123abcd' });
  });
  it('does not take a test or a testdata entry for a generated one', () => {
    assert.strictEqual(generatedIds.parse(test), undefined);
    assert.strictEqual(generatedIds.parse(`${test}/generated`), undefined);
  });
});
