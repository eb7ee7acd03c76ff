package build

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// goEnvFlags are go env's own flags. In GOFLAGS the go command applies a
// flag to every command that has it and ignores it elsewhere, so a -w that
// go test, go list and go build ignore (GOFLAGS="-ldflags=-s -w", which
// splits into -ldflags=-s and -w) reaches go env, which then refused
// -json ("cannot use -json with -w") and fuzzbox ran nothing where go test
// runs; -changed would drop the variables asked for, -u unset them.
var goEnvFlags = []string{"w", "u", "changed"}

// GoEnvEnviron returns environ, the environment of a go env command, with
// go env's own flags left out of its GOFLAGS (goEnvFlags); environ itself
// when it has none. Where environ's GOFLAGS is unset or empty, the go
// command reads the one go env -w wrote (UserGoEnv): those flags,
// filtered, are then added to environ, which the go command reads first.
func GoEnvEnviron(environ []string) []string {
	value, fromEnv := userGoEnv(environ, "GOFLAGS")
	words := splitGOFLAGS(value)
	kept := slices.DeleteFunc(slices.Clone(words), func(w string) bool {
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"), "=")
		return strings.HasPrefix(w, "-") && slices.Contains(goEnvFlags, name)
	})
	if len(kept) == len(words) {
		return environ
	}
	for k, w := range kept {
		if strings.ContainsAny(w, " \t\n\r") {
			q := "'"
			if strings.Contains(w, q) {
				q = `"`
			}
			kept[k] = q + w + q
		}
	}
	kv := "GOFLAGS=" + NonEmptyGOFLAGS(strings.Join(kept, " "))
	if !fromEnv {
		return append(slices.Clone(environ), kv)
	}
	out := slices.Clone(environ)
	out[lastIndex(out, "GOFLAGS")] = kv
	return out
}

// UserGoEnv returns the value the go command reads for key (GOFLAGS,
// GOWORK: a variable go env -w may set) in environ: environ's (the last)
// when not empty, else the one in the go command's configuration file.
func UserGoEnv(environ []string, key string) string {
	v, _ := userGoEnv(environ, key)
	return v
}

// userGoEnv is UserGoEnv, and whether the value is environ's.
func userGoEnv(environ []string, key string) (string, bool) {
	if i := lastIndex(environ, key); i >= 0 && environ[i] != key+"=" {
		return strings.TrimPrefix(environ[i], key+"="), true
	}
	return goEnvFileValue(environ, key), false
}

// lastIndex returns the index of key's last entry in environ (the one
// os/exec keeps), or -1.
func lastIndex(environ []string, key string) int {
	for i := len(environ) - 1; i >= 0; i-- {
		if strings.HasPrefix(environ[i], key+"=") {
			return i
		}
	}
	return -1
}

// NonEmptyGOFLAGS returns goflags, or " " for none: an empty GOFLAGS in the
// environment is unset for the go command, which then reads go env -w's,
// where a blank one means no flags.
func NonEmptyGOFLAGS(goflags string) string {
	if goflags == "" {
		return " "
	}
	return goflags
}

// goEnvFileValue returns key's value in the go command's configuration
// file (the one go env -w writes: $GOENV, or go/env in the user's
// configuration directory; none with GOENV=off), read as cmd/go reads it:
// KEY=VALUE lines, the last one counting, other lines ignored.
func goEnvFileValue(environ []string, key string) string {
	file := ""
	if i := lastIndex(environ, "GOENV"); i >= 0 {
		file = strings.TrimPrefix(environ[i], "GOENV=")
	}
	switch file {
	case "off":
		return ""
	case "":
		dir, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		file = filepath.Join(dir, "go", "env")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	value := ""
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), key+"="); ok {
			value = v
		}
	}
	return value
}

// splitGOFLAGS splits GOFLAGS into words as the go command does
// (cmd/internal/quoted.Split): at spaces, with single or double quotes
// around a whole word; an unterminated quote takes the rest.
func splitGOFLAGS(s string) []string {
	var words []string
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return words
		}
		if q := s[0]; q == '"' || q == '\'' {
			w, rest, _ := strings.Cut(s[1:], string(q))
			words, s = append(words, w), rest
			continue
		}
		end := strings.IndexAny(s, " \t\n\r")
		if end < 0 {
			end = len(s)
		}
		words, s = append(words, s[:end]), s[end:]
	}
}
