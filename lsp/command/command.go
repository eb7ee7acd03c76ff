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
	// Tests lists the fuzz tests of a workspace folder with their corpus
	// files (FolderArgs); the answer is a TestList.
	Tests = "fuzzbox.tests"
	// Coverage replays a fuzz test's corpus (seeds, testdata/fuzz/FuzzX and
	// the generated corpus) as fuzzbox cover does and answers which
	// statements it reaches (FuzzArgs); the answer is a CoverageReport. It answers
	// when the replay is done, without holding up other requests.
	Coverage = "fuzzbox.coverage"
	// CoverageGaps is Coverage's complement for clients without a coverage
	// view (FuzzArgs): the answer is a []Gap, the code the corpus never
	// reaches, ready for a quickfix list.
	CoverageGaps = "fuzzbox.coverageGaps"
	// DebugEntry says how to run one corpus file under Delve (EntryArgs);
	// the answer is a DebugInfo.
	DebugEntry = "fuzzbox.debugEntry"
	// ShowGenerated lists a fuzz test's generated corpus (the entries its
	// fuzzing kept, in fuzzbox's cache directory) in Tests' answers from now
	// on, or stops listing it (GeneratedArgs.Show); the answer is the
	// GeneratedCorpus. While it is listed, the server watches the directory
	// and sends TestsChanged when its files change.
	ShowGenerated = "fuzzbox.showGenerated"
	// CopyGenerated copies one generated entry (GeneratedArgs.Entry) into
	// testdata/fuzz/FuzzX/, the only corpus go test replays; the answer is
	// the new file's EntryInfo.
	CopyGenerated = "fuzzbox.copyGenerated"
)

// Client commands: the server names them on lenses only for a client that
// lists them in initializationOptions.clientCommands (InitOptions); the
// client runs them itself, they are not in executeCommandProvider.
const (
	// Debug starts a debug session of one corpus file (EntryArgs); the VS
	// Code extension runs it with Delve (dlv dap) from DebugEntry's answer.
	Debug = "fuzzbox.debug"
)

// RunNotification is the server's notification of a run's state: a
// RunEvent when a run starts, while fuzzing (the live numbers) and when it
// ends. The VS Code extension turns it into its test run.
const RunNotification = "fuzzbox/run"

// TestsChanged is the server's notification (no params) that Tests would
// answer differently: a listed generated corpus gained or lost files.
// Changes inside the workspace are the client's to watch.
const TestsChanged = "fuzzbox/testsChanged"

// InitOptions is what a client may send as initializationOptions.
type InitOptions struct {
	ClientCommands []string `json:"clientCommands"` // client commands (Debug) the client runs; none when empty
}

// FolderArgs names a workspace folder.
type FolderArgs struct {
	URI string `json:"uri"` // file:// URI of the folder
}

// TestList is the answer to Tests.
type TestList struct {
	Tests []TestInfo `json:"tests"` // by package directory, then file and line
}

// TestInfo is one fuzz test.
type TestInfo struct {
	ID      string      `json:"id"`      // the package directory's URI, "#", and Name: the key of RunEvent.Test
	Name    string      `json:"name"`    // FuzzX
	URI     string      `json:"uri"`     // the _test.go file declaring it
	Line    int         `json:"line"`    // 1-based line of its func keyword
	Entries []EntryInfo `json:"entries"` // the files of testdata/fuzz/FuzzX, by name
	// Generated is the generated corpus, after ShowGenerated; else null.
	Generated *GeneratedCorpus `json:"generated"`
}

// GeneratedCorpus is a fuzz test's generated corpus: the entries fuzzing
// kept, outside the workspace. go test does not replay them (it reads only
// testdata/fuzz/FuzzX); CopyGenerated puts one there.
type GeneratedCorpus struct {
	Dir     string      `json:"dir"`     // the directory (it may not exist yet)
	Entries []EntryInfo `json:"entries"` // its files, by name
	Error   string      `json:"error"`   // why the directory is unknown; "" when it is known
}

// EntryInfo is one corpus file.
type EntryInfo struct {
	Name  string `json:"name"`  // the file name, which go test names the subtest
	URI   string `json:"uri"`   // file:// URI
	Error string `json:"error"` // why the file is not a corpus file go test can read; "" when it is
}

// Run kinds and states of a RunEvent.
const (
	KindFuzz  = "fuzz"  // fuzzing
	KindSeeds = "seeds" // the seed corpus, as go test -run=^FuzzX$
	KindEntry = "entry" // one corpus file

	StateStarted  = "started"  // the run started
	StateProgress = "progress" // live numbers (fuzzing)
	StatePassed   = "passed"   // ended without failure (for fuzzing: the fuzz time ran out)
	StateFailed   = "failed"   // ended with a failure (Failure)
	StateStopped  = "stopped"  // cancelled before it ended, without failure
	StateErrored  = "errored"  // could not run (build error, …): Message says why
)

// RunEvent is the params of RunNotification.
type RunEvent struct {
	Test    string   `json:"test"`    // TestInfo.ID of the fuzz test
	Run     string   `json:"run"`     // KindFuzz, KindSeeds or KindEntry
	Entry   string   `json:"entry"`   // KindEntry: the corpus file's name; else ""
	State   string   `json:"state"`   // one of the State constants
	Message string   `json:"message"` // what a person reads: the live numbers, or how the run ended
	Execs   int      `json:"execs"`   // executions so far (fuzzing); 0 otherwise
	Failure *Failure `json:"failure"` // StateFailed: the failure; else null
}

// Failure is a run's failure.
type Failure struct {
	Kind       string   `json:"kind"`       // panic, fail, fatal, exit, hang, oom, race
	Message    string   `json:"message"`    // the first line of the report
	Stack      string   `json:"stack"`      // the whole report, with the stack
	URI        string   `json:"uri"`        // the crash line's file, the first frame in the user's module; "" when unknown
	Line       int      `json:"line"`       // its 1-based line; 0 when unknown
	Frames     []Frame  `json:"frames"`     // the stack's frames, innermost first
	Values     []string `json:"values"`     // the failing input's values as Go text; empty when unknown
	Reproducer string   `json:"reproducer"` // the reproducer corpus file's URI; "" when there is none (an f.Add seed)
}

// Frame is one stack frame.
type Frame struct {
	Func string `json:"func"` // the function, as the stack names it
	URI  string `json:"uri"`  // file:// URI of its file
	Line int    `json:"line"` // 1-based
}

// CoverageReport is the answer to Coverage.
type CoverageReport struct {
	Percent    float64        `json:"percent"`    // of statements reached
	Statements int            `json:"statements"` // statements measured
	Covered    int            `json:"covered"`    // statements reached
	Entries    int            `json:"entries"`    // corpus entries replayed (those that crashed the test binary count, their coverage does not)
	Files      []FileCoverage `json:"files"`      // the measured files inside the workspace
}

// FileCoverage is the coverage of one file.
type FileCoverage struct {
	URI    string  `json:"uri"`
	Blocks []Block `json:"blocks"` // as go test -coverprofile writes them
}

// Block is one basic block of a coverage profile.
type Block struct {
	StartLine  int `json:"startLine"` // 1-based
	StartCol   int `json:"startCol"`  // 1-based byte column
	EndLine    int `json:"endLine"`
	EndCol     int `json:"endCol"` // exclusive
	Statements int `json:"statements"`
	Count      int `json:"count"` // executions by the corpus; 0 = never reached
}

// Gap is a block the corpus never reaches, for a quickfix list.
type Gap struct {
	URI     string `json:"uri"`
	Line    int    `json:"line"` // 1-based
	Col     int    `json:"col"`  // 1-based
	EndLine int    `json:"endLine"`
	EndCol  int    `json:"endCol"`
	Text    string `json:"text"` // "FuzzX never reaches this (2 statements)"
}

// DebugInfo is the answer to DebugEntry: how to debug one corpus file.
type DebugInfo struct {
	Dir         string   `json:"dir"`         // the package directory: where to run, what to build
	Test        string   `json:"test"`        // FuzzX
	Entry       string   `json:"entry"`       // the corpus file's name
	Args        []string `json:"args"`        // the test binary's arguments: -test.run=^FuzzX$/^NAME$ (and -test.short with the server's -short)
	BuildFlags  []string `json:"buildFlags"`  // the build's flags: -tags=… with the server's -tags, -vet=…, go test's build flags of go.testFlags (one with spaces in single quotes, as Delve's --build-flags splits them: joined with spaces they are one); [] otherwise
	CommandLine string   `json:"commandLine"` // the Delve command line, for a terminal
}

// FuzzArgs names one fuzz test: the test file that declares it and its name.
type FuzzArgs struct {
	URI  string `json:"uri"`  // file:// URI of the _test.go file declaring the test
	Name string `json:"name"` // the fuzz test, "FuzzX"
}

// GeneratedArgs names a fuzz test's generated corpus (ShowGenerated) or one
// entry of it (CopyGenerated).
type GeneratedArgs struct {
	URI   string `json:"uri"`   // file:// URI of the _test.go file declaring the test
	Name  string `json:"name"`  // the fuzz test, "FuzzX"
	Show  bool   `json:"show"`  // ShowGenerated: list it (true) or stop listing it
	Entry string `json:"entry"` // CopyGenerated: the entry's file name
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
	{Tests, "list fuzz tests", "FolderArgs"},
	{Coverage, "coverage of the corpus", "FuzzArgs"},
	{CoverageGaps, "coverage gaps", "FuzzArgs"},
	{DebugEntry, "debug command line", "EntryArgs"},
	{ShowGenerated, "show the generated corpus", "GeneratedArgs"},
	{CopyGenerated, "copy to testdata", "GeneratedArgs"},
}

// ClientCommands lists the client commands, for generated copies.
var ClientCommands = []Spec{
	{Debug, "debug", "EntryArgs"},
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
