package build

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestSourceLiteralsSkipsImports: import paths, in every form of import
// declaration, are not dictionary tokens; the literals around them are.
func TestSourceLiteralsSkipsImports(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nimport \"fmt\"\nimport o \"os\"\nimport (\n\t\"strings\"\n\t. \"math\"\n\t_ \"embed\"\n\ts2 \"strconv\"\n)\n\n" +
		"var a = \"first\"\n\nfunc f() { fmt.Println(o.Args, strings.ToUpper(\"import\"), Pi, s2.Itoa(1), 'x', \"\\x00\\x01\") }\n\nconst b = `raw-lit`\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tok := range SourceLiterals(dir, []string{"p.go"}) {
		got = append(got, string(tok))
	}
	if want := []string{"first", "import", "\x00\x01", "raw-lit"}; !slices.Equal(got, want) {
		t.Errorf("literals %q, want %q", got, want)
	}
}

// TestSourceLiteralsRegexpPieces: a pattern given to regexp's functions
// adds its literal pieces, which the matcher looks for with strings.Index;
// another string with regexp syntax adds none.
func TestSourceLiteralsRegexpPieces(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nimport \"regexp\"\n\nvar varPattern = regexp.MustCompile(`%\\(([^\\)]+)\\)s`)\n\n" +
		"var ok = regexp.MustCompile(\"^key=(yes|no)$\").MatchString\n\nvar notRE = \"f(x)y\"\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tok := range SourceLiterals(dir, []string{"p.go"}) {
		got = append(got, string(tok))
	}
	if want := []string{`%\(([^\)]+)\)s`, "%(", ")s", "^key=(yes|no)$", "key=", "yes", "no", "f(x)y"}; !slices.Equal(got, want) {
		t.Errorf("literals %q, want %q", got, want)
	}
}

// TestPackageLiterals: the dictionary holds the package's own literals
// first, then those of the packages outside the standard library that it or
// its tests import (here a parser in another package, with the keyword its
// bug hides behind), and none of the standard library's or of a package it
// does not import.
func TestPackageLiterals(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.26\n",
		"fmtx/fmtx.go":     "package fmtx\n\nfunc Parse(s string) bool { return s == \"zebra-keyword\" || s == \"own-literal\" }\n",
		"p/p.go":           "package p\n\nimport \"strings\"\n\nfunc Trim(s string) string { return strings.TrimPrefix(s, \"own-literal\") }\n",
		"p/p_test.go":      "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/fmtx\"\n\t\"example.com/m/p\"\n)\n\nfunc FuzzX(f *testing.F) {\n\tf.Add(\"seed-literal\")\n\tf.Fuzz(func(t *testing.T, s string) { fmtx.Parse(p.Trim(s)) })\n}\n",
		"unused/unused.go": "package unused\n\nconst K = \"not-imported\"\n",
	})
	cmd := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,TestGoFiles,XTestGoFiles,Imports,TestImports,XTestImports", ".")
	cmd.Dir = filepath.Join(dir, "p")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var p LiteralSource
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tok := range PackageLiterals(context.Background(), p) {
		got = append(got, string(tok))
	}
	if want := []string{"own-literal", "seed-literal", "zebra-keyword"}; !slices.Equal(got, want) {
		t.Errorf("dictionary %q, want %q (own literals, then imported non-std packages', each once)", got, want)
	}
}
