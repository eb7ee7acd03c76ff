package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// parseCommand parses the flags of a subcommand whose usage is text
// followed by its flags' defaults: on -h it prints that usage to stdout, on
// a bad flag the error and the usage to stderr. ok is false when the
// subcommand must return code.
func parseCommand(fs *flag.FlagSet, args []string, text string, stdout, stderr io.Writer) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printUsage(stdout, fs, text)
		return exitOK, false
	case err != nil:
		return usageError(stderr, fs, text, err.Error()), false
	}
	return 0, true
}

// usageError prints "fuzzbox NAME: msg" and the usage to stderr and
// returns the usage exit code.
func usageError(stderr io.Writer, fs *flag.FlagSet, text, msg string) int {
	fmt.Fprintf(stderr, "fuzzbox %s: %s\n", fs.Name(), msg)
	printUsage(stderr, fs, text)
	return exitUsage
}

func printUsage(w io.Writer, fs *flag.FlagSet, text string) {
	fmt.Fprint(w, text)
	fs.SetOutput(w)
	fs.PrintDefaults()
}
