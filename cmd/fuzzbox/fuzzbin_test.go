package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// TestFuzzPrebuiltBinary: fuzzbox fuzz -bin fuzzes a fuzzing binary built
// elsewhere (here by driver/build, as the Bazel rules build theirs) with the
// same events, and writes the reproducer into the package directory given.
func TestFuzzPrebuiltBinary(t *testing.T) {
	fuzzbox := e2eBin(t)
	dir := e2eModule(t, "targets")
	bin := filepath.Join(t.TempDir(), "targets.fuzz")
	res, err := build.Build(context.Background(), build.Options{Dir: dir, Out: bin, Toolexec: []string{fuzzbox, "toolexec"}})
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir() // fuzzbox runs elsewhere: the argument names the package directory
	r := e2eFuzz(t, work, "-json", "-bin="+res.Binary, "-fuzz=^FuzzPanic$", "-fuzztime=60s", dir)
	if r.code != 1 {
		t.Fatalf("want exit 1\n%s", r)
	}
	evs := e2eEvents(t, r.stdout)
	i := e2eFirstOfType(evs, "failure")
	if i < 0 || evs[i].Kind != "panic" || evs[i].Package != "example.com/targets" {
		t.Fatalf("want a panic failure of example.com/targets\n%s", r)
	}
	names := e2eReproducers(t, dir, "FuzzPanic")
	if len(names) != 1 || !strings.HasSuffix(evs[i].Reproducer, names[0]) {
		t.Fatalf("reproducers %v, failure event names %s", names, evs[i].Reproducer)
	}
	if out := e2eReplay(t, dir, "FuzzPanic", names[0]); !strings.Contains(out, "fuzzbox-e2e: boom") {
		t.Errorf("stock go test replay does not fail with the panic:\n%s", out)
	}
}

// TestFuzzStockBinaryRefused: a test binary linked with the stock test main
// is refused with a reason, not a flag error from deep inside.
func TestFuzzStockBinaryRefused(t *testing.T) {
	e2eBin(t)
	dir := e2eModule(t, "targets")
	bin := filepath.Join(t.TempDir(), "stock.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	r := e2eFuzz(t, dir, "-bin="+bin, "-fuzz=^FuzzPanic$", "-fuzztime=5s", ".")
	if r.code != 2 || !strings.Contains(r.stderr, "is not a fuzzbox fuzzing binary") {
		t.Errorf("want exit 2 saying the binary is not a fuzzbox fuzzing binary\n%s", r)
	}
}

// TestFuzzPrebuiltBinaryTestsFail: with -bin there may be no go command able
// to build the package (Bazel), so a test failing before fuzzing is not
// checked with go test: fuzzbox says which failed and where to look, exit 1.
func TestFuzzPrebuiltBinaryTestsFail(t *testing.T) {
	fuzzbox := e2eBin(t)
	dir := e2eModule(t, "fuzzboxonly")
	bin := filepath.Join(t.TempDir(), "only.fuzz")
	res, err := build.Build(context.Background(), build.Options{Dir: dir, Out: bin, Toolexec: []string{fuzzbox, "toolexec"}})
	if err != nil {
		t.Fatal(err)
	}
	r := e2eFuzz(t, t.TempDir(), "-bin="+res.Binary, "-fuzz=^FuzzFine$", "-fuzztime=100x", dir)
	if r.code != 1 || !strings.Contains(r.stdout, "TestFailsOnlyInFuzzbox, TestCrashesOnlyInFuzzbox failed in it; run the package's tests with your build system") ||
		strings.Contains(r.stdout, "checking with go test") {
		t.Errorf("want exit 1 and the failing tests named, without a go test check\n%s", r)
	}
}
