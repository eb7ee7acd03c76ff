package libfuzzer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// The exported entry points need a c-archive and a C engine; driver/build's
// TestBuildLibFuzzer and .ci/ossfuzz.sh run them for real. These tests cover
// the Go side that does not.

func TestSeedName(t *testing.T) {
	for _, tc := range []struct {
		path string
		i    int
		want string
	}{
		{"seed#0", 0, "seed-0"},
		{"seed#12", 3, "seed-12"},
		{"testdata/fuzz/FuzzX/abc", 2, "testdata-abc"},
		{"", 4, "seed-4"},
	} {
		if got := seedName(tc.path, tc.i); got != tc.want {
			t.Errorf("seedName(%q, %d) = %q, want %q", tc.path, tc.i, got, tc.want)
		}
	}
}

// TestWriteSeedsAndRun: seeds are written in the libFuzzer encoding and each
// written file, run through the target, reaches the function with the
// seed's values.
func TestWriteSeedsAndRun(t *testing.T) {
	types := []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[[]byte]()}
	seeds := []seed{{"seed-0", []any{"key", 7, []byte("value")}}, {"testdata-x", []any{"", -1, []byte{}}}}
	var got [][]any
	tg := &target{name: "FuzzX", types: types, seeds: seeds, fn: func(e corpusEntry) error {
		got = append(got, e.Values)
		return nil
	}}
	dir := t.TempDir()
	if err := tg.writeSeeds(dir); err != nil {
		t.Fatal(err)
	}
	for _, s := range seeds {
		data, err := os.ReadFile(filepath.Join(dir, s.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := tg.run(data); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || got[0][0] != "key" || got[0][1] != 7 || string(got[0][2].([]byte)) != "value" || got[1][1] != -1 {
		t.Errorf("the function saw %v, want the seeds' values", got)
	}
	want, _ := corpus.EncodeLibFuzzer(seeds[0].values)
	if data, _ := os.ReadFile(filepath.Join(dir, "seed-0")); string(data) != string(want) {
		t.Errorf("seed-0 = %x, want %x", data, want)
	}
}

func TestSameBits(t *testing.T) {
	nan1, nan2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0x7ff8000000000002)
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{nan1, nan1, true}, {nan1, nan2, false}, {float32(0), float32(math.Copysign(0, -1)), false},
		{[]byte("a"), []byte("a"), true}, {[]byte("a"), "a", false}, {int8(1), int8(1), true}, {int8(1), uint8(1), false},
	} {
		if got := sameBits(tc.a, tc.b); got != tc.want {
			t.Errorf("sameBits(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// goroutinePerInput stands in for testing's function of a fuzzing worker:
// like testing, it runs each input in a new goroutine and waits for it.
func goroutinePerInput(e corpusEntry) error {
	done := make(chan struct{})
	go func() {
		_ = e.Values
		close(done)
	}()
	<-done
	return nil
}

// BenchmarkInput measures the binary's input path without an engine: an
// input is decoded and run through a function that, like testing, runs each
// input in a new goroutine. In the binary the caller is locked to the
// engine's thread (Go code called from C is), so the goroutine runs on
// another thread: "locked" is that path, "unlocked" the same from an
// ordinary goroutine. The difference is the cost of the two thread wake-ups
// per input (compare on a quiet machine) that the hand-off (handoff.go)
// avoids by running inputs on an ordinary goroutine.
func BenchmarkInput(b *testing.B) {
	tg := &target{name: "FuzzX", types: []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[[]byte]()}, fn: goroutinePerInput}
	in, err := corpus.EncodeLibFuzzer([]any{"tag", 4, []byte("payload")})
	if err != nil {
		b.Fatal(err)
	}
	for _, locked := range []bool{true, false} {
		name := "unlocked"
		if locked {
			name = "locked"
		}
		b.Run(name, func(b *testing.B) {
			if locked {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			for b.Loop() {
				if err := tg.run(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestUnitTimeout(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{nil, defaultTimeout},
		{[]string{"-runs=10", "corpus"}, defaultTimeout},
		{[]string{"-timeout=25", "corpus"}, 25 * time.Second},
		{[]string{"-timeout=25", "-timeout=3"}, 3 * time.Second},
		{[]string{"-timeout=0"}, 0},
		{[]string{"-timeout=x"}, defaultTimeout},
	} {
		if got := unitTimeout(tc.args); got != tc.want {
			t.Errorf("unitTimeout(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestInputFirst(t *testing.T) {
	stacks := "goroutine 1 [running]:\ngithub.com/fuzzbox/fuzzbox/engine/libfuzzer.allStacks()\n\n" +
		"goroutine 2 [select]:\nmain.main()\n\n" +
		"goroutine 3 [chan receive (nil chan)]:\ngithub.com/fuzzbox/fuzzbox/engine/basedeps.ballast(0x0?)\n\n" +
		"goroutine 4 [runnable]:\nexample.com/h.Spin(...)\ntesting.tRunner(0x1, 0x2)\n"
	want := "goroutine 4 [runnable]:\nexample.com/h.Spin(...)\ntesting.tRunner(0x1, 0x2)\n\ngoroutine 2 [select]:\nmain.main()"
	if got := string(inputFirst([]byte(stacks))); got != want {
		t.Errorf("inputFirst =\n%s\nwant\n%s", got, want)
	}
}

func TestHangReport(t *testing.T) {
	stacks := "goroutine 7 [running]:\nexample.com/h.Spin()\ntesting.tRunner(0x1, 0x2)\n"
	want := "\n--- fuzzbox: the input has run for 2.7s, nine tenths of libFuzzer's -timeout of 3s; every goroutine's stack, the input's first:\n" +
		"goroutine 7 [running]:\nexample.com/h.Spin()\ntesting.tRunner(0x1, 0x2)\n"
	if got := string(hangReport(2700*time.Millisecond, 3*time.Second, []byte(stacks))); got != want {
		t.Errorf("hangReport =\n%q\nwant\n%q", got, want)
	}
}

// TestHangReportUninstrumented: the functions the hang watchdog runs while
// an input runs use no package but reportPackages, and those are compiled
// without coverage instrumentation (driver/build's skip list): what they ran
// would be counted as the input's coverage.
func TestHangReportUninstrumented(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "hang.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // local name → path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		imports[path[strings.LastIndex(path, "/")+1:]] = path
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs[fd.Name.Name] = fd
		}
	}
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		ast.Inspect(funcs[name].Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok {
					if path, ok := imports[id.Name]; ok && !slices.Contains(reportPackages, path) {
						t.Errorf("%s uses %s.%s: %s is not in reportPackages", name, id.Name, n.Sel.Name, path)
					}
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && funcs[id.Name] != nil {
					visit(id.Name)
				}
			}
			return true
		})
	}
	visit("watchHangs")
	if !seen["hangReport"] || !seen["inputFirst"] || !seen["contains"] {
		t.Errorf("the walk from watchHangs reached %v; want hangReport, inputFirst and contains among them", seen)
	}
	skip, err := os.ReadFile(filepath.Join("..", "..", "driver", "build", "toolexec.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range reportPackages {
		if !regexp.MustCompile(`(?m)^\s*"` + regexp.QuoteMeta(p) + `":\s*true,`).Match(skip) {
			t.Errorf("%s is in reportPackages but not in driver/build's skipInstrumentation", p)
		}
	}
}
