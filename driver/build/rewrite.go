package build

// Source rewrites of standard packages in fuzzbox's builds: the runtime's
// wake-ups in the libFuzzer binaries (wakegate.go) and testing's per-input
// work (testingrewrite.go).

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// rewriteEach returns src with each pair's first string, which must occur
// exactly once, replaced by its second, behind a line directive that keeps
// path the file's name in positions (each replacement keeps its lines); or
// nil if a string does not occur exactly once (another Go release's source,
// which is then compiled as it is).
func rewriteEach(src []byte, path string, pairs ...[2]string) []byte {
	for _, p := range pairs {
		if bytes.Count(src, []byte(p[0])) != 1 {
			return nil
		}
	}
	for _, p := range pairs {
		src = bytes.Replace(src, []byte(p[0]), []byte(p[1]), 1)
	}
	return append([]byte("//line "+path+":1\n"), src...)
}

// replaceSource replaces the file pkgDir/name among a package's compiler
// arguments by the copy rewrite returns (given the source and its path),
// written to dir, and adds the file decl as declName beside it. It returns
// args as they are when the file is not among them or rewrite returns nil.
func replaceSource(args []string, dir, pkgDir, name string, rewrite func([]byte, string) []byte, declName, decl string) ([]string, error) {
	for i, a := range args[1:] {
		if filepath.Base(a) != name || filepath.Base(filepath.Dir(a)) != pkgDir {
			continue
		}
		src, err := os.ReadFile(a)
		if err != nil {
			return nil, fmt.Errorf("rewriting %s/%s: %w", pkgDir, name, err)
		}
		out := rewrite(src, a)
		if out == nil {
			return args, nil
		}
		file, declFile := filepath.Join(dir, name), filepath.Join(dir, declName)
		if err := os.WriteFile(file, out, 0o666); err != nil {
			return nil, fmt.Errorf("rewriting %s/%s: %w", pkgDir, name, err)
		}
		if err := os.WriteFile(declFile, []byte(decl), 0o666); err != nil {
			return nil, fmt.Errorf("rewriting %s/%s: %w", pkgDir, name, err)
		}
		args = slices.Clone(args)
		args[i+1] = file
		return append(args, declFile), nil
	}
	return args, nil
}
