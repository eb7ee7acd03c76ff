// debug.ts is "debug this input": the client command fuzzbox.debug (on the
// server's "debug" lenses and the Test Explorer's Debug profile) asks the
// server how to run exactly that corpus file (fuzzbox.debugEntry) and
// starts a Delve session on it. Without the Go extension the session is the
// extension's own debug type, fuzzbox-dlv, whose adapter is `dlv dap`
// (fuzzbox.dlvPath) started here and stopped with the session; with the Go
// extension it is a "go" launch configuration.
import * as cp from 'child_process';
import * as vscode from 'vscode';
import { clientCommands, commands, DebugInfo, EntryArgs } from './commands';
import { dlvPort, launchConfig } from './convert';

export const debugType = 'fuzzbox-dlv';

export function registerDebug(dlvPath: () => string): vscode.Disposable[] {
  const adapters = new Map<string, cp.ChildProcess>(); // session id -> its dlv dap
  const kill = (id: string) => {
    const p = adapters.get(id);
    adapters.delete(id);
    if (p && p.exitCode === null) p.kill();
  };
  return [
    vscode.commands.registerCommand(clientCommands.debug.name, (args: EntryArgs) => debugEntry(args)),
    vscode.debug.registerDebugAdapterDescriptorFactory(debugType, {
      createDebugAdapterDescriptor: async (session) => {
        const dlv = await startDlv(dlvPath(), session.configuration.cwd);
        adapters.set(session.id, dlv.proc);
        return new vscode.DebugAdapterServer(dlv.port, dlv.host);
      },
    }),
    vscode.debug.onDidTerminateDebugSession((s) => kill(s.id)),
    { dispose: () => { for (const id of [...adapters.keys()]) kill(id); } },
  ];
}

async function debugEntry(args: EntryArgs): Promise<boolean> {
  const info = await vscode.commands.executeCommand<DebugInfo>(commands.debugEntry.name, args);
  const type = vscode.extensions.getExtension('golang.go') ? 'go' : debugType;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(info.dir));
  return vscode.debug.startDebugging(folder, launchConfig(info, type) as vscode.DebugConfiguration);
}

/** startDlv starts `dlv dap` on a free local port and resolves when it listens. */
function startDlv(dlv: string, cwd: string): Promise<{ proc: cp.ChildProcess; host: string; port: number }> {
  return new Promise((resolve, reject) => {
    const proc = cp.spawn(dlv, ['dap', '--listen=127.0.0.1:0'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (b: Buffer) => {
      out += b.toString();
      const a = dlvPort(out);
      if (a) resolve({ proc, ...a });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('error', (e) => reject(new Error(`fuzzbox: cannot start ${dlv} dap: ${e.message}`)));
    proc.on('exit', (code) => reject(new Error(`fuzzbox: ${dlv} dap exited (${code}) before listening: ${out.trim()}`)));
  });
}
