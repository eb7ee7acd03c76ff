package corpus

// Differential tests against the real Go toolchain: a temporary module whose
// fuzz functions check, bit for bit, the values stock "go test" hands them
// from files in testdata/fuzz. Skipped with -short (they compile with go).

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// goTool returns the go command, or skips the test.
func goTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command; skipped with -short")
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	return p
}

// newModule creates a module with the given test source.
func newModule(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "go.mod"), "module fuzzcheck\n\ngo 1.22\n")
	mustWrite(t, filepath.Join(dir, "fuzz_test.go"), src)
	return dir
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
}

func goTest(t *testing.T, goBin, dir string, args ...string) (string, error) {
	cmd := exec.Command(goBin, append([]string{"test"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

const checkHelpers = `package fuzzcheck

import (
	"bytes"
	"math"
	"testing"
)

var _ = math.Pi
var _ = bytes.Equal

func eq[T comparable](t *testing.T, i int, got, want T) {
	if got != want {
		t.Errorf("value %d = %#v, want %#v", i, got, want)
	}
}

func eqBytes(t *testing.T, i int, got []byte, want string) {
	if !bytes.Equal(got, []byte(want)) || got == nil {
		t.Errorf("value %d = %q, want %q", i, got, want)
	}
}
`

// TestToolchainAgrees writes every case of parseCases into a temporary module
// and runs stock go test once. Accepted cases (as written, and as
// re-encoded by Marshal and written by Write) must reach a fuzz function that
// checks their exact values; rejected cases must be reported as unmarshal
// errors by the toolchain.
func TestToolchainAgrees(t *testing.T) {
	goBin := goTool(t)
	var src strings.Builder
	src.WriteString(checkHelpers)
	src.WriteString("\nfunc FuzzReject(f *testing.F) { f.Fuzz(func(t *testing.T, a int) {}) }\n")
	type file struct {
		path, data string
		write      bool // write Marshal(values of data) with Write instead
	}
	var files []file
	add := func(path, data string) { files = append(files, file{path, data, false}) }
	var accepted []string
	var hashes = map[string]string{}
	for i, tc := range parseCases {
		if tc.reject {
			add(fmt.Sprintf("FuzzReject/r%d", i), tc.in)
			continue
		}
		vals, err := Unmarshal([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.desc, err)
		}
		name := fmt.Sprintf("FuzzAccept%d", i)
		accepted = append(accepted, name)
		src.WriteString(acceptTarget(name, vals))
		add(name+"/case", tc.in)
		canon, _ := Marshal(vals...)
		hashes[name] = Name(canon)
		files = append(files, file{name + "/" + Name(canon), tc.in, true})
	}
	mod := newModule(t, src.String())
	for _, f := range files {
		dir := filepath.Join(mod, "testdata", "fuzz", filepath.Dir(f.path))
		if !f.write {
			mustWrite(t, filepath.Join(dir, filepath.Base(f.path)), f.data)
			continue
		}
		vals, _ := Unmarshal([]byte(f.data))
		canon, _ := Marshal(vals...)
		if _, err := Write(dir, canon); err != nil {
			t.Fatal(err)
		}
	}
	out, _ := goTest(t, goBin, mod, "-run=^Fuzz", "-v", ".")
	for _, name := range accepted {
		for _, file := range []string{"case", hashes[name]} {
			if !strings.Contains(out, "--- PASS: "+name+"/"+file+" ") {
				t.Errorf("%s (%s): toolchain did not pass %s", name, caseOf(name).desc, file)
			}
		}
	}
	for i, tc := range parseCases {
		if tc.reject && !regexp.MustCompile(fmt.Sprintf(`FuzzReject/r%d": unmarshal:`, i)).MatchString(out) {
			t.Errorf("%s: toolchain did not reject it as malformed", tc.desc)
		}
	}
	if t.Failed() {
		t.Logf("go test output:\n%s", out)
	}
}

func caseOf(target string) parseCase {
	var i int
	fmt.Sscanf(target, "FuzzAccept%d", &i)
	return parseCases[i]
}

// acceptTarget returns a fuzz function checking it receives exactly vals.
func acceptTarget(name string, vals []any) string {
	var params, checks []string
	for i, v := range vals {
		params = append(params, fmt.Sprintf("a%d %s", i, reflect.TypeOf(v)))
		checks = append(checks, checkExpr(i, v))
	}
	return fmt.Sprintf("\nfunc %s(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, %s) {\n\t\t%s\n\t})\n}\n",
		name, strings.Join(params, ", "), strings.Join(checks, "\n\t\t"))
}

func checkExpr(i int, v any) string {
	switch v := v.(type) {
	case []byte:
		return fmt.Sprintf("eqBytes(t, %d, a%d, %q)", i, i, v)
	case string:
		return fmt.Sprintf("eq(t, %d, a%d, %q)", i, i, v)
	case float64:
		return fmt.Sprintf("eq(t, %d, math.Float64bits(a%d), %#x)", i, i, math.Float64bits(v))
	case float32:
		return fmt.Sprintf("eq(t, %d, math.Float32bits(a%d), %#x)", i, i, math.Float32bits(v))
	}
	return fmt.Sprintf("eq(t, %d, a%d, %T(%v))", i, i, v, v)
}

// TestToolchainWrites makes stock "go test -fuzz" write a crasher whose values
// are mostly chosen edge cases (the seed, with one argument mutated), then
// checks that Unmarshal reads the values the fuzz function reported and that
// Marshal prints the file back byte for byte.
func TestToolchainWrites(t *testing.T) {
	goBin := goTool(t)
	mod := newModule(t, strings.ReplaceAll(genTarget, "SEEDS", genSeeds))
	out, err := goTest(t, goBin, mod, "-run=^$", "-fuzz=^FuzzGen$", "-fuzztime=60s", "-fuzzminimizetime=0x", "-parallel=1", ".")
	m := regexp.MustCompile(`Failing input written to (testdata/fuzz/FuzzGen/[0-9a-f]+)`).FindStringSubmatch(out)
	if err == nil || m == nil {
		t.Fatalf("go test -fuzz did not write a failing input (err %v):\n%s", err, out)
	}
	reported := regexp.MustCompile(`GOT (.*)`).FindStringSubmatch(out)
	data, err := os.ReadFile(filepath.Join(mod, m[1]))
	if err != nil || reported == nil {
		t.Fatalf("reading crasher: %v\n%s", err, out)
	}
	t.Logf("toolchain wrote %s:\n%s", m[1], data)
	vals, err := Unmarshal(data)
	if err != nil {
		t.Fatalf("Unmarshal of toolchain file: %v\n%s", err, data)
	}
	if got := describe(vals); got != reported[1] {
		t.Errorf("decoded values\n%s\nfuzz function saw\n%s", got, reported[1])
	}
	if again, _ := Marshal(vals...); !bytes.Equal(again, data) {
		t.Errorf("Marshal differs from the toolchain's file:\n%s\nwant:\n%s", again, data)
	}
}

// describe spells values exactly; genTarget's describe must match it.
func describe(vals []any) string {
	var parts []string
	for _, v := range vals {
		switch v := v.(type) {
		case []byte:
			parts = append(parts, fmt.Sprintf("%x", v))
		case string:
			parts = append(parts, fmt.Sprintf("%x", v))
		case float64:
			parts = append(parts, fmt.Sprintf("%x", math.Float64bits(v)))
		case float32:
			parts = append(parts, fmt.Sprintf("%x", math.Float32bits(v)))
		default:
			parts = append(parts, fmt.Sprintf("%v", v))
		}
	}
	return strings.Join(parts, " ")
}

const genTarget = `package fuzzcheck

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func describe(vals ...any) string {
	var parts []string
	for _, v := range vals {
		switch v := v.(type) {
		case []byte:
			parts = append(parts, fmt.Sprintf("%x", v))
		case string:
			parts = append(parts, fmt.Sprintf("%x", v))
		case float64:
			parts = append(parts, fmt.Sprintf("%x", math.Float64bits(v)))
		case float32:
			parts = append(parts, fmt.Sprintf("%x", math.Float32bits(v)))
		default:
			parts = append(parts, fmt.Sprintf("%v", v))
		}
	}
	return strings.Join(parts, " ")
}

func FuzzGen(f *testing.F) {
	f.Add(SEEDS)
	want := describe(SEEDS)
	f.Fuzz(func(t *testing.T, b []byte, s string, ok bool, by1, by2 byte, r1, r2, r3 rune, f1, f2, f3 float32,
		d1, d2, d3, d4, d5 float64, i int, i8 int8, i16 int16, i32 int32, i64 int64, u uint, u16 uint16, u32 uint32, u64 uint64) {
		got := describe(b, s, ok, by1, by2, r1, r2, r3, f1, f2, f3, d1, d2, d3, d4, d5, i, i8, i16, i32, i64, u, u16, u32, u64)
		if got != want {
			t.Fatalf("GOT %s", got)
		}
	})
}
`

// genSeeds are FuzzGen's seed values: edge cases of every spelling.
const genSeeds = `[]byte("\x00\xff\xbd\"\\\u2028"), "\xe2\x8c\x98\x80\t", true, byte(0xff), byte(0), rune(-1), rune(0xd800),
		rune(0x1f600), float32(math.Copysign(0, -1)), math.Float32frombits(0x7fc00001), float32(math.Inf(1)),
		math.Float64frombits(0x7ff8000000000002), math.Copysign(0, -1), math.Inf(-1), math.NaN(), 1e-310,
		int(math.MinInt64), int8(-128), int16(32767), int32(-2147483648), int64(math.MaxInt64),
		uint(math.MaxUint64), uint16(65535), uint32(4294967295), uint64(math.MaxUint64)`
