// convert.ts turns the server's answers (src/commands.ts types) into what the
// Testing and Debug APIs take, as plain data. It does not import vscode, so
// the unit tests (test/unit) run it under plain Node.
import { Block, DebugInfo, Failure } from './commands';

/** A zero-based range: [startLine, startChar, endLine, endChar]. */
export type Span = [number, number, number, number];

/** The zero-based span of a coverage block (1-based lines and byte columns, end exclusive). */
export function blockSpan(b: Block): Span {
  return [b.startLine - 1, b.startCol - 1, b.endLine - 1, b.endCol - 1];
}

/** Statements reached and measured in a file's blocks. */
export function countStatements(blocks: Block[]): { covered: number; total: number } {
  let covered = 0, total = 0;
  for (const b of blocks) {
    total += b.statements;
    if (b.count > 0) covered += b.statements;
  }
  return { covered, total };
}

/** The text of a failure's test message: what failed, with which values, and the report. */
export function failureText(f: Failure): string {
  const lines = [`${f.kind}: ${f.message}`];
  if (f.values.length > 0) lines.push(`input: ${f.values.join(', ')}`);
  if (f.reproducer) lines.push(`reproducer: ${f.reproducer.replace(/^file:\/\//, '')}`);
  if (f.stack) lines.push('', f.stack);
  return lines.join('\n');
}

/** The port of a "DAP server listening at: 127.0.0.1:38397" line of dlv dap, or undefined. */
export function dlvPort(output: string): { host: string; port: number } | undefined {
  const m = /DAP server listening at: (\[[^\]]+\]|[^\s:]+):(\d+)/.exec(output);
  return m ? { host: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) } : undefined;
}

/** The launch configuration of a DebugInfo: Delve in test mode on the package, running exactly the entry. */
export function launchConfig(info: DebugInfo, type: string): { [k: string]: unknown } {
  return {
    type, request: 'launch', name: `fuzzbox: debug ${info.test}/${info.entry}`, mode: 'test',
    program: info.dir, cwd: info.dir, args: info.args,
    ...(info.buildFlags?.length ? { buildFlags: info.buildFlags.join(' ') } : {}),
  };
}

/**
 * Test item ids of the generated corpus: a fuzz test's "generated corpus" child is
 * `<test id>//generated`, its entries `<test id>//generated/<name>` ("//" is in no
 * file name, so no testdata entry has such an id).
 */
export const generatedIds = {
  group: (testId: string) => `${testId}//generated`,
  entry: (testId: string, name: string) => `${testId}//generated/${name}`,
  /** the fuzz test's id and the entry's name (undefined for the group) of a generated item's id, or undefined */
  parse(id: string): { testId: string; entry?: string } | undefined {
    const m = /^(.*)\/\/generated(?:\/([^/]+))?$/.exec(id);
    return m ? { testId: m[1], entry: m[2] } : undefined;
  },
};

/** Why a generated entry is not run: go test reads only testdata/fuzz/FuzzX. */
export const generatedNotRunnable = 'go test replays only testdata/fuzz/FuzzX, not the generated corpus: ' +
  'use "Copy to testdata" (the entry\'s context menu), then run or debug the copy';
