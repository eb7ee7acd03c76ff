package build

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// runtimeHooks returns the Go release's runtime/libfuzzer.go and, printed on
// their own, its comparison hooks (libfuzzerTraceCmp1 … libfuzzerTraceConstCmp8).
func runtimeHooks(t *testing.T) (src []byte, hooks string) {
	t.Helper()
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(strings.TrimSpace(string(goroot)), "src", "runtime", "libfuzzer.go")
	src, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	hook := regexp.MustCompile(`^libfuzzerTrace(Const)?Cmp[1248]$`)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && hook.MatchString(fd.Name.Name) {
			b.WriteString("\n//go:nosplit\n")
			printer.Fprint(&b, fset, fd)
			b.WriteString("\n")
		}
	}
	return src, b.String()
}

// TestFilterTraceCalls: the Go release's own runtime/libfuzzer.go gets all
// its forwarding calls filtered; a runtime with other calls is left alone.
func TestFilterTraceCalls(t *testing.T) {
	src, _ := runtimeHooks(t)
	out := string(filterTraceCalls(src))
	if n := strings.Count(out, ":= fuzzboxCmpPass("); n != traceCalls || strings.Count(out, "libfuzzerCallTraceIntCmp(&") != traceCalls {
		t.Errorf("filtered runtime has %d filtered calls, want %d, each still calling into C:\n%s", n, traceCalls, out)
	}
	for _, want := range []string{
		"if a0, a1, pc, pass := fuzzboxCmpPass(uintptr(arg0), uintptr(arg1), uintptr(fakePC), ^uint64(0)); pass {\n\t\tlibfuzzerCallTraceIntCmp(&__sanitizer_cov_trace_cmp1, a0, a1, pc)\n\t}\n",
		"fuzzboxCmpPass(uintptr(arg0), uintptr(arg1), uintptr(fakePC), 0xffffffff); pass {\n\t\tlibfuzzerCallTraceIntCmp(&__sanitizer_cov_trace_const_cmp4, a0, a1, pc)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("filtered runtime lacks %q", want)
		}
	}
	other := strings.Replace(string(src), "libfuzzerCallTraceIntCmp(&__sanitizer_cov_trace_cmp2,", "somethingElse(&__sanitizer_cov_trace_cmp2,", 1)
	if got := filterTraceCalls([]byte(other)); got != nil {
		t.Errorf("a runtime with 7 of the 8 calls was filtered; want it left as it is")
	}
}

// cmpFilterHarness drives the runtime's comparison hooks, filtered, with
// random comparisons, and for each of 3000 inputs checks that the
// value-profile map libFuzzer's TracePC::HandleCmp builds from the calls the
// filter lets through is the map it builds from every call. handleCmp is
// libFuzzer's (compiler-rt/lib/fuzzer/FuzzerTracePC.cpp) with its C integer
// conversions; the sled's base address is not a multiple of anything.
const cmpFilterHarness = `
const retSledSize = 512

var __sanitizer_cov_trace_cmp1, __sanitizer_cov_trace_cmp2, __sanitizer_cov_trace_cmp4, __sanitizer_cov_trace_cmp8 byte
var __sanitizer_cov_trace_const_cmp1, __sanitizer_cov_trace_const_cmp2, __sanitizer_cov_trace_const_cmp4, __sanitizer_cov_trace_const_cmp8 byte

const sledBase = 0x4a3f17

var got, want [1 << 13]byte

func handleCmp(m *[1 << 13]byte, size int, pc uintptr, a, b uint64) {
	var d uint64
	switch size {
	case 1, 2: // operands promoted to int; the difference sign-extended
		d = uint64(int64(int32(a) - int32(b)))
	case 4:
		d = uint64(uint32(a) - uint32(b))
	default:
		d = a - b
	}
	x := a ^ b
	hd := uint64(0)
	for ; x != 0; x &= x - 1 {
		hd++
	}
	ad := uint64(0)
	if a != b {
		ad = 1
		for d&(1<<63) == 0 {
			ad++
			d <<= 1
		}
	}
	p := uint64(sledBase + pc)
	for _, v := range []uint64{p*128 + hd, p*128 + 64 + ad} {
		v %= 1 << 16
		m[v/8] |= 1 << (v % 8)
	}
}

var passed, all int

func libfuzzerCallTraceIntCmp(fn *byte, arg0, arg1, fakePC uintptr) {
	passed++
	size := map[*byte]int{
		&__sanitizer_cov_trace_cmp1: 1, &__sanitizer_cov_trace_cmp2: 2, &__sanitizer_cov_trace_cmp4: 4, &__sanitizer_cov_trace_cmp8: 8,
		&__sanitizer_cov_trace_const_cmp1: 1, &__sanitizer_cov_trace_const_cmp2: 2, &__sanitizer_cov_trace_const_cmp4: 4, &__sanitizer_cov_trace_const_cmp8: 8,
	}[fn]
	handleCmp(&got, size, fakePC, uint64(arg0), uint64(arg1))
}

func operand(r *rand.Rand, size int, other uint64) uint64 {
	mask := uint64(1)<<(8*size) - 1
	if size == 8 {
		mask = ^uint64(0)
	}
	switch r.IntN(4) {
	case 0:
		return uint64(r.IntN(4))
	case 1:
		return (other + uint64(r.IntN(5)) - 2) & mask
	case 2:
		return other
	}
	return r.Uint64() & mask
}

func main() {
	fuzzbox_cmp_mode = fuzzboxCmpFilter
	r := rand.New(rand.NewPCG(1, 2))
	pcs := []uint{0, 1, 2, 129, 300, 510, 511, 512 + 7}
	for input := 0; input < 3000; input++ {
		clear(fuzzbox_cmp_seen[:])
		clear(fuzzbox_cmp_sites[:])
		clear(got[:])
		clear(want[:])
		calls := map[uint]int{}
		for k := 0; k < 200; k++ {
			size := []int{1, 2, 4, 8}[r.IntN(4)]
			pc := pcs[r.IntN(len(pcs))]
			b := operand(r, size, 0)
			a := operand(r, size, b)
			handleCmp(&want, size, uintptr(pc%retSledSize), a, b)
			all++
			konst := r.IntN(2) == 0
			before, site := passed, pc%retSledSize
			n := calls[site]
			calls[site]++
			switch {
			case size == 1 && konst:
				libfuzzerTraceConstCmp1(uint8(a), uint8(b), pc)
			case size == 1:
				libfuzzerTraceCmp1(uint8(a), uint8(b), pc)
			case size == 2 && konst:
				libfuzzerTraceConstCmp2(uint16(a), uint16(b), pc)
			case size == 2:
				libfuzzerTraceCmp2(uint16(a), uint16(b), pc)
			case size == 4 && konst:
				libfuzzerTraceConstCmp4(uint32(a), uint32(b), pc)
			case size == 4:
				libfuzzerTraceCmp4(uint32(a), uint32(b), pc)
			case konst:
				libfuzzerTraceConstCmp8(a, b, pc)
			default:
				libfuzzerTraceCmp8(a, b, pc)
			}
			if n < fuzzboxCmpFirst && passed == before {
				fmt.Printf("input %d: comparison %d of site %d skipped; want the first %d passed\n", input, n, site, fuzzboxCmpFirst)
				os.Exit(1)
			}
		}
		if got != want {
			fmt.Printf("input %d: the filtered calls set other value-profile features than all calls\n", input)
			os.Exit(1)
		}
	}
	for _, mode := range []byte{fuzzboxCmpMuted, fuzzboxCmpMuted | fuzzboxCmpFilter} {
		fuzzbox_cmp_mode = mode
		clear(fuzzbox_cmp_seen[:])
		clear(fuzzbox_cmp_sites[:])
		before := passed
		libfuzzerTraceCmp8(1, 2, 3)
		libfuzzerTraceConstCmp4(4, 5, 6)
		if passed != before {
			fmt.Printf("mode %d: %d comparisons passed; want none while muted\n", mode, passed-before)
			os.Exit(1)
		}
	}
	fmt.Printf("ok: %d of %d calls passed\n", passed, all)
}
`

// TestCmpFilterExact: the runtime's hooks, filtered, call into C for every
// comparison that sets a value-profile feature libFuzzer has not seen in the
// input and for the first fuzzboxCmpFirst of each site, and skip others;
// muted (outside the fuzz function), for none.
func TestCmpFilterExact(t *testing.T) {
	_, hooks := runtimeHooks(t)
	filtered := filterTraceCalls([]byte(hooks))
	if filtered == nil {
		t.Fatalf("the runtime's hooks were not filtered:\n%s", hooks)
	}
	src := cmpFilterSource
	src = regexp.MustCompile(`(?m)^//go:(linkname|cgo_import_static) .*\n`).ReplaceAllString(src, "")
	src = strings.Replace(src, "package runtime", "package main\n\nimport (\n\t\"fmt\"\n\t\"math/rand/v2\"\n\t\"os\"\n)", 1)
	src = strings.Replace(src, `"internal/runtime/sys"`, `sys "math/bits"`, 1)
	src = strings.Replace(src, "var fuzzbox_cmp_seen byte", "var fuzzbox_cmp_seen [1 << 13]byte", 1)
	src = strings.Replace(src, "var fuzzbox_cmp_sites byte", "var fuzzbox_cmp_sites [512]byte", 1)
	src += string(filtered) + cmpFilterHarness
	dir := t.TempDir()
	for name, data := range map[string]string{"go.mod": "module filter\n\ngo 1.24\n", "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok") {
		t.Fatalf("go run of the filter's harness: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(string(out)))
	var passed, all int
	if _, err := fmt.Sscanf(string(out), "ok: %d of %d calls passed", &passed, &all); err != nil || passed == 0 || passed >= all {
		t.Errorf("%s: want some calls passed and some skipped (%v)", strings.TrimSpace(string(out)), err)
	}
}

// cmpTests compares in loops, at every width, so that most comparisons
// repeat a feature of their input.
const cmpTests = `package u

import (
	"encoding/binary"
	"testing"
)

var table [4096]uint32

func scan(b []byte) int {
	for i := range table {
		table[i] = 0
	}
	n := 0
	for i, c := range b {
		if c == '{' || c == 0x80 {
			n++
		}
		if i+1 < len(b) && b[i] < b[i+1] {
			n += 2
		}
		if i+2 <= len(b) && binary.LittleEndian.Uint16(b[i:]) == 0xbeef {
			n += 3
		}
		if i+4 <= len(b) {
			v := binary.LittleEndian.Uint32(b[i:])
			if v == 0xdeadbeef || int32(v) < int32(n) {
				n += 4
			}
		}
		if i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:]) == 0x0123456789abcdef {
			n += 5
		}
	}
	return n
}

func FuzzScan(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { scan(b) })
}
`

// TestLibFuzzerCmpFilter: a real libFuzzer binary, built with the filter,
// reaches the same coverage and value-profile features on a corpus with the
// filter as without it (FUZZBOX_LIBFUZZER_CMPFILTER=0), up to the noise of
// two runs (TestCmpFilterExact checks the features exactly).
func TestLibFuzzerCmpFilter(t *testing.T) {
	needClang(t)
	bin := buildLibFuzzerTest(t, cmpTests, "FuzzScan")
	if out, err := exec.Command("nm", bin).Output(); err == nil && !strings.Contains(string(out), "runtime.fuzzboxCmpPass") {
		t.Fatalf("%s has no runtime.fuzzboxCmpPass: the runtime was built without the filter", bin)
	}
	inputs := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	for k := range 200 {
		b := make([]byte, r.IntN(200))
		for i := range b {
			b[i] = []byte{byte(r.IntN(256)), 0xef, 0xbe, 0xad, 0xde, '{', 0x80, 0, 1}[r.IntN(9)]
		}
		if err := os.WriteFile(filepath.Join(inputs, fmt.Sprint(k)), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	inited := regexp.MustCompile(`INITED cov: (\d+) ft: (\d+)`)
	// Runs of the same binary differed by a few edges and features when
	// testing's report of each input (its duration formatted through the
	// instrumented fmt) counted as coverage, and a garbage collection makes
	// fmt's sync.Pool build a printer (seen: 620–642 features from one
	// binary under the package's other tests). So the check allows 3% of
	// features and 2 edges, below what a filter that drops features does
	// (the features not cleared before each input: 644 → 595).
	t.Setenv("GOGC", "off")
	features := func(filter string) (cov, ft int) {
		t.Setenv("FUZZBOX_LIBFUZZER_CMPFILTER", filter)
		out, code := runBinary(t, bin, t.TempDir(), "-runs=0", "-use_value_profile=1", inputs)
		m := inited.FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("FUZZBOX_LIBFUZZER_CMPFILTER=%s: exit %d:\n%s", filter, code, tail(out))
		}
		cov, _ = strconv.Atoi(m[1])
		ft, _ = strconv.Atoi(m[2])
		return cov, ft
	}
	covOn, ftOn := features("1")
	covOff, ftOff := features("0")
	t.Logf("with the filter cov %d ft %d, without cov %d ft %d", covOn, ftOn, covOff, ftOff)
	if abs(covOn-covOff) > 2 || abs(ftOn-ftOff)*100 > 3*ftOff {
		t.Errorf("with the filter cov %d ft %d, without cov %d ft %d: want the same coverage and features", covOn, ftOn, covOff, ftOff)
	}
}

func abs(n int) int { return max(n, -n) }

// wideSrc has a go:nosplit function whose frame leaves no room for the
// comparison hooks it calls (the linker refuses it).
const wideSrc = `package main

import "C"

//go:nosplit
//go:noinline
func wide(b []byte) int {
	var w [90]uint64
	for i := range w {
		w[i] = uint64(i) ^ uint64(len(b))
	}
	n := 0
	for i := range w {
		if w[i] == 0x1234 {
			n++
		}
	}
	return n
}

var sink int

//export Run
func Run() { sink = wide(nil) }

func main() {}
`

// TestCmpFilterNosplit: the filtered hooks need no more stack than the
// runtime's own, which go:nosplit code that compares must leave room for
// (github.com/pjbgf/sha1cd/ubc has 8 bytes to spare): the linker's report
// of a function that leaves too little is the same with either.
func TestCmpFilterNosplit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds c-archives (-short)")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/w\n\ngo 1.21\n", "main.go": wideSrc})
	over := regexp.MustCompile(`(\d+) bytes over limit`)
	deepest := func(filtered bool) int {
		args := []string{"build", "-buildmode=c-archive", "-tags=libfuzzer", "-o", filepath.Join(t.TempDir(), "w.a")}
		env := os.Environ()
		if filtered {
			args = append(args, "-toolexec="+self)
			env = append(env, toolexecEnv+"=1")
		} else {
			args = append(args, "-gcflags=all=-d=libfuzzer")
		}
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "nosplit stack over") {
			t.Fatalf("filtered %v: the build did not report wide's frame (err %v):\n%s", filtered, err, out)
		}
		n := 0
		for _, m := range over.FindAllStringSubmatch(string(out), -1) {
			v, _ := strconv.Atoi(m[1])
			n = max(n, v)
		}
		return n
	}
	if stock, filtered := deepest(false), deepest(true); filtered != stock {
		t.Errorf("wide is %d bytes over the nosplit limit with the filtered hooks, %d with the runtime's own: want the same", filtered, stock)
	}
}

// TestMuteStrHooks: the Go release's runtime has both its string
// comparison hooks muted; one with other hooks is left alone.
func TestMuteStrHooks(t *testing.T) {
	src, _ := runtimeHooks(t)
	if out := string(muteStrHooks(src)); strings.Count(out, strHookMuted) != 2 {
		t.Errorf("the runtime's string hooks are not both muted:\n%s", out)
	}
	if got := muteStrHooks([]byte(strings.Replace(string(src), strHook, "if true {", 1))); got != nil {
		t.Errorf("a runtime with one string hook of the expected form was rewritten")
	}
}

// TestShadowCounters: the Go release's runtime registers its counters
// through fuzzbox_counters_init, once; a runtime that registers them
// otherwise is left alone.
func TestShadowCounters(t *testing.T) {
	src, _ := runtimeHooks(t)
	out := string(shadowCounters(src))
	if strings.Count(out, countersShadow) != 1 || strings.Contains(out, countersInit) {
		t.Errorf("the runtime's counters are not registered through fuzzbox_counters_init once:\n%s", out)
	}
	if got := shadowCounters([]byte(strings.ReplaceAll(string(src), countersInit, "register()"))); got != nil {
		t.Errorf("a runtime without the expected registration was rewritten")
	}
	if got := shadowCounters(nil); got != nil {
		t.Errorf("shadowCounters(nil) = %q, want nil", got)
	}
}

// afterFuzzTests has fuzz functions whose work (branches, which compares
// integers and strings) runs in the fuzz function itself, in a cleanup, or
// in a goroutine the function waits for.
const afterFuzzTests = `package u

import (
	"sync"
	"testing"
)

var sink int

func branches(b []byte) int {
	n := 0
	for _, c := range b {
		switch {
		case c < 0x10:
			n++
		case c < 0x40:
			n *= 3
		case c == 0x41:
			n -= 7
		case c > 0xf0:
			n ^= 0x55
		default:
			n += int(c)
		}
	}
	if string(b) == magic {
		n++
	}
	return n
}

var magic = "a long magic string"

func FuzzDirect(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { sink += branches(b) })
}

func FuzzCleanup(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		t.Cleanup(func() { sink += branches(b) })
	})
}

func FuzzWaited(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		var wg sync.WaitGroup
		wg.Go(func() { sink += branches(b) })
		wg.Wait()
	})
}
`

// TestLibFuzzerCountsFuzzFunction: the engine of a libFuzzer binary sees the
// coverage and comparisons of the fuzz function, as go test does, and not
// those of what testing runs after it (the input's cleanups, its report):
// inputs that differ only in what a cleanup does are one input to it, and
// the same work in the fuzz function, or in a goroutine it waits for,
// counts.
func TestLibFuzzerCountsFuzzFunction(t *testing.T) {
	needClang(t)
	inputs, first := t.TempDir(), t.TempDir()
	for k, in := range []string{"\x00\x01", "\x20\x30\x05", "AAAA", "\xf8\x00\x41", "zzz\x80"} {
		data, err := corpus.EncodeLibFuzzer([]any{[]byte(in)})
		if err != nil {
			t.Fatal(err)
		}
		dirs := []string{inputs}
		if k == 0 {
			dirs = append(dirs, first)
		}
		for _, dir := range dirs {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(k)), data, 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("GOGC", "off")
	inited := regexp.MustCompile(`INITED cov: (\d+) ft: (\d+)`)
	features := func(bin, dir string) (cov, ft int) {
		out, code := runBinary(t, bin, t.TempDir(), "-runs=0", "-use_value_profile=1", dir)
		m := inited.FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("%s: exit %d:\n%s", filepath.Base(bin), code, tail(out))
		}
		cov, _ = strconv.Atoi(m[1])
		ft, _ = strconv.Atoi(m[2])
		return cov, ft
	}
	for _, tc := range []struct {
		fuzz   string
		counts bool
	}{{"FuzzCleanup", false}, {"FuzzDirect", true}, {"FuzzWaited", true}} {
		bin := buildLibFuzzerTest(t, afterFuzzTests, tc.fuzz)
		cov1, ft1 := features(bin, first)
		cov, ft := features(bin, inputs)
		t.Logf("%s: one input cov %d ft %d, five cov %d ft %d", tc.fuzz, cov1, ft1, cov, ft)
		if grew := cov > cov1 || ft > ft1; grew != tc.counts {
			t.Errorf("%s: one input cov %d ft %d, five inputs cov %d ft %d; want the others' work counted: %v", tc.fuzz, cov1, ft1, cov, ft, tc.counts)
		}
	}
}

// TestLibFuzzerNosplitRetry: a fuzz test whose imported package has a
// function marked go:nosplit that leaves the comparison hooks too little stack
// gets a libFuzzer binary, with that package compiled without
// instrumentation and the build saying so, as fuzzbox fuzz does.
func TestLibFuzzerNosplitRetry(t *testing.T) {
	needClang(t)
	deep := strings.NewReplacer("package main", "package deep", "import \"C\"\n", "", "func wide(", "func Wide(",
		"sink = wide(nil)", "sink = Wide(nil)", "//export Run\n", "", "func main() {}\n", "").Replace(wideSrc)
	tests := "package u\n\nimport (\n\t\"testing\"\n\n\t\"example.com/u/deep\"\n)\n\n" +
		"func FuzzDeep(f *testing.F) {\n\tf.Add([]byte(\"x\"))\n\tf.Fuzz(func(t *testing.T, b []byte) { _ = deep.Wide(b) })\n}\n"
	opts := setup(t, map[string]string{"go.mod": goMod, "u.go": libSrc, "u_test.go": tests, "deep/deep.go": deep})
	runtimeDirOverride = ""
	lo := LibFuzzerOptions{Dir: opts.Dir, OutDir: t.TempDir(), Fuzz: "^FuzzDeep$", Toolexec: opts.Toolexec}
	var stderr strings.Builder
	lo.Stderr = &stderr
	targets, err := BuildLibFuzzer(context.Background(), lo)
	if err != nil {
		t.Fatalf("BuildLibFuzzer: %v\n%s", err, stderr.String())
	}
	if want := "fuzzbox: compiling example.com/u/deep without coverage instrumentation: its go:nosplit function example.com/u/deep.Wide"; !strings.Contains(stderr.String(), want) {
		t.Errorf("the build's output does not say %q:\n%s", want, stderr.String())
	}
	out, code := runBinary(t, targets[0].Binary, t.TempDir(), "-runs=200", "-seed=1")
	if code != 0 || !strings.Contains(out, "Done 200 runs") {
		t.Errorf("200 runs: exit %d:\n%s", code, tail(out))
	}
}
