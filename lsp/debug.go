package lsp

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fuzzbox/fuzzbox/driver"
	"github.com/fuzzbox/fuzzbox/event"
	"github.com/fuzzbox/fuzzbox/lsp/command"
)

// Debugging one corpus file: fuzzbox.debugEntry answers how to run exactly
// that entry under Delve (the test binary's -test.run=^FuzzX$/^NAME$ and the
// dlv command line). The VS Code extension starts dlv dap with it (the
// client command fuzzbox.debug, on a "debug" lens of corpus files for
// clients that declare it); other clients show the command line.

func (s *Server) debugEntry(path string) (any, error) {
	dir, name := corpusTest(path)
	entry := filepath.Base(path)
	args := []string{"-test.run=^" + regexp.QuoteMeta(name) + "$/^" + event.EntryPattern(entry) + "$"}
	if s.opts.Short {
		args = append(args, "-test.short")
	}
	args = append(args, s.opts.TestArgs...)
	info := command.DebugInfo{Dir: dir, Test: name, Entry: entry, Args: args, BuildFlags: []string{}}
	if s.opts.Tags != "" {
		info.BuildFlags = append(info.BuildFlags, "-tags="+s.opts.Tags)
	}
	if s.opts.Vet != "" {
		info.BuildFlags = append(info.BuildFlags, "-vet="+s.opts.Vet)
	}
	for _, f := range s.opts.BuildFlags {
		if strings.ContainsAny(f, " \t") {
			f = "'" + f + "'" // as Delve's --build-flags splits (config.SplitQuotedFields)
		}
		info.BuildFlags = append(info.BuildFlags, f)
	}
	dlv := "dlv test "
	if len(info.BuildFlags) > 0 {
		dlv += "--build-flags=" + driver.ShellQuote(strings.Join(info.BuildFlags, " ")) + " "
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = driver.ShellQuote(a)
	}
	info.CommandLine = "cd " + driver.ShellQuote(dir) + " && " + dlv + ". -- " + strings.Join(quoted, " ")
	s.logMessage("debug %s/%s: %s", name, entry, info.CommandLine)
	return info, nil
}

// clientHandles reports whether the client said it runs client command name.
func (s *Server) clientHandles(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.init.ClientCommands {
		if c == name {
			return true
		}
	}
	return false
}
