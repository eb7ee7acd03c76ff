package build

import (
	"fmt"
	"os"
	"strings"
)

// The go command passes long tool command lines in a response file, an
// argument "@file" holding one argument per line with backslash and newline
// escaped (cmd/go/internal/work encodeArg, cmd/internal/objabi expandArgs).

// expandResponseFiles replaces each "@file" argument (after the tool path)
// by the arguments it holds. rsp is the last response file read, "" if none.
func expandResponseFiles(args []string) (out []string, rsp string, err error) {
	out = []string{args[0]}
	for _, a := range args[1:] {
		name, ok := strings.CutPrefix(a, "@")
		if !ok {
			out = append(out, a)
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, "", fmt.Errorf("reading response file: %w", err)
		}
		text := strings.TrimSpace(strings.ReplaceAll(string(data), "\r", ""))
		for _, line := range strings.Split(text, "\n") {
			out = append(out, decodeArg(line))
		}
		rsp = name
	}
	return out, rsp, nil
}

// writeResponseFile writes args[1:] to a new response file in dir and
// returns the command line that passes it.
func writeResponseFile(args []string, dir string) ([]string, error) {
	var b strings.Builder
	for _, a := range args[1:] {
		b.WriteString(encodeArg(a))
		b.WriteByte('\n')
	}
	f, err := os.CreateTemp(dir, "fuzzbox-args-*")
	if err != nil {
		return nil, fmt.Errorf("writing response file: %w", err)
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("writing response file: %w", err)
	}
	return []string{args[0], "@" + f.Name()}, nil
}

func encodeArg(a string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(a)
}

func decodeArg(a string) string {
	if !strings.Contains(a, `\`) {
		return a
	}
	var b strings.Builder
	for i := 0; i < len(a); i++ {
		if a[i] == '\\' && i+1 < len(a) {
			i++
			if a[i] == 'n' {
				b.WriteByte('\n')
				continue
			}
		}
		b.WriteByte(a[i])
	}
	return b.String()
}
