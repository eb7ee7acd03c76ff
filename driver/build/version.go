package build

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
)

// The Go releases fuzzbox supports: their testing package's deps interface
// (engine/fuzzmain implements it) and cmd/go's test main (RewriteTestmain
// rewrites it) are the ones fuzzbox is built and tested against. CI runs the
// end-to-end tests on both.
const (
	maxGoMinor    = 27 // newest tested: Go 1.27; the oldest supported is runtimeLang's
	SupportedGo   = "Go 1.26 and Go 1.27"
	goVersionHint = "set GOTOOLCHAIN=go1.27.4 (or any go1.26.x/go1.27.x) to have the go command fetch a supported toolchain"
)

// readEnv reads, in one go env run, the go command's version, the main
// module's go.mod (into g.gomod, for addRuntime), GOROOT (g.goroot), GOWORK
// (g.gowork), GOFLAGS (g.goflags) and GOTMPDIR (g.gotmpdir). It refuses a go command
// older than the supported releases, with a message that says what to do,
// instead of a compile or link error deep in the build, and returns the
// version, for the build's error messages.
func (g *goCmd) readEnv(ctx context.Context) (string, error) {
	// -json: the text form is what GOFLAGS=-json makes it.
	envCmd := *g
	if envCmd.env == nil {
		envCmd.env = os.Environ()
	}
	envCmd.env = GoEnvEnviron(envCmd.env)
	out, err := envCmd.output(ctx, "env", "-json", "GOVERSION", "GOMOD", "GOROOT", "GOWORK", "GOFLAGS", "GOTMPDIR")
	if err != nil {
		return "", fmt.Errorf("build: go env: %w", err)
	}
	var env map[string]string
	if err := json.Unmarshal(out, &env); err != nil {
		return "", fmt.Errorf("build: unexpected go env output %q: %w", out, err)
	}
	v := env["GOVERSION"]
	g.gomod, g.goroot, g.gowork, g.goflags, g.gotmpdir = env["GOMOD"], env["GOROOT"], env["GOWORK"], env["GOFLAGS"], env["GOTMPDIR"]
	return v, checkGoVersion(v)
}

// checkGoVersion fails for a go command older than the runtime's language
// version: the runtime uses the testing package's internals of that release.
func checkGoVersion(v string) error {
	oldest, _ := goMinor(runtimeLang)
	if minor, ok := goMinor(v); ok && minor < oldest {
		return fmt.Errorf("build: the go command here is %s, and fuzzbox supports %s; %s", v, SupportedGo, goVersionHint)
	}
	return nil
}

// untested returns a note for build errors under a Go release newer than
// the tested ones, or "".
func untested(v string) string {
	if minor, ok := goMinor(v); ok && minor > maxGoMinor {
		return fmt.Sprintf(" (fuzzbox is tested with %s; %s is newer and may not be supported yet: %s)", SupportedGo, v, goVersionHint)
	}
	return ""
}
