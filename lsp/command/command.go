// Package command declares the workspace/executeCommand commands of the
// fuzzbox LSP sidecar, once: their names, titles and argument structs. The
// sidecar (package lsp) dispatches on them and builds its code lenses with
// them; the VS Code extension (editors/vscode/src/commands.ts, generated from
// this package by TestTypeScript with -update) and the Neovim test use the same
// names. It imports only the standard library.
//
// Every command takes exactly one argument, the JSON object of its Args
// struct. File arguments are file:// URIs inside the workspace; the sidecar
// refuses others.
package command

// Command names.
const (
	// Fuzz starts fuzzing one fuzz test (FuzzArgs); its lens becomes Stop while it runs.
	Fuzz = "fuzzbox.fuzz"
	// Stop cancels the run of one fuzz test (FuzzArgs).
	Stop = "fuzzbox.stop"
	// RunSeeds runs one fuzz test on its seed corpus only, like
	// go test -run=^FuzzX$ (FuzzArgs).
	RunSeeds = "fuzzbox.runSeeds"
	// OpenReproducer shows the reproducer of a test's last failure (FuzzArgs).
	OpenReproducer = "fuzzbox.openReproducer"
	// RerunEntry runs exactly one corpus file (EntryArgs).
	RerunEntry = "fuzzbox.rerunEntry"
	// ShowEntry shows a corpus file's decoded values (EntryArgs).
	ShowEntry = "fuzzbox.showEntry"
)

// FuzzArgs names one fuzz test: the test file that declares it and its name.
type FuzzArgs struct {
	URI  string `json:"uri"`  // file:// URI of the _test.go file declaring the test
	Name string `json:"name"` // the fuzz test, "FuzzX"
}

// EntryArgs names one corpus file under testdata/fuzz/FuzzX/.
type EntryArgs struct {
	URI string `json:"uri"` // file:// URI of the corpus file
}

// A Spec describes one command for generated copies (the TypeScript list).
type Spec struct {
	Name  string // the command name
	Title string // what a person reads (code lens title or palette entry)
	Args  string // the Go name of the argument struct
}

// All lists every command, in the order above.
var All = []Spec{
	{Fuzz, "fuzz", "FuzzArgs"},
	{Stop, "stop", "FuzzArgs"},
	{RunSeeds, "run seeds", "FuzzArgs"},
	{OpenReproducer, "open reproducer", "FuzzArgs"},
	{RerunEntry, "rerun this input", "EntryArgs"},
	{ShowEntry, "show values", "EntryArgs"},
}

// Names returns the command names of All, for the server's
// executeCommandProvider.
func Names() []string {
	names := make([]string, len(All))
	for i, c := range All {
		names[i] = c.Name
	}
	return names
}
