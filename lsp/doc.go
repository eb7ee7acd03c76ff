// Package lsp is fuzzbox's Language Server Protocol sidecar, started by
// "fuzzbox lsp" on stdio beside gopls (or, with -gopls, in front of it). Editors
// use it through the VS Code extension (editors/vscode), Neovim's built-in
// client or any LSP client (docs/editors.md).
//
// It gives every fuzz test code lenses to fuzz it, stop it, run its seeds and
// open the reproducer of its last failure; every corpus file under
// testdata/fuzz/FuzzX/ a lens to rerun exactly that input and its decoded
// values (lens and hover); the fuzzvet analyzers as diagnostics with their
// suggested fixes as code actions; and failures found by a run as diagnostics
// at the first frame of the crash inside the user's module. Runs report through
// $/progress (cancellable), window/logMessage (the event stream) and
// window/showMessage.
//
// Layering: lsp imports lsp/protocol (the wire types), lsp/command (the
// command names, shared with the editors), corpus, analyzers/fuzzvet, the
// driver package (replays and fuzzing runs) and sourcegraph/jsonrpc2. It never
// imports the engine or cmd: fuzzing runs happen in child processes started by
// the driver, so a crashing target cannot take the editor's server down.
//
// One file per LSP feature: server.go (connection and the handle switch),
// lifecycle.go, files.go (text synchronization), codelens.go, hover.go,
// diagnostics.go, codeaction.go, execute.go (workspace/executeCommand),
// runs.go (run seeds, rerun this input), fuzz.go (fuzzing runs), progress.go,
// workspace.go (which files commands may name), mapper.go (UTF-16 positions),
// unimplemented.go and proxy.go (the gopls proxy).
package lsp
