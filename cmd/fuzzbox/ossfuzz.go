package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

func init() {
	register(&command{name: "oss-fuzz",
		short: "write a ClusterFuzzLite/OSS-Fuzz setup that builds the module's fuzz tests with fuzzbox",
		run:   runOSSFuzz})
}

const ossFuzzUsage = `usage: fuzzbox oss-fuzz init [-dir DIR] [-name NAME] [-version V] [-force]

Init writes DIR/.clusterfuzzlite/{build.sh,project.yaml,Dockerfile} for the
module in DIR (default "."): a ClusterFuzzLite setup (copy the three files to
projects/NAME/ of google/oss-fuzz for OSS-Fuzz) whose build.sh runs
"fuzzbox build -libfuzzer" on every package with fuzz tests, so that the
binaries get the f.Add and testdata seeds, the dictionaries and options, and
their crashes convert back with "fuzzbox corpus import -from-libfuzzer"
(docs/oss-fuzz.md).

Flags:
`

// runOSSFuzz implements "fuzzbox oss-fuzz init".
func runOSSFuzz(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "init" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "help") {
			fmt.Fprint(stdout, ossFuzzUsage)
			return exitOK
		}
		fmt.Fprint(stderr, "fuzzbox oss-fuzz: want the subcommand init\n"+ossFuzzUsage)
		return exitUsage
	}
	fs := flag.NewFlagSet("oss-fuzz init", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", ".", "module `DIR`")
	name := fs.String("name", "", "project `NAME` (default: the last element of the module path)")
	version := fs.String("version", "latest", "fuzzbox `version` the Dockerfile installs")
	force := fs.Bool("force", false, "overwrite existing files")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, ossFuzzUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return exitOK
		}
		fmt.Fprintf(stderr, "fuzzbox oss-fuzz init: bad arguments\n%s", ossFuzzUsage)
		return exitUsage
	}
	files, err := ossFuzzFiles(*dir, *name, *version)
	if err == nil {
		err = writeOSSFuzzFiles(*dir, files, *force, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "fuzzbox oss-fuzz init: %s\n", oneLine(err))
		return exitUsage
	}
	return exitOK
}

// ossFuzzFiles returns the setup files for the module in dir, by path
// relative to dir.
func ossFuzzFiles(dir, name, version string) (map[string]string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Path}}")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("finding the module in %s: %w", dir, err)
	}
	modPath := strings.TrimSpace(string(bytes.SplitN(out, []byte("\n"), 2)[0]))
	if name == "" {
		name = path.Base(modPath)
	}
	return map[string]string{
		".clusterfuzzlite/build.sh":     ossFuzzBuildSh(name),
		".clusterfuzzlite/project.yaml": "language: go\n",
		".clusterfuzzlite/Dockerfile":   ossFuzzDockerfile(name, version),
	}, nil
}

func writeOSSFuzzFiles(dir string, files map[string]string, force bool, stdout io.Writer) error {
	for _, rel := range []string{".clusterfuzzlite/build.sh", ".clusterfuzzlite/project.yaml", ".clusterfuzzlite/Dockerfile"} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil && !force {
			return fmt.Errorf("%s exists (-force overwrites it)", p)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(files[rel]), 0o755); err != nil {
			return err
		}
		fmt.Fprintln(stdout, p)
	}
	return nil
}

func ossFuzzDockerfile(name, version string) string {
	return `# Written by fuzzbox oss-fuzz init (docs/oss-fuzz.md).
FROM gcr.io/oss-fuzz-base/base-builder-go
# fuzzbox needs Go 1.26 or newer; GOTOOLCHAIN=auto lets the go command fetch it.
ENV GOTOOLCHAIN=auto
RUN go install github.com/fuzzbox/fuzzbox/cmd/fuzzbox@` + version + `
COPY . $SRC/` + name + `
WORKDIR $SRC/` + name + `
COPY .clusterfuzzlite/build.sh $SRC/
`
}

// ossFuzzBuildSh is the build script. OSS-Fuzz's base images set $SRC, $OUT,
// $CC, $CXX, $CFLAGS, $CXXFLAGS (with the sanitizer) and $LIB_FUZZING_ENGINE;
// fuzzbox build links with $CXX $CXXFLAGS $LIB_FUZZING_ENGINE.
func ossFuzzBuildSh(name string) string {
	return `#!/bin/bash -eu
# Written by fuzzbox oss-fuzz init (docs/oss-fuzz.md): builds every fuzz test
# of the module into $OUT with "fuzzbox build -libfuzzer" (binary, seed corpus
# zip with the f.Add and testdata seeds, dictionary, options).
set -eu
cd "$SRC/` + name + `"
export CGO_ENABLED=1
for dir in $(go list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}}{{end}}' ./...); do
	if grep -qE '^func Fuzz[^a-z]?[A-Za-z0-9_]*\(' "$dir"/*_test.go; then
		(cd "$dir" && fuzzbox build -libfuzzer -o "$OUT" .)
	fi
done
`
}
