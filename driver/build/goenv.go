package build

import (
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
// when it has none. GOFLAGS set by go env -w alone is not read here.
func GoEnvEnviron(environ []string) []string {
	i := slices.IndexFunc(environ, func(kv string) bool { return strings.HasPrefix(kv, "GOFLAGS=") })
	for j := i + 1; i >= 0 && j < len(environ); j++ {
		if strings.HasPrefix(environ[j], "GOFLAGS=") {
			i = j // the last one counts, as for os/exec
		}
	}
	if i < 0 {
		return environ
	}
	words := splitGOFLAGS(strings.TrimPrefix(environ[i], "GOFLAGS="))
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
	out := slices.Clone(environ)
	out[i] = "GOFLAGS=" + strings.Join(kept, " ")
	return out
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
