package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/fuzzbox/fuzzbox/driver"
)

// An invocation is one run of a command with flags: its parsed flag set and
// where it prints.
type invocation struct {
	*flag.FlagSet
	cmd            *command
	prefix         string // of error messages: "fuzzbox cover", "fuzzbox corpus"
	stdout, stderr io.Writer
	testArgs       []string // after -args, for a command with testArgs (driver.Config.TestArgs)
}

// main runs c with args, the arguments after its name. On -h it prints c's
// usage to stdout, on a bad flag or too few arguments the error and the
// usage to stderr.
func (c *command) main(args []string, stdout, stderr io.Writer) int {
	if c.flags == nil {
		return c.run(args, stdout, stderr)
	}
	// Top-level commands name themselves in errors; the subcommands of a
	// group share its usage and its prefix.
	name, prefix := "fuzzbox "+c.name, "fuzzbox "+c.name
	if c.group != "" {
		name, prefix = "fuzzbox "+c.group+" "+c.name, "fuzzbox "+c.group
	}
	inv := &invocation{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), cmd: c, prefix: prefix, stdout: stdout, stderr: stderr}
	if c.testArgs {
		args, inv.testArgs = driver.SplitTestArgs(args)
	}
	inv.SetOutput(io.Discard)
	run := c.flags(inv.FlagSet)
	err := inv.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.printUsage(stdout, inv.FlagSet)
		return exitOK
	case err != nil:
		return inv.usageError(oneLine(err))
	case inv.NArg() < c.minArgs:
		return inv.usageError(inv.Name() + ": missing file arguments")
	}
	if c.testArgs { // a command that runs the test binary takes go test's flags from GOFLAGS, as go test does
		if err := driver.SetFromGOFLAGS(inv.FlagSet, driver.GOFLAGS("")); err != nil {
			return inv.usageError(err.Error())
		}
	}
	return run(inv)
}

// usageError prints "PREFIX: msg" and the usage to stderr and returns the
// usage exit code.
func (inv *invocation) usageError(msg string) int {
	fmt.Fprintf(inv.stderr, "%s: %s\n", inv.prefix, msg)
	inv.cmd.printUsage(inv.stderr, inv.FlagSet)
	return exitUsage
}

func (c *command) printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, c.usage)
	if strings.HasSuffix(c.usage, "Flags:\n") {
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}
