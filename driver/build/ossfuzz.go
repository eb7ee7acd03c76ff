package build

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// OSSFuzzOptions configures WriteOSSFuzz. The zero value sets up the module
// in the current directory.
type OSSFuzzOptions struct {
	Dir     string // the module's directory; "" means the current directory
	Name    string // the project name; "" means the last element of the module path
	Version string // the fuzzbox version the Dockerfile installs; "" means "latest"
	Force   bool   // overwrite existing files (the -force of "fuzzbox oss-fuzz init")
	Tags    string // build tags (comma-separated) build.sh lists and builds the packages with
}

// ossFuzzFiles are the files of the setup, relative to the module directory,
// in the order WriteOSSFuzz writes them.
var ossFuzzFiles = []string{".clusterfuzzlite/build.sh", ".clusterfuzzlite/project.yaml", ".clusterfuzzlite/Dockerfile"}

// WriteOSSFuzz writes a ClusterFuzzLite setup for the module in opts.Dir,
// .clusterfuzzlite/{build.sh,project.yaml,Dockerfile} (for OSS-Fuzz, the
// same three files go to projects/NAME/ of google/oss-fuzz), whose build.sh
// runs "fuzzbox build -libfuzzer" (BuildLibFuzzer) on every package with fuzz
// tests; "fuzzbox oss-fuzz init" calls it. An existing file is an error
// unless opts.Force. It returns the paths written, also when it fails part
// way through.
func WriteOSSFuzz(ctx context.Context, opts OSSFuzzOptions) ([]string, error) {
	files, err := ossFuzzSetup(ctx, opts)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, rel := range ossFuzzFiles {
		p := filepath.Join(opts.Dir, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil && !opts.Force {
			return written, fmt.Errorf("%s exists (-force overwrites it)", p)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return written, err
		}
		if err := os.WriteFile(p, []byte(files[rel]), 0o755); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	return written, nil
}

// ossFuzzSetup returns the contents of ossFuzzFiles for the module.
func ossFuzzSetup(ctx context.Context, opts OSSFuzzOptions) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Path}}")
	cmd.Dir = opts.Dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("finding the module in %s: %w", opts.Dir, err)
	}
	name, version := opts.Name, opts.Version
	if name == "" {
		name = path.Base(strings.TrimSpace(string(bytes.SplitN(out, []byte("\n"), 2)[0])))
	}
	if version == "" {
		version = "latest"
	}
	return map[string]string{
		".clusterfuzzlite/build.sh":     ossFuzzBuildSh(name, opts.Tags),
		".clusterfuzzlite/project.yaml": "language: go\n",
		".clusterfuzzlite/Dockerfile":   ossFuzzDockerfile(name, version),
	}, nil
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
// fuzzbox build links with $CXX $CXXFLAGS $LIB_FUZZING_ENGINE. It finds the
// fuzz tests in the test files go list gives with the tags (one in a file
// they exclude stopped the build of a package whose other test files they
// keep, and with it the script), and names a fuzz test whose name another
// package's took after its package too (a second FuzzCompress replaced the
// first's binary and files).
func ossFuzzBuildSh(name, tags string) string {
	return `#!/bin/bash -eu
# Written by fuzzbox oss-fuzz init (docs/oss-fuzz.md): builds every fuzz test
# of the module into $OUT with "fuzzbox build -libfuzzer" (binary, seed corpus
# zip with the f.Add and testdata seeds, dictionary, options).
set -eu
cd "$SRC/` + name + `"
export CGO_ENABLED=1
tags="` + tags + `" # build tags (fuzzbox oss-fuzz init -tags)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/names"
# Each package with test files, and those files, as go list gives them with
# the tags: a fuzz test in a file they exclude is not built.
go list ${tags:+-tags="$tags"} -f '{{if or .TestGoFiles .XTestGoFiles}}{{.Dir}}{{range .TestGoFiles}} {{.}}{{end}}{{range .XTestGoFiles}} {{.}}{{end}}{{end}}' ./... >"$work/packages"
while read -r dir files; do
	[ -n "$dir" ] || continue
	# A fuzz test's name, as go test reads it: Fuzz, then nothing or not a
	# lower-case letter (Fuzzy is not one).
	(cd "$dir" && grep -qE '^func Fuzz([^a-z(][A-Za-z0-9_]*)?\(' $files) || continue
	rm -rf "$work/out"
	if ! (cd "$dir" && fuzzbox build -libfuzzer ${tags:+-tags="$tags"} -o "$work/out" . 2>"$work/err"); then
		cat "$work/err" >&2
		# A line that only looks like one (in a string): not a fuzz test.
		grep -q '^fuzzbox build: build: no fuzz test of ' "$work/err" && continue
		exit 1
	fi
	cat "$work/err" >&2
	rel=$(realpath --relative-to="$PWD" "$dir")
	[ "$rel" != . ] || rel=$(basename "$PWD")
	for bin in "$work"/out/*; do
		n=$(basename "$bin")
		case "$n" in *.*) continue ;; esac # the binaries: FuzzX, not FuzzX.dict
		target=$n
		if grep -qxF "$n" "$work/names"; then
			# Another package has a fuzz test of this name: this one is
			# named after its package too (dir/sub: dir_sub_FuzzX).
			target=$(echo "$rel" | tr '/.-' '___')_$n
			echo "fuzzbox: $n of $rel is built as $target: another package has a fuzz test of that name" >&2
		fi
		echo "$n" >>"$work/names"
		for f in "$n" "${n}_seed_corpus.zip" "$n.dict" "$n.options"; do
			[ ! -e "$work/out/$f" ] || mv "$work/out/$f" "$OUT/${target}${f#"$n"}"
		done
		if [ "$target" != "$n" ] && [ -e "$OUT/$target.options" ]; then
			# Its .options names its own dictionary, not the other's.
			sed -i "s/^dict = $n\.dict\$/dict = $target.dict/" "$OUT/$target.options"
		fi
	done
done <"$work/packages"
`
}
