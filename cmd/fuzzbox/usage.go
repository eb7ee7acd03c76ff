package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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
// synopsis to stderr (usageError).
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
	inv.SetOutput(io.Discard)
	if c.testArgs {
		// go test's -C dir, first: the command runs in dir.
		rest, err := changeDir(args)
		if err != nil {
			return inv.usageError(err.Error())
		}
		args = rest
	}
	run := c.flags(inv.FlagSet)
	var err error
	if c.testArgs {
		err = inv.parseGoTest(args)
	} else {
		err = inv.Parse(args)
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.printUsage(stdout, inv.FlagSet)
		return exitOK
	case err != nil:
		return inv.usageError(oneLine(err))
	case inv.NArg() < c.minArgs:
		msg := "missing file arguments"
		if c.group != "" {
			msg = c.name + ": " + msg // the prefix names the group only
		}
		return inv.usageError(msg)
	}
	if c.testArgs { // a command that runs the test binary takes go test's flags from GOFLAGS, as go test does
		testArgs, err := driver.SetFromGOFLAGS(inv.FlagSet, driver.GOFLAGS(""))
		if err != nil {
			return inv.usageError(err.Error())
		}
		inv.testArgs = append(testArgs, inv.testArgs...)
	}
	return run(inv)
}

// changeDir does what go test's -C dir does, when it is args' first flag:
// it changes to dir, and returns the arguments after it.
func changeDir(args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	flag, dir, hasValue := strings.Cut(strings.TrimPrefix(args[0], "-"), "=")
	if flag != "-C" && flag != "C" {
		return args, nil
	}
	rest := args[1:]
	if !hasValue {
		if len(rest) == 0 {
			return nil, errors.New("flag needs an argument: -C")
		}
		dir, rest = rest[0], rest[1:]
	}
	if err := os.Chdir(dir); err != nil {
		return nil, fmt.Errorf("-C: %w", err)
	}
	return rest, nil
}

// parseGoTest parses the command line of a command that runs the test
// binary as go test parses its own (driver.ParseCommandLine): inv.Args()
// are then the packages. go test's build flags go to every go command the
// command starts (driver.UseBuildFlags).
func (inv *invocation) parseGoTest(args []string) error {
	cl, err := driver.ParseCommandLine(inv.FlagSet, args)
	if err != nil {
		return err
	}
	if len(cl.Refused) > 0 {
		return errors.New(cl.Refused[0])
	}
	inv.testArgs = cl.TestArgs
	if err := driver.UseBuildFlags(cl.BuildFlags); err != nil {
		return err
	}
	return inv.Parse(append([]string{"--"}, cl.Positional...))
}

// usageError prints "PREFIX: msg", the command's synopsis and where the
// rest is to stderr and returns the usage exit code. As with the go
// command, the error stays on the screen: the whole usage (a page, with
// every flag) is for -h.
func (inv *invocation) usageError(msg string) int {
	fmt.Fprintf(inv.stderr, "%s: %s\n%s\nRun '%s -h' for details.\n", inv.prefix, msg, inv.cmd.synopsis(), inv.Name())
	return exitUsage
}

// synopsis is the "usage:" lines of c: its usage's first paragraph, or for
// a subcommand its forms in the group's list ("  merge -fuzz=FuzzX ...   what
// it does").
func (c *command) synopsis() string {
	var forms []string
	if c.group != "" {
		for _, line := range strings.Split(c.usage, "\n") {
			form, _, _ := strings.Cut(strings.TrimSpace(line), "   ")
			listed := strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ")
			if listed && (form == c.name || strings.HasPrefix(form, c.name+" ")) {
				forms = append(forms, "fuzzbox "+c.group+" "+form)
			}
		}
	}
	if len(forms) == 0 {
		first, _, _ := strings.Cut(c.usage, "\n\n")
		return strings.TrimRight(first, "\n")
	}
	return "usage: " + strings.Join(forms, "\n       ")
}

// printUsage prints c's usage on -h, with the flags' defaults where it
// ends in "Flags:\n", and after a group's usage the subcommand's own flags
// (the list of subcommands gives the main ones only).
func (c *command) printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, c.usage)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	switch {
	case strings.HasSuffix(c.usage, "Flags:\n"):
	case c.group != "" && n > 0:
		fmt.Fprintf(w, "\nFlags of %s %s:\n", c.group, c.name)
	default:
		return
	}
	fs.SetOutput(w)
	fs.PrintDefaults()
}
