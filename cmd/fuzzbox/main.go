// Command fuzzbox ties the fuzzbox suite together: it fuzzes ordinary Go fuzz
// tests with fuzzbox's engine (fuzzbox fuzz), reads and writes "go test fuzz v1"
// corpus files (fuzzbox corpus, including libFuzzer import/export and merge),
// reports what a corpus covers (fuzzbox cover), runs the fuzzvet checks
// (fuzzbox vet), builds libFuzzer binaries for OSS-Fuzz (fuzzbox build
// -libfuzzer, fuzzbox oss-fuzz init), serves editors (fuzzbox lsp) and
// generates the test main that build systems link into a fuzzing binary
// (fuzzbox testmain).
//
// Users run it from a shell, pre-commit hooks, the Bazel rules and editors;
// each subcommand lives in its own file and registers itself in init, and the
// fuzzing ones are thin shells over package driver.
//
// Exit codes are shared by every subcommand: 0 success, 1 a finding (a failing
// input, a bad corpus file, a diagnostic), 2 a usage or build error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// Exit codes shared by all subcommands.
const (
	exitOK      = 0
	exitFinding = 1
	exitUsage   = 2
)

// A command is one fuzzbox subcommand, or one subcommand of fuzzbox corpus.
// Most are declared by their usage text and flags, and main parses their
// arguments; the others take them raw (run).
type command struct {
	name   string // as typed after "fuzzbox" (or "fuzzbox corpus")
	group  string // "corpus" for a subcommand of fuzzbox corpus, else ""
	short  string // one line for the command list
	hidden bool   // not listed (internal plumbing such as toolexec)
	// usage is printed on -h, and after the message of a usage error; the
	// flags' defaults follow it if it ends in "Flags:\n".
	usage   string
	minArgs int // fewer positional arguments is a usage error
	// testArgs says that the command runs the package's test binary: it
	// reads its command line as go test does (driver.ParseCommandLine) and takes go
	// test's flags from GOFLAGS (driver.SetFromGOFLAGS).
	testArgs bool
	// flags adds the command's flags to fs and returns what runs the
	// command once they are parsed; it returns the process exit code.
	flags func(fs *flag.FlagSet) func(inv *invocation) int
	// run, for a command without flags, executes it with the arguments
	// after its name and returns the process exit code.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

// register adds c to the command table; each subcommand file calls it from init.
func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("fuzzbox: duplicate command " + c.name)
	}
	commands[c.name] = c
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return dispatch(args, commands, usage, "", "fuzzbox: unknown command %q", stdout, stderr)
}

// dispatch runs the command of table that args[0] names with the other
// arguments. On -h it prints the table's usage to stdout; without a
// command, or with an unknown one, it prints the missing message (if not
// "") or the unknown one (a format of the name) and the usage to stderr.
func dispatch(args []string, table map[string]*command, usage func(io.Writer), missing, unknown string, stdout, stderr io.Writer) int {
	msg := missing
	switch {
	case len(args) == 0: // the missing message
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help":
		usage(stdout)
		return exitOK
	case table[args[0]] == nil:
		msg = fmt.Sprintf(unknown, args[0])
	default:
		return table[args[0]].main(args[1:], stdout, stderr)
	}
	if msg != "" {
		fmt.Fprintln(stderr, msg)
	}
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: fuzzbox <command> [arguments]")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for name, c := range commands {
		if !c.hidden {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].short)
	}
	fmt.Fprintln(w, "\nRun 'fuzzbox <command> -h' for a command's flags.")
}

// interruptible returns a context that SIGINT or SIGTERM cancels, for the
// commands that run until they are stopped (fuzz, build, lsp).
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// oneLine flattens an error message for a one-line report.
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
