package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// typedSkew returns why a package whose tests import package typed would
// decode typed arguments one way in the fuzzing binary and another under go
// test, or "": the fuzzing build replaces the module github.com/fuzzbox/fuzzbox
// with this fuzzbox's runtime source (driver/build), so its typed package is
// this fuzzbox's, while go test builds the one the package's module
// requires. A reproducer written by one may then decode to other values
// under the other (a version of the encoding one lacks).
func typedSkew(ctx context.Context, p *pkgInfo) string {
	if !slices.Contains(p.TestImports, typedImport) && !slices.Contains(p.XTestImports, typedImport) {
		return ""
	}
	out, err := goOutput(ctx, p.Dir, "list", "-m", "-json", "github.com/fuzzbox/fuzzbox")
	var m struct {
		Path, Version, Dir string
		Main               bool
		Replace            *struct{ Path, Version string }
	}
	if err != nil || json.Unmarshal(out, &m) != nil || m.Main || m.Dir == "" {
		return "" // fuzzbox's own tests, or nothing to compare with
	}
	if build.SameTypedSource(os.DirFS(m.Dir)) {
		return ""
	}
	return fmt.Sprintf("the module requires github.com/fuzzbox/fuzzbox %s, whose package typed is not this fuzzbox's: "+
		"the fuzzing binary decodes typed arguments with this fuzzbox's and go test with the module's, so a reproducer may "+
		"decode to other values under go test; run the module's own fuzzbox (go run github.com/fuzzbox/fuzzbox/cmd/fuzzbox) "+
		"or require this fuzzbox's version", moduleVersion(m.Version, m.Replace))
}

// moduleVersion is how go.mod names a required module's version: v1.2.3,
// or v0.0.0 => ../fuzzbox when it is replaced.
func moduleVersion(v string, r *struct{ Path, Version string }) string {
	if r == nil {
		return v
	}
	return strings.TrimSpace(v + " => " + r.Path + " " + r.Version)
}
