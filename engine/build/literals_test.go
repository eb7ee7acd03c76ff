package build

import (
	"os"
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
