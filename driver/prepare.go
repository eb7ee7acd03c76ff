package driver

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"

	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/event"
)

// prepare builds the packages of targets into fuzzing binaries under tmp,
// once per package, writes their dictionaries, and returns a result per
// target to record its turns in. A target that cannot run (its package does
// not build) gets its error in its result, and a warning says so, when
// others can: the run fuzzes them, as go test ./... tests the packages that
// build. When none can, prepare returns the first error. Each target that
// cannot run gets its done event.
func prepare(ctx context.Context, cfg Config, targets []Target, tmp string, s *stream) ([]*TargetResult, error) {
	b := &builds{cfg: cfg, tmp: tmp, s: s, bins: map[*pkgInfo]*fuzzBinary{}, errs: map[*pkgInfo]error{}}
	results := make([]*TargetResult, len(targets))
	var first error
	for i, t := range targets {
		fb, err := b.target(ctx, t)
		switch {
		case err != nil && ctx.Err() != nil:
			return stoppedBuilding(targets, t, s), nil
		case err != nil:
			first = cmp.Or(first, err)
			results[i] = &TargetResult{Target: t, Err: oneLine(err), ExitCode: ExitError}
		default:
			results[i] = &TargetResult{Target: t, bin: fb.bin, dict: fb.dict, twin: fb.twin}
		}
	}
	if first == nil {
		return results, nil
	}
	some := slices.ContainsFunc(results, func(r *TargetResult) bool { return r.Err == "" })
	for _, r := range results {
		if r.Err == "" {
			continue
		}
		if some {
			s.emit(event.Event{Type: event.Warning, Package: r.Package, Target: r.Name, Message: fmt.Sprintf("%s is not fuzzed: %s", r.Target, r.Err)})
		}
		r.endUnfuzzed(s, event.NotFuzzedError, r.Err)
	}
	if !some {
		return nil, first
	}
	return results, nil
}

// stoppedBuilding ends the run stopped (Ctrl-C) while the package of
// target at was built, as a stop while its tests run does: nothing was
// found, each target's done event says it was stopped, and no go test line
// follows. It returns the targets' results.
func stoppedBuilding(targets []Target, at Target, s *stream) []*TargetResult {
	s.output(at, "fuzzbox: the run was stopped while the fuzzing binary of "+at.Package+" was built\n")
	results := make([]*TargetResult, len(targets))
	for i, t := range targets {
		results[i] = &TargetResult{Target: t, stopped: true}
		results[i].endUnfuzzed(s, event.NotFuzzedStopped, "the run was stopped before fuzzing "+t.Name+" started")
	}
	return results
}

// buildQuiet is how long a package's build goes on before a build event
// says so (a cached one takes a second or two), buildInterval how often it
// says so again: the first build after a Go or fuzzbox update instruments
// the standard library, minutes on a small machine, and printed nothing.
// Tests shorten them.
var (
	buildQuiet    = 5 * time.Second
	buildInterval = 15 * time.Second
)

// builds are a run's fuzzing binaries, one per package, and the packages
// that did not build.
type builds struct {
	cfg  Config
	tmp  string // the run's work directory
	s    *stream
	bins map[*pkgInfo]*fuzzBinary
	errs map[*pkgInfo]error
}

// target returns the fuzzing binary of t's package, built on first use.
func (b *builds) target(ctx context.Context, t Target) (*fuzzBinary, error) {
	if t.pkg == nil {
		return nil, fmt.Errorf("%s: not a target Resolve returned", t)
	}
	if err := b.errs[t.pkg]; err != nil {
		return nil, err
	}
	fb, ok := b.bins[t.pkg]
	if !ok {
		why := "; a first build instruments the standard library too, a minute or two" // said once
		building := startNotice(b.s, buildQuiet, buildInterval, func(sofar time.Duration) event.Event {
			msg := fmt.Sprintf("building the fuzzing binary of %s (%s so far%s)", t.Package, sofar, why)
			why = ""
			return event.Event{Type: event.Build, Package: t.Package, Message: msg}
		})
		var err error
		fb, err = buildPackage(ctx, b.cfg, t.pkg, filepath.Join(b.tmp, fmt.Sprintf("pkg%d", len(b.bins)+len(b.errs))))
		building.end()
		if err != nil {
			b.errs[t.pkg] = err
			return nil, err
		}
		b.bins[t.pkg] = fb
		if fb.twinErr != nil {
			b.s.emit(event.Event{Type: event.Warning, Package: t.Package, Message: fb.twinErr.Error()})
		}
		if fb.skew != "" {
			b.s.emit(event.Event{Type: event.Warning, Package: t.Package, Message: fb.skew})
		}
	}
	if fb.names != nil && !slices.Contains(fb.names, t.Name) {
		// The source declares it; the binary does not list it.
		return nil, fmt.Errorf("the test binary of %s lists no fuzz test matching -fuzz=%s, though its source declares %s: does a TestMain return without calling m.Run?",
			t.Package, firstNonEmpty(b.cfg.Fuzz, "^"+t.Name+"$"), t.Name)
	}
	return fb, nil
}

// fuzzBinary is a package's fuzzing binary, ready to run.
type fuzzBinary struct {
	bin  string // the binary
	twin string // the same test built with -race (Config.RaceTwin); "" for none
	// twinErr says why the race twin asked for could not be built: the
	// package is fuzzed without it (a warning).
	twinErr error
	dict    string   // the run's dictionary file
	names   []string // the fuzz tests it lists; nil for a prebuilt binary (Resolve asked it)
	skew    string   // why its typed arguments may decode otherwise under go test (typedSkew), a warning
}

// buildPackage builds p into dir (unless it is a prebuilt binary), named as
// go test names it (the last element of its import path, then ".test":
// os.Args[0] of the code under test), its race twin into dir/race, and
// writes its dictionary into dir.
func buildPackage(ctx context.Context, cfg Config, p *pkgInfo, dir string) (*fuzzBinary, error) {
	if err := os.MkdirAll(filepath.Join(dir, "race"), 0o777); err != nil {
		return nil, fmt.Errorf("driver: %w", err)
	}
	name := path.Base(p.ImportPath)
	base := filepath.Join(dir, name)
	if p.binary != "" {
		dict, err := packageDict(cfg, func() [][]byte { return build.SourceLiterals(p.Dir, p.GoFiles) }, base+".dict")
		return &fuzzBinary{bin: p.binary, dict: dict}, err
	}
	toolexec, err := build.ToolexecCommand(cfg.Fuzzbox)
	if err != nil {
		return nil, err
	}
	opts := build.Options{Dir: p.Dir, Package: ".", Out: base + ".test", Race: cfg.Race, Tags: cfg.Tags, Vet: cfg.Vet, Toolexec: toolexec, Stderr: cfg.stderr()}
	twin := startTwinBuild(ctx, cfg, opts, filepath.Join(dir, "race", name+".test"))
	// The dictionary's go list and parsing (40-60 ms) go beside the build.
	dict, dictErr := base+".dict", make(chan error, 1)
	go func() {
		_, err := packageDict(cfg, func() [][]byte { return build.PackageLiterals(ctx, p.LiteralSource) }, dict)
		dictErr <- err
	}()
	res, err := cachedBuild(ctx, opts)
	twinBin, twinErr := twin()
	if derr := <-dictErr; err == nil {
		err = derr // the build's error first
	}
	if err != nil {
		return nil, err
	}
	names, err := listFuzzTests(ctx, res.Binary, "the fuzzing binary of "+p.ImportPath, p.Dir, cfg.userArgs())
	if names == nil && err == nil {
		names = []string{}
	}
	return &fuzzBinary{bin: res.Binary, twin: twinBin, twinErr: twinErr, dict: dict, names: names, skew: typedSkew(ctx, p)}, err
}

// startTwinBuild starts building the race twin of the fuzzing binary that
// opts builds (Config.RaceTwin) into out, beside the main build, and
// returns a function that waits for it and returns its path: "" when there
// is no twin (RaceTwin off, the whole run built with -race, or PruneOnly,
// which does not fuzz).
func startTwinBuild(ctx context.Context, cfg Config, opts build.Options, out string) func() (string, error) {
	if !cfg.RaceTwin || cfg.Race || cfg.PruneOnly {
		return func() (string, error) { return "", nil }
	}
	opts.Race, opts.Out, opts.Stderr = true, out, io.Discard // its failure is a warning
	done := make(chan struct{})
	var res *build.Result
	var err error
	go func() {
		defer close(done)
		res, err = cachedBuild(ctx, opts)
	}()
	return func() (string, error) {
		<-done
		if err != nil {
			return "", fmt.Errorf("fuzzing without the race twin: building the fuzz test with -race failed: %s", firstLineOf(err.Error()))
		}
		return res.Binary, nil
	}
}

// packageDict writes the run's dictionary for a package to path: the
// user's file plus the source literals (unless cfg.NoSourceDict), and
// returns path.
func packageDict(cfg Config, literals func() [][]byte, path string) (string, error) {
	var toks [][]byte
	if !cfg.NoSourceDict {
		toks = literals()
	}
	return path, writeDict(path, cfg.Dict, toks)
}
