// config.ts turns the extension's settings into the language server's
// command line and document selector. It does not import vscode, so the unit
// tests (test/unit) run it under plain Node.

/** The settings of package.json's contributes.configuration, as read. */
export interface Settings {
  path: string;        // fuzzbox.path
  fuzzTime: string;    // fuzzbox.fuzzTime
  parallel: number;    // fuzzbox.parallel
  mode: 'sidecar' | 'proxy'; // fuzzbox.mode
  goplsPath: string;   // fuzzbox.goplsPath
  dlvPath: string;     // fuzzbox.dlvPath
}

/** The setting keys (without the "fuzzbox." prefix), as package.json declares them. */
export const settingKeys: (keyof Settings)[] = ['path', 'fuzzTime', 'parallel', 'mode', 'goplsPath', 'dlvPath'];

export const defaults: Settings = { path: 'fuzzbox', fuzzTime: '', parallel: 0, mode: 'sidecar', goplsPath: 'gopls', dlvPath: 'dlv' };

/**
 * The Go extension's settings that decide how go test builds and runs a
 * package, as read (vscode-go's go.buildTags, go.testFlags, go.toolsEnvVars,
 * go.testEnvVars): fuzzbox's runs, replays, coverage and debug sessions
 * follow them, as the Go extension's test runs do.
 */
export interface GoSettings {
  buildTags: string;
  testFlags: string[];
  toolsEnvVars: { [name: string]: string };
  testEnvVars: { [name: string]: string };
}

export const goDefaults: GoSettings = { buildTags: '', testFlags: [], toolsEnvVars: {}, testEnvVars: {} };

/**
 * The server's flags for the Go settings: -tags for go.buildTags, and a
 * -gotestflag for each element of go.testFlags, which the server reads as go
 * test reads its command line (its -tags wins over go.buildTags, as in the Go
 * extension's test runs; -short, -vet, build flags such as -ldflags or -mod,
 * the test binary's own flags and what follows -args apply to every build and
 * run; what is for go test's own runs, such as -v or -timeout, is left out).
 */
export function goFlags(g: GoSettings): string[] {
  const args: string[] = [];
  const tags = (g.buildTags ?? '').trim();
  if (tags !== '') args.push('-tags=' + tags);
  for (const f of g.testFlags ?? []) args.push('-gotestflag=' + f);
  return args;
}

/**
 * The server's environment additions: go.toolsEnvVars, then go.testEnvVars
 * over them, with ${workspaceFolder} and ${env:NAME} replaced as the Go
 * extension replaces them.
 */
export function goEnv(g: GoSettings, workspaceFolder: string, env: { [name: string]: string | undefined }): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  for (const vars of [g.toolsEnvVars ?? {}, g.testEnvVars ?? {}]) {
    for (const [k, v] of Object.entries(vars)) {
      out[k] = String(v)
        .replace(/\$\{workspaceFolder\}/g, workspaceFolder)
        .replace(/\$\{env:([^}]+)\}/g, (_, name) => env[name] ?? '');
    }
  }
  return out;
}

/** How to start the server: fuzzbox lsp with flags from the settings (and the Go extension's). */
export function serverCommand(s: Settings, g: GoSettings = goDefaults): { command: string; args: string[] } {
  const args = ['lsp', ...goFlags(g)];
  if (s.fuzzTime.trim() !== '') {
    if (!/^\d+(\.\d+)?(ns|us|µs|ms|s|m|h)(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))*$/.test(s.fuzzTime.trim())) {
      throw new Error(`fuzzbox.fuzzTime: ${JSON.stringify(s.fuzzTime)} is not a Go duration such as 30s or 5m`);
    }
    args.push('-fuzztime=' + s.fuzzTime.trim());
  }
  if (s.parallel > 0) {
    args.push('-parallel=' + Math.floor(s.parallel));
  }
  if (s.mode === 'proxy') {
    args.push('-gopls=' + (s.goplsPath || 'gopls'));
  }
  return { command: s.path || 'fuzzbox', args };
}

/** A document filter (vscode.DocumentFilter without the dependency). */
export interface Filter { scheme: string; language?: string; pattern?: string }

/**
 * The documents the server serves: Go files (lenses on fuzz tests,
 * diagnostics), and the corpus files under testdata/fuzz (rerun lens, values).
 * In proxy mode the server is also gopls, for every Go document.
 */
export function documentSelector(s: Settings): Filter[] {
  return [
    { scheme: 'file', language: 'go' },
    { scheme: 'file', pattern: '**/testdata/fuzz/Fuzz*/*' },
  ];
}
