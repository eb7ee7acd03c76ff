package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMirrorPackage: the mirror a coverage run builds copies the package's
// files and seed corpora and links everything else, files beside the
// corpus directories in testdata/fuzz too (klauspost/compress's tests read
// testdata/fuzz/*.zip: fuzzbox cover failed where go test passes).
func TestMirrorPackage(t *testing.T) {
	mod := t.TempDir()
	writeTestFiles(t, mod, map[string]string{
		"go.mod":                     "module example.com/m\n\ngo 1.26\n",
		"shared/data.txt":            "shared",
		"p/x.go":                     "package p\n",
		"p/testdata/golden.txt":      "golden",
		"p/testdata/fuzz/inputs.zip": "zip",
		"p/testdata/fuzz/FuzzX/seed": "go test fuzz v1\nint(1)\n",
	})
	dir, err := mirrorPackage(filepath.Join(mod, "p"), mod, filepath.Join(t.TempDir(), "src"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"x.go":                     "package p\n",
		"../shared/data.txt":       "shared",
		"testdata/golden.txt":      "golden",
		"testdata/fuzz/inputs.zip": "zip",
		"testdata/fuzz/FuzzX/seed": "go test fuzz v1\nint(1)\n",
	} {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != want {
			t.Errorf("%s in the mirror: %q, %v; want %q", name, got, err, want)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "testdata/fuzz/FuzzX")); err != nil || !fi.IsDir() {
		t.Errorf("the seed corpus is not a directory of its own in the mirror: %v, %v", fi, err)
	}
}
