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

/** How to start the server: fuzzbox lsp with flags from the settings. */
export function serverCommand(s: Settings): { command: string; args: string[] } {
  const args = ['lsp'];
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
