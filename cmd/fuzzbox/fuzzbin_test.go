package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFuzzStockBinaryRefused: fuzzbox fuzz -bin with a test binary linked
// with the stock test main is a usage error (exit 2) giving the reason, not
// a flag error from deep inside (the driver's TestResolveStockBinary checks
// the refusal; ../../driver/fuzzrun_test.go fuzzes prebuilt binaries).
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
