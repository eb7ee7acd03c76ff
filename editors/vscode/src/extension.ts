// extension.ts activates the fuzzbox extension: it starts `fuzzbox lsp` (the
// sidecar beside the Go extension's gopls, or in proxy mode gopls behind it)
// through vscode-languageclient. Every lens, command, progress bar and
// diagnostic comes from the server; the commands it runs are the ones of
// lsp/command (src/commands.ts, generated), registered by the language client.
// The extension owns only what only VS Code has: the Test Explorer
// (testing.ts, with coverage) and debug sessions (debug.ts).
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, State } from 'vscode-languageclient/node';
import { clientCommands, InitOptions, RunEvent, runNotification, testsChangedNotification } from './commands';
import { defaults, documentSelector, goDefaults, goEnv, GoSettings, serverCommand, Settings, settingKeys } from './config';
import { registerDebug } from './debug';
import { FuzzTests } from './testing';

let client: LanguageClient | undefined;
let tests: FuzzTests | undefined;

function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('fuzzbox');
  const s: Settings = { ...defaults };
  for (const k of settingKeys) {
    (s as any)[k] = c.get(k, (defaults as any)[k]);
  }
  return s;
}

/** The Go extension's settings of test builds and runs (config.ts, GoSettings). */
function readGoSettings(): GoSettings {
  const c = vscode.workspace.getConfiguration('go');
  return {
    buildTags: c.get<string>('buildTags') ?? goDefaults.buildTags,
    testFlags: c.get<string[]>('testFlags') ?? goDefaults.testFlags,
    toolsEnvVars: c.get<{ [k: string]: string }>('toolsEnvVars') ?? goDefaults.toolsEnvVars,
    testEnvVars: c.get<{ [k: string]: string }>('testEnvVars') ?? goDefaults.testEnvVars,
  };
}

/** The Go settings the server follows: a change restarts it. */
const goSettingKeys = ['go.buildTags', 'go.testFlags', 'go.toolsEnvVars', 'go.testEnvVars'];

async function start(context: vscode.ExtensionContext): Promise<void> {
  const settings = readSettings();
  const go = readGoSettings();
  const { command, args } = serverCommand(settings, go);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const serverOptions: ServerOptions = { command, args, options: { env: { ...process.env, ...goEnv(go, folder, process.env) } } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(settings),
    outputChannelName: 'fuzzbox',
    initializationOptions: { clientCommands: [clientCommands.debug.name] } as InitOptions,
  };
  client = new LanguageClient('fuzzbox', 'fuzzbox', serverOptions, clientOptions);
  client.onNotification(runNotification, (e: RunEvent) => tests?.onRunEvent(e));
  client.onNotification(testsChangedNotification, () => tests?.refreshSoon());
  client.onDidChangeState((e) => {
    if (e.newState === State.Stopped) tests?.abortAll('fuzzbox: the language server stopped');
  });
  await client.start();
  tests?.refreshSoon();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  tests = new FuzzTests();
  context.subscriptions.push(tests, ...registerDebug(() => readSettings().dlvPath));
  context.subscriptions.push(
    vscode.commands.registerCommand('fuzzbox.restartServer', async () => {
      await client?.stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('fuzzbox') || goSettingKeys.some((k) => e.affectsConfiguration(k))) {
        await vscode.commands.executeCommand('fuzzbox.restartServer');
      }
    }),
  );
  try {
    await start(context);
  } catch (e) {
    vscode.window.showErrorMessage(`fuzzbox: cannot start the language server: ${e}`);
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
