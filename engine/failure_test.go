package engine

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// recoveredPanic is the output the testing package gives a worker for a
// panicking input (indented as testing prints it), with fn as the
// panicking function and n varying the numbers.
func recoveredPanic(msg, fn, n string) string {
	return `    --- FAIL: FuzzX (0.00s)
        testing.go:1927: panic: ` + msg + `
            goroutine ` + n + ` [running]:
            runtime/debug.Stack()
            	/usr/local/go/src/runtime/debug/stack.go:26 +0x9b
            testing.tRunner.func1()
            	/usr/local/go/src/testing/testing.go:1927 +0x1d0
            panic({0x6a4d20?, 0x700630?})
            	/usr/local/go/src/runtime/panic.go:860 +0x13a
            ` + fn + `(0x0?, {0x141992527b50, 0x` + n + `, 0x48a373?})
            	/tmp/m/x_test.go:1` + n + ` +0xec
            example.com/m.FuzzX.func1(0x0?, {0x141992527b50, 0x1, 0x48a373?})
            	/tmp/m/x_test.go:9 +0x20c
            reflect.Value.call({0x6a86c0?, 0x6fe980?, 0x13?}, {0x6e9dc6, 0x4}, {0x14199252d7a0, 0x2, 0x2?})
            	/usr/local/go/src/reflect/value.go:586 +0xf0c
            testing.tRunner(0x141992568fc8, 0x1419925666c0)
            	/usr/local/go/src/testing/testing.go:2036 +0xea
            created by testing.(*F).Fuzz.func1 in goroutine 22
            	/usr/local/go/src/testing/fuzz.go:328 +0x668
`
}

const tFatal = `    --- FAIL: FuzzX (0.00s)
        x_test.go:12: bad input: length 7
`

// mapWrites is the output of a worker killed by a runtime fatal error.
func mapWrites(fn, n string) string {
	return `fatal error: concurrent map writes

goroutine ` + n + ` [running]:
internal/runtime/maps.fatal({0x6ef4ec?, 0x0?})
	/usr/local/go/src/runtime/panic.go:1181 +0x18
` + fn + `()
	/tmp/m/x_test.go:4` + n + ` +0x72
created by example.com/m.FuzzX.func1 in goroutine 436
	/tmp/m/x_test.go:38 +0x116

goroutine 1 [chan receive]:
testing.runFuzzing({0x7084b8, 0x1acc87f76300}, {0x8af5a0, 0xc, 0x6b4760?})
	/usr/local/go/src/testing/fuzz.go:624 +0x7ec
main.main()
	_fuzzbox_testmain.go:54 +0xb3
`
}

const raceReport = `==================
WARNING: DATA RACE
Write at 0x00c000012345 by goroutine 9:
  example.com/m.FuzzX.func1.1()
      /tmp/m/x_test.go:20 +0x44

Previous write at 0x00c000012345 by goroutine 8:
  example.com/m.FuzzX.func1.1()
      /tmp/m/x_test.go:20 +0x44
==================
    --- FAIL: FuzzX (0.00s)
        testing.go:1617: race detected during execution of test
`

const stackOverflow = `runtime: goroutine stack exceeds 268435456-byte limit
runtime: sp=0xc020160388 stack=[0xc020160000, 0xc040160000]
fatal error: stack overflow

runtime stack:
runtime.throw({0x5a5f4f?, 0x7f0b6b7fdd28?})
	/usr/local/go/src/runtime/panic.go:1094 +0x48
runtime.newstack()
	/usr/local/go/src/runtime/stack.go:1159 +0x5bd
runtime.morestack()
	/usr/local/go/src/runtime/asm_amd64.s:621 +0x7a

goroutine 22 gp=0xc000102e00 m=4 mp=0xc000080808 [running]:
example.com/m.recurse(0x3a1e7d)
	/tmp/m/x_test.go:50 +0x6c fp=0xc020160398 sp=0xc020160390 pc=0x55e26c
example.com/m.recurse(0x3a1e7c)
	/tmp/m/x_test.go:51 +0x4d fp=0xc0201603e8 sp=0xc020160398 pc=0x55e24d
`

const goroutinePanic = `panic: boom in a goroutine

goroutine 40 [running]:
example.com/m.FuzzX.func1.1()
	/tmp/m/x_test.go:30 +0x25
created by example.com/m.FuzzX.func1 in goroutine 39
	/tmp/m/x_test.go:29 +0x6c
exit status 2
`

const heapOOM = `panic: fuzzbox: out of memory: the heap reached 4096 MiB, over -rss_limit_mb=1024

goroutine 20 [running]:
github.com/fuzzbox/fuzzbox/engine.limitWorkerMemory.func1()
	/root/.cache/fuzzbox/runtime/d5/engine/memlimit.go:39 +0x148
`

func TestFailureKind(t *testing.T) {
	tests := []struct {
		name, msg, want string
	}{
		{"recovered panic", recoveredPanic("boom", "example.com/m.parse", "5"), KindPanic},
		{"index out of range", recoveredPanic("runtime error: index out of range [5] with length 3", "example.com/m.parse", "5"), KindPanic},
		{"t.Fatal", tFatal, KindFail},
		{"t.Error mentioning panic words", "    --- FAIL: FuzzX (0.00s)\n        x_test.go:9: no panicking here\n", KindFail},
		{"race", raceReport, KindRace},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := failureKind(tt.msg); got != tt.want {
				t.Errorf("failureKind = %q, want %q", got, tt.want)
			}
		})
	}
}

// cgoSignal is how the runtime ends a process whose C code crashed.
const cgoSignal = `SIGSEGV: segmentation violation
PC=0x605ed8 m=0 sigcode=1 addr=0x10
signal arrived during cgo execution

goroutine 1 gp=0xc000002380 m=0 mp=0x9a1b20 [syscall]:
runtime.cgocall(0x605eb0, 0xc0000a5f08)
	/go/src/runtime/cgocall.go:167 +0x4b
example.com/cgocrash._Cfunc_crash(0xc00001c0b8, 0x3)
	_cgo_gotypes.go:45 +0x3f
example.com/cgocrash.Crash({0xc00001c0b8, 0x3, 0x8})
	/m/c.go:16 +0x65

rax    0x10
rip    0x605ed8
`

// asanReport is AddressSanitizer's report on cgo code built with it.
const asanReport = `=================================================================
==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000015 at pc 0x5 bp 0x7 sp 0x8
WRITE of size 1 at 0x602000000015 thread T0
    #0 0x4f1a2b in overflow /m/c.go:8
SUMMARY: AddressSanitizer: heap-buffer-overflow /m/c.go:8 in overflow
Shadow byte legend (one shadow byte represents 8 application bytes):
  Addressable:           00
`

// TestCrashReports: a crash in C code (a signal, a sanitizer's report) is
// a fatal failure whose message starts at the report, and minimization
// keeps its kind of crash. It was an exit, shown by its last 20 lines: the
// registers, or ASan's legend.
func TestCrashReports(t *testing.T) {
	for _, tc := range []struct{ out, start, key string }{
		{"some output\n" + cgoSignal, "SIGSEGV: segmentation violation", "SIGSEGV: segmentation violation"},
		{asanReport, "==4242==ERROR: AddressSanitizer", "==N==ERROR: AddressSanitizer: heap-buffer-overflow on address N at pc N bp N sp N"},
	} {
		i := dumpStart(tc.out)
		if i < 0 || !strings.HasPrefix(tc.out[i:], tc.start) {
			t.Errorf("dumpStart does not find %q", tc.start)
		}
		if got := failureKey(KindFatal, tc.out); got != tc.key {
			t.Errorf("failureKey = %q, want %q", got, tc.key)
		}
	}
}

func TestDeathKind(t *testing.T) {
	tests := []struct {
		name string
		code int
		out  string
		want string
	}{
		{"concurrent map writes", 2, mapWrites("example.com/m.FuzzX.func1.1", "438"), KindFatal},
		{"stack overflow", 2, stackOverflow, KindFatal},
		{"panic in a goroutine", 2, goroutinePanic, KindPanic},
		{"heap limit", 2, heapOOM, KindOOM},
		{"runtime out of memory", 2, "fatal error: runtime: out of memory\n\nruntime stack:\n", KindOOM},
		{"race in a goroutine", 66, "WARNING: DATA RACE\n" + goroutinePanic, KindRace},
		{"os.Exit", 3, "some output\n", KindExit},
		{"killed", -1, "", KindExit},
		{"signal in C code", 2, cgoSignal, KindFatal},
		{"AddressSanitizer", 1, asanReport, KindFatal},
		{"a Go nil dereference", 2, "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4]\n", KindPanic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := deathKind(tt.out); got != tt.want {
				t.Errorf("deathKind = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSignature(t *testing.T) {
	tests := []struct {
		name      string
		kindA     string
		a         string
		kindB     string
		b         string
		wantEqual bool
	}{
		{"panic, other numbers", KindPanic, recoveredPanic("boom", "example.com/m.parse", "5"),
			KindPanic, recoveredPanic("boom", "example.com/m.parse", "7"), true},
		{"index panic, other index", KindPanic, recoveredPanic("runtime error: index out of range [5] with length 3", "example.com/m.parse", "5"),
			KindPanic, recoveredPanic("runtime error: index out of range [9] with length 8", "example.com/m.parse", "6"), true},
		{"panic, other stack", KindPanic, recoveredPanic("boom", "example.com/m.parse", "5"),
			KindPanic, recoveredPanic("boom", "example.com/m.lex", "5"), false},
		{"panic, other message", KindPanic, recoveredPanic("boom", "example.com/m.parse", "5"),
			KindPanic, recoveredPanic("bug A", "example.com/m.parse", "7"), false},
		{"nil map vs own panic", KindPanic, recoveredPanic("assignment to entry in nil map", "example.com/m.parse", "5"),
			KindPanic, recoveredPanic("bug A", "example.com/m.parse", "5"), false},
		{"index vs nil dereference", KindPanic, recoveredPanic("runtime error: index out of range [5] with length 3", "example.com/m.parse", "5"),
			KindPanic, recoveredPanic("runtime error: invalid memory address or nil pointer dereference", "example.com/m.parse", "5"), false},
		{"panic quoting the input", KindPanic, recoveredPanic(`bad token "xllo"`, "example.com/m.parse", "5"),
			KindPanic, recoveredPanic(`bad token "q"`, "example.com/m.parse", "5"), true},
		{"panic vs fail", KindPanic, recoveredPanic("boom", "example.com/m.parse", "5"), KindFail, tFatal, false},
		{"t.Fatal, other numbers", KindFail, tFatal, KindFail, strings.ReplaceAll(tFatal, "7", "12"), true},
		{"t.Fatal, other message", KindFail, tFatal, KindFail, strings.ReplaceAll(tFatal, "bad input", "wrong checksum"), false},
		{"t.Errorf quoting the input", KindFail, tError(`bad input "xllo" (len 4)`), KindFail, tError(`bad input "x\"l\\0" (len 5)`), true},
		{"t.Errorf of values", KindFail, tError(`json: unsupported type: func(int, int) int (1:2)`),
			KindFail, tError(`json: unsupported type: func(int, ...int) int (1:1)`), true},
		{"t.Errorf of nested values", KindFail, tError(`got map[a:[1 2] b:{X:3}], want map[]`),
			KindFail, tError(`got map[zz:[]], want map[q:{}]`), true},
		{"t.Errorf, other message", KindFail, tError(`bad input "x" (len 1)`), KindFail, tError(`short input "x" (len 1)`), false},
		{"fatal, other goroutine ids", KindFatal, mapWrites("example.com/m.FuzzX.func1.1", "438"),
			KindFatal, mapWrites("example.com/m.FuzzX.func1.1", "12"), true},
		{"fatal, other stack", KindFatal, mapWrites("example.com/m.FuzzX.func1.1", "438"),
			KindFatal, mapWrites("example.com/m.update", "438"), false},
		{"stack overflow, other depth", KindFatal, stackOverflow, KindFatal, strings.ReplaceAll(stackOverflow, "0x3a1e7", "0x1e7"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sa, sb := signature(tt.kindA, tt.a), signature(tt.kindB, tt.b)
			if (sa == sb) != tt.wantEqual {
				t.Errorf("signatures equal = %v, want %v:\n  %q\n  %q", sa == sb, tt.wantEqual, sa, sb)
			}
		})
	}
}

// tError is a t.Errorf's report of msg at x_test.go:12.
func tError(msg string) string {
	return "    --- FAIL: FuzzX (0.00s)\n        x_test.go:12: " + msg + "\n"
}

// TestShapeKeepsPlainLines: a line without quotes or brackets has the
// signature it had before shape masked them (numbers removed), so that the
// buckets earlier runs wrote for it stay known.
func TestShapeKeepsPlainLines(t *testing.T) {
	for _, line := range []string{"x_test.go:12: bad input: length 7", "fatal error: concurrent map writes", "boom 0x3a1e7 at 12:4"} {
		if got, want := shape(line), numbersRE.ReplaceAllString(line, "N"); got != want {
			t.Errorf("shape(%q) = %q, want %q", line, got, want)
		}
	}
	if got, want := shape(`x_test.go:9: bad input "a(b" [1 [2]] {x} (f(1))`), `x_test.go:N: bad input "" [] {} ()`; got != want {
		t.Errorf("shape = %q, want %q", got, want)
	}
}

// TestSignatureFrames: the frames kept are the target's, not the
// runtime's, testing's or reflect's around them.
func TestSignatureFrames(t *testing.T) {
	sig := signature(KindPanic, recoveredPanic("boom", "example.com/m.parse", "5"))
	want := "panic|panic: boom|example.com/m.parse|example.com/m.FuzzX.func1"
	if !strings.HasPrefix(sig, want) {
		t.Errorf("signature = %q, want it to start with %q", sig, want)
	}
}

func TestFirstLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{recoveredPanic("boom", "f.g", "1"), "testing.go:1927: panic: boom"},
		{"\n\n  hello  \nworld", "hello"},
		{"--- FAIL: X\n", "--- FAIL: X"},
	}
	for _, tt := range tests {
		if got := firstLine(tt.in); got != tt.want {
			t.Errorf("firstLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCrashErrors(t *testing.T) {
	a := &crashError{kind: KindPanic, msg: "    --- FAIL: FuzzX\n        panic: a\n", path: "testdata/fuzz/FuzzX/aaaa", bucket: "0123456789abcdef", hits: 1}
	b := &crashError{kind: KindFail, msg: "x_test.go:3: b\n", path: "testdata/fuzz/FuzzX/bbbb", bucket: "fedcba9876543210", known: true, hits: 1}
	if a.CrashPath() != a.path || a.Error() != a.msg {
		t.Errorf("crashError: %q %q", a.CrashPath(), a.Error())
	}
	m := &multiCrashError{errs: []*crashError{a, b}}
	if m.CrashPath() != a.path {
		t.Errorf("multiCrashError.CrashPath = %q, want the first one's", m.CrashPath())
	}
	// The list says each failure's bucket and how often it was hit (the
	// duplicates a -keepgoing run counted), and its kind once.
	(&coordinator{fails: m.errs}).duplicate(&failure{kind: KindPanic}, a.bucket, 4)
	for _, want := range []string{"2 unique failures", "1. panic: a -> testdata/fuzz/FuzzX/aaaa (new bucket 0123456789abcdef, 5×)",
		"2. fail: x_test.go:3: b -> testdata/fuzz/FuzzX/bbbb (known bucket fedcba9876543210, 1×)"} {
		if !strings.Contains(m.Error(), want) {
			t.Errorf("multiCrashError.Error() = %q, lacks %q", m.Error(), want)
		}
	}
}

// hangDump is a hang report as the watchdog gets it: every goroutine, the
// main goroutine first (or not), and the hung one caught at inner.
func hangDump(mainFirst bool, inner ...string) string {
	hung := "goroutine 9 gp=0x1 m=0 [running]:\n"
	for _, fn := range inner {
		hung += fn + "({0x1, 0x2})\n\t/m/x.go:1 +0x1\n"
	}
	hung += "example.com/m.Match(...)\n\t/m/x.go:9\n" +
		"example.com/m.Get({0x1, 0x2})\n\t/m/x.go:20 +0x1\n" +
		"example.com/m.FuzzGet.func1(0x0?, {0x1?, 0x0?})\n\t/m/x_test.go:15 +0x58\n" +
		"runtime.call64(0x1, 0x2)\n\t/go/src/runtime/asm_amd64.s:837 +0x3a\n" +
		"reflect.Value.call({0x6d55a0?, 0x725f30?, 0x13?}, {0x713a4c, 0x4}, {0x2, 0x3, 0x4?})\n\t/go/src/reflect/value.go:586 +0xf0c\n" +
		"testing.(*F).Fuzz.func1.1(0x2?)\n\t/go/src/testing/fuzz.go:341 +0x365\n"
	main := "goroutine 1 gp=0x2 m=nil [chan receive]:\nmain.main()\n\t_testmain.go:45 +0x1\n" +
		"github.com/fuzzbox/fuzzbox/engine.(*worker).exec(0x1)\n\t/x/worker.go:1 +0x1\n"
	if mainFirst {
		return "fuzzbox: hang: the input ran longer than the timeout of 10s; goroutine stacks:\n" + main + "\n" + hung
	}
	return "fuzzbox: hang: the input ran longer than the timeout of 10s; goroutine stacks:\n" + hung + "\n" + main
}

// TestHangSignature: two kills of the same loop, caught at different depths
// of its recursion and with the goroutines listed in another order, are one
// failure (the way in from the fuzz function is the same); a loop entered
// another way is another.
func TestHangSignature(t *testing.T) {
	a := signature(KindHang, hangDump(true, "example.com/m.deepMatchRune", "unicode/utf8.DecodeRuneInString", "example.com/m.deepMatch"))
	b := signature(KindHang, hangDump(false, "example.com/m.deepMatch", "example.com/m.deepMatch", "example.com/m.deepMatch"))
	if a != b {
		t.Errorf("one hang, two signatures:\n%s\n%s", a, b)
	}
	if want := "hang||example.com/m.FuzzGet.func1|example.com/m.Get|example.com/m.Match|example.com/m.deepMatch"; b != want {
		t.Errorf("signature %q, want %q", b, want)
	}
	other := strings.Replace(hangDump(true, "example.com/m.deepMatch"), "example.com/m.Get(", "example.com/m.Delete(", 1)
	if c := signature(KindHang, other); c == a {
		t.Errorf("hangs entered through Get and through Delete share the signature %q", c)
	}
	// No goroutine runs the fuzz function (a dump cut short): the frames as for other kinds.
	if d := signature(KindHang, "fuzzbox: hang: x\nexample.com/m.loop(0x1)\n\t/m/x.go:1 +0x1\n"); d != "hang||example.com/m.loop" {
		t.Errorf("signature without the fuzz function's goroutine = %q", d)
	}
}

// TestOOMSignature: an oom is known by the way from the fuzz function to
// the growth, not by how it was caught: the worker's sampler (its panic's
// goroutine first), the watchdog's resident-memory check (a SIGQUIT dump),
// or the exact check (the allocation's stack). Every oom of a fuzz test had
// one bucket, so a second oom bug was called known.
func TestOOMSignature(t *testing.T) {
	stacks := strings.SplitN(hangDump(true, "example.com/m.grow"), "goroutine stacks:\n", 2)[1]
	sampler := "panic: fuzzbox: out of memory: one execution grew the worker by 517 MiB, over -rss_limit_mb=512\n\n" +
		"goroutine 10 [running]:\ngithub.com/fuzzbox/fuzzbox/engine.limitWorkerMemory.func1()\n\t/x/memlimit.go:56 +0x1de\n\n" + stacks
	watchdog := "fuzzbox: out of memory: the worker's resident memory exceeded -rss_limit_mb=512 while running the input; goroutine stacks:\n" +
		quitHeader + stacks
	// The sampler's check of the heap held: the allocation's stack first,
	// as formatStack writes it, then the goroutines.
	held := "panic: fuzzbox: out of memory: one execution held 2603 MiB in the heap for 500ms while it ran, over -rss_limit_mb=512\n\n" +
		"the largest live allocation was made at:\nruntime.makeslice(...)\n\t/go/src/runtime/slice.go:116\nexample.com/m.grow(...)\n\t/m/x.go:1\n" +
		"example.com/m.Match(...)\n\t/m/x.go:9\nexample.com/m.Get(...)\n\t/m/x.go:20\nexample.com/m.FuzzGet.func1(...)\n\t/m/x_test.go:15\n" +
		"reflect.Value.call(...)\n\t/go/src/reflect/value.go:586\n\n" +
		"goroutine 10 [running]:\ngithub.com/fuzzbox/fuzzbox/engine.limitWorkerMemory.func1()\n\t/x/memlimit.go:56 +0x1de\n\n" + stacks
	a, b := signature(KindOOM, sampler), signature(KindOOM, watchdog)
	if a != b {
		t.Errorf("one oom caught two ways, two signatures:\n%s\n%s", a, b)
	}
	if c := signature(KindOOM, held); c != a {
		t.Errorf("one oom caught by the resident and the heap checks, two signatures:\n%s\n%s", a, c)
	}
	if want := "oom||example.com/m.FuzzGet.func1|example.com/m.Get|example.com/m.Match|example.com/m.grow"; a != want {
		t.Errorf("signature %q, want %q", a, want)
	}
	// Caught inside a map's growth, or a string search, the next time.
	inMap := strings.SplitN(hangDump(false, "internal/runtime/maps.(*table).grow", "strings.Index", "example.com/m.grow"), "goroutine stacks:\n", 2)[1]
	if c := signature(KindOOM, watchdog[:strings.Index(watchdog, quitHeader)]+quitHeader+inMap); c != a {
		t.Errorf("one oom caught in the code and in a map's growth, two signatures:\n%s\n%s", a, c)
	}
	// A fuzz function that calls the standard library itself: the call
	// it is in tells one bug from another, wherever inside it was caught.
	direct := func(inner ...string) string {
		g := "goroutine 9 [running]:\n"
		for _, fn := range inner {
			g += fn + "({0x1})\n\t/go/src/x.go:1 +0x1\n"
		}
		return signature(KindOOM, "fuzzbox: out of memory: x; goroutine stacks:\n"+g+
			"example.com/m.FuzzJ.func1(0x0?)\n\t/m/x_test.go:9 +0x1\nreflect.Value.call({0x1})\n\t/go/src/reflect/value.go:586 +0x1\n")
	}
	j1, j2 := direct("encoding/json.(*decodeState).array", "encoding/json.Unmarshal"), direct("encoding/json.(*decodeState).object", "encoding/json.(*decodeState).value", "encoding/json.Unmarshal")
	if j1 != j2 || j1 != "oom||example.com/m.FuzzJ.func1|encoding/json.Unmarshal" {
		t.Errorf("one oom in json.Unmarshal, called by the fuzz function: signatures %q and %q", j1, j2)
	}
	if r := direct("regexp.(*Regexp).backtrack", "regexp.(*Regexp).MatchString"); r == j1 {
		t.Errorf("ooms in json.Unmarshal and regexp share the signature %q", r)
	}
	other := strings.Replace(watchdog, "example.com/m.Get(", "example.com/m.Delete(", 1)
	if c := signature(KindOOM, other); c == a {
		t.Errorf("ooms reached through Get and through Delete share the signature %q", c)
	}
	// Without stacks (the kernel's OOM killer): the message, as before.
	if d := signature(KindOOM, "fuzzbox: out of memory: the kernel's OOM killer killed the worker twice (x)"); d != "oom|fuzzbox: out of memory: the kernel's OOM killer killed the worker twice ()|" {
		t.Errorf("signature without stacks = %q", d)
	}
}

// TestLeakSignature: a leak is known by where its goroutine was started and
// what it runs, not by where it blocked, which depends on the input
// (go-milter's fuzz test: one goroutine writing into an unread pipe, blocked
// in Write for one input and in Close for another).
func TestLeakSignature(t *testing.T) {
	leak := func(blocked, start, creator string) string {
		return leakHeader + "1 goroutine started by the input still blocked (select) 50ms after the fuzz function returned, created by " + creator + "; the same on each of 3 runs in a row\n" +
			leakHint + "\ngoroutine 56 [select]:\nio.(*pipe).write(0x1, {0x2, 0x0, 0x1000})\n\t/go/src/io/pipe.go:86 +0x2c5\n" +
			"io.(*PipeWriter).Write(0x1?, {0x2?, 0x1000?, 0x1000?})\n\t/go/src/io/pipe.go:161 +0x37\n" +
			blocked + "(0x3)\n\t/mod/x/text/transform/transform.go:245 +0x29e\n" +
			start + "()\n\t/src/m/m_test.go:497 +0x1f9\n" +
			"created by " + creator + " in goroutine 55\n\t/src/m/m_test.go:489 +0x2ea\n"
	}
	const start, creator = "example.com/m.FuzzT.func1.1", "example.com/m.FuzzT.func1"
	write := signature(KindLeak, leak("golang.org/x/text/transform.(*Writer).Write", start, creator))
	closed := signature(KindLeak, leak("golang.org/x/text/transform.(*Writer).Close", start, creator))
	if write != closed {
		t.Errorf("one leak blocked at two places, two signatures:\n%s\n%s", write, closed)
	}
	if want := "leak||" + creator + "|" + start; write != want {
		t.Errorf("signature %q, want %q", write, want)
	}
	if other := signature(KindLeak, leak("golang.org/x/text/transform.(*Writer).Write", "example.com/m.FuzzT.func1.2", creator)); other == write {
		t.Errorf("goroutines running two functions share the signature %q", other)
	}
	if other := signature(KindLeak, leak("golang.org/x/text/transform.(*Writer).Write", start, "example.com/m.FuzzU.func1")); other == write {
		t.Errorf("goroutines started by two functions share the signature %q", other)
	}
}

// TestFailureKey: what minimization keeps of a failure besides its kind.
func TestFailureKey(t *testing.T) {
	userPanic := func(text, fn, n string) string { return cleanMessage(recoveredPanic(text, fn, n)) }
	for _, tt := range []struct {
		name      string
		kind      string
		a, b      string
		wantEqual bool
	}{
		{"panic, text quoting another input", KindPanic, userPanic(`bad input "xy"`, "example.com/m.parse", "5"),
			userPanic(`bad input "x"`, "example.com/m.parse", "5"), true},
		{"panic, another line of the function", KindPanic, userPanic("boom", "example.com/m.parse", "5"),
			userPanic("boom", "example.com/m.parse", "6"), false},
		{"panic, another function", KindPanic, userPanic("boom", "example.com/m.parse", "5"),
			userPanic("boom", "example.com/m.lex", "5"), false},
		{"runtime error, other index", KindPanic, userPanic("runtime error: index out of range [5] with length 3", "example.com/m.parse", "5"),
			userPanic("runtime error: index out of range [7] with length 2", "example.com/m.parse", "5"), true},
		{"runtime errors of two kinds at one line", KindPanic, userPanic("runtime error: index out of range [-1]", "example.com/m.parse", "5"),
			userPanic("runtime error: invalid memory address or nil pointer dereference", "example.com/m.parse", "5"), false},
		{"t.Fatal, text quoting another input", KindFail, tFatal, strings.Replace(tFatal, "length 7", `length 3: "abc"`, 1), true},
		{"t.Fatal, another line", KindFail, tFatal, strings.Replace(tFatal, "x_test.go:12", "x_test.go:14", 1), false},
		{"fatal, other goroutines", KindFatal, mapWrites("example.com/m.a", "5"), mapWrites("example.com/m.b", "6"), true},
		{"fatal, other errors", KindFatal, mapWrites("example.com/m.a", "5"), stackOverflow, false},
		{"hang, anywhere", KindHang, "fuzzbox: hang: x\nexample.com/m.loop(0x1)\n\t/m/x.go:1 +0x1\n", "fuzzbox: hang: y", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ka, kb := failureKey(tt.kind, tt.a), failureKey(tt.kind, tt.b)
			if (ka == kb) != tt.wantEqual {
				t.Errorf("keys equal = %v, want %v:\n  %q\n  %q", ka == kb, tt.wantEqual, ka, kb)
			}
			if tt.kind != KindHang && ka == "" {
				t.Errorf("no key for %q", tt.a)
			}
		})
	}
	// The worker sees the message before cleanMessage; the key is the same.
	raw := recoveredPanic("runtime error: index out of range [-1]", "example.com/m.parse", "5")
	if failureKey(KindPanic, raw) != failureKey(KindPanic, cleanMessage(raw)) {
		t.Errorf("the key of a raw message differs from the cleaned one's: %q vs %q", failureKey(KindPanic, raw), failureKey(KindPanic, cleanMessage(raw)))
	}
	if !sameFailure(KindPanic, "", failureKind(raw), raw) || sameFailure(KindFail, "", failureKind(raw), raw) {
		t.Error("sameFailure with no key does not compare the kind alone")
	}
}

// TestRecordedBucketOnce: a failure minimized into the bucket of one this
// run recorded (a failing testdata file, then a find that goes in another
// way) is a duplicate of it, not a second unique failure: the text said "2
// unique failures" for one bug, and fuzzbox ci's SARIF had the rule twice,
// which its schema refuses. The worker asks first (recordedAs), so no
// second reproducer is written.
func TestRecordedBucketOnce(t *testing.T) {
	c, events := fakeCoordinator(t, "idle", func(o *Options) { o.KeepGoing = true })
	seedMsg := recoveredPanic("runtime error: index out of range [1] with length 0", "example.com/m.at", "5")
	sig := signature(KindPanic, seedMsg)
	seed := &failure{kind: KindPanic, msg: seedMsg, path: "testdata/fuzz/FuzzX/old", seed: "old", sig: sig, bucket: bucketID(sig)}
	c.recorded(seed, "testdata/fuzz/FuzzX/old")
	if got := c.recordedAs(bucketID(sig)); got != "testdata/fuzz/FuzzX/old" {
		t.Errorf("recordedAs = %q, want the seed's file", got)
	}
	if got := c.recordedAs(bucketID("other")); got != "" {
		t.Errorf("recordedAs of another bucket = %q, want none", got)
	}
	caught := recoveredPanic("runtime error: index out of range [2] with length 0", "example.com/m.long", "9")
	found := &failure{kind: KindPanic, msg: seedMsg, sig: signature(KindPanic, caught), bucket: bucketID(signature(KindPanic, caught))}
	c.recorded(found, c.recordedAs(bucketID(sig)))
	if len(c.fails) != 1 || c.fails[0].hits != 2 {
		t.Fatalf("%d failures recorded (hits %d), want the seed's, hit twice", len(c.fails), c.fails[0].hits)
	}
	dups := 0
	for _, e := range decodeEvents(t, events) {
		if e.Type == event.Failure && e.Duplicate && e.Bucket == bucketID(sig) && e.Reproducer == "testdata/fuzz/FuzzX/old" {
			dups++
		}
	}
	if dups != 1 {
		t.Errorf("%d duplicate events of the seed's bucket, want 1", dups)
	}
}

// TestFlakyClaimsFreeTheirLine: failures at one line that were flaky
// (unclaimed) or unconfirmed take none of its claims: five flaky reports
// of a line used them up, and a solid failure there was never reported.
func TestFlakyClaimsFreeTheirLine(t *testing.T) {
	c, _ := fakeCoordinator(t, "idle", func(o *Options) { o.KeepGoing = true })
	for i := range 2 * maxClaimsPerLine {
		f := &failure{kind: KindFail, msg: fmt.Sprintf("    --- FAIL: FuzzX (0.00s)\n        x_test.go:12: bad input %s\n", strings.Repeat("a", i))}
		sig := signature(f.kind, f.msg)
		if !c.claim(f, sig) {
			t.Fatalf("failure %d at the line refused after %d flaky ones", i, i)
		}
		c.unclaim(f, sig) // flaky, as unconfirmed releases it too (dropClaim)
	}
	f := &failure{kind: KindFail, msg: "    --- FAIL: FuzzX (0.00s)\n        x_test.go:12: bad input solid\n"}
	if !c.claim(f, signature(f.kind, f.msg)) {
		t.Error("a solid failure at a line of flaky ones was refused")
	}
}

// TestClaimBoundsFailuresPerLine: with -keepgoing, a t.Error line whose
// message prints the input unquoted makes a new signature for every
// failing input (a quoted one does not: shape);
// past maxClaimsPerLine at one line they are refused, with one warning (the
// expr soak row hit the bound and nothing said so), so a long run records
// a bounded number. Other lines and other kinds are not affected.
func TestClaimBoundsFailuresPerLine(t *testing.T) {
	c, events := fakeCoordinator(t, "idle", func(o *Options) { o.KeepGoing = true })
	fail := func(line int, input string) *failure {
		return &failure{kind: KindFail, msg: fmt.Sprintf("    --- FAIL: FuzzX (0.00s)\n        x_test.go:%d: bad input %s\n", line, input)}
	}
	claimed := 0
	for i := range 3 * maxClaimsPerLine {
		f := fail(12, strings.Repeat("a", i))
		if c.claim(f, signature(f.kind, f.msg)) {
			claimed++
			c.recorded(f, fmt.Sprintf("testdata/fuzz/FuzzX/%d", i))
		}
	}
	if claimed != maxClaimsPerLine || len(c.fails) != maxClaimsPerLine {
		t.Errorf("claimed %d distinct messages of one line (%d recorded), want %d", claimed, len(c.fails), maxClaimsPerLine)
	}
	if f := (&failure{kind: KindFail, msg: "    --- FAIL: FuzzX (0.00s)\n        x_test.go:13: short input\n"}); !c.claim(f, signature(f.kind, f.msg)) {
		t.Error("a failure at another line was refused")
	}
	p := &failure{kind: KindPanic, msg: recoveredPanic("boom", "example.com/m.parse", "5")}
	if !c.claim(p, signature(p.kind, p.msg)) {
		t.Error("a panic was refused")
	}
	// A panic's signature holds its message too: bounded the same way at
	// the line that panics.
	panics := 0
	for i := range 3 * maxClaimsPerLine {
		p := &failure{kind: KindPanic, msg: recoveredPanic("bad byte "+strings.Repeat("b", i), "example.com/m.lex", "7")}
		if c.claim(p, signature(p.kind, p.msg)) {
			panics++
			c.recorded(p, fmt.Sprintf("testdata/fuzz/FuzzX/p%d", i))
		}
	}
	if panics != maxClaimsPerLine {
		t.Errorf("claimed %d distinct panics of one line, want %d", panics, maxClaimsPerLine)
	}
	warnings, panicWarnings := 0, 0
	for _, e := range decodeEvents(t, events) {
		if e.Type == event.Failure && e.Duplicate {
			t.Errorf("a refused failure was reported as a duplicate: %s", e.Message)
		}
		if e.Type == event.Warning && strings.Contains(e.Message, "at x_test.go:12; further ones at that line are not") {
			warnings++
		}
		if e.Type == event.Warning && strings.Contains(e.Message, "at /tmp/m/x_test.go:17; further ones at that line are not") {
			panicWarnings++
		}
	}
	if warnings != 1 {
		t.Errorf("%d warnings that failures at x_test.go:12 are no longer recorded, want 1", warnings)
	}
	if panicWarnings != 1 {
		t.Errorf("%d warnings that panics at /tmp/m/x_test.go:17 are no longer recorded, want 1", panicWarnings)
	}
	if f := fail(12, ""); c.claim(f, signature(f.kind, f.msg)) {
		t.Error("a recorded signature was claimed again")
	}
}

// TestHangMessage: a hang's report says when its stacks may not show where
// it hangs.
func TestHangMessage(t *testing.T) {
	tests := []struct {
		desc, out, want string
	}{
		{"worker's report", "log line\n" + quitHeader + "goroutine 7 [running]:\nexample.com/m.loop()\n",
			"fuzzbox: hang: the input ran longer than the timeout of 2s; goroutine stacks:\n" + quitHeader + "goroutine 7"},
		{"runtime's report, complete", "SIGQUIT: quit\nPC=0x1 m=1\n\ngoroutine 7 [running]:\nexample.com/m.loop()\n",
			"; goroutine stacks:\nSIGQUIT: quit"},
		{"runtime's report, a running goroutine missing", "SIGQUIT: quit\n\ngoroutine 7 [running]:\n\t" + stackUnavailable + "\n",
			"; goroutine stacks, incomplete: the stack of a goroutine running on another thread, the hung one perhaps, could not be read:\nSIGQUIT"},
		{"no report", "last words\n", "; the worker printed no goroutine stacks before it was killed. Its last output:\nlast words"},
	}
	for _, tt := range tests {
		if got := hangMessage(2*time.Second, "", tt.out); !strings.Contains(got, tt.want) {
			t.Errorf("%s: hangMessage = %q, want it to contain %q", tt.desc, got, tt.want)
		}
	}
}

// TestBlockedHang: a hang whose fuzz function's goroutine waits on another
// is called a deadlock; one that runs (a loop) or sleeps is not.
func TestBlockedHang(t *testing.T) {
	dump := func(state string, frames ...string) string {
		out := quitHeader + "goroutine 1 [chan receive]:\ntesting.(*F).Fuzz(0x1)\n\t/go/testing/fuzz.go:1\n\n" +
			"goroutine 7 [" + state + "]:\n"
		for _, f := range append(frames, "reflect.Value.call({0x1})", "testing.tRunner(0x1)") {
			out += f + "\n\t/x.go:1 +0x1\n"
		}
		return out
	}
	tests := []struct {
		desc, out, want string
	}{
		{"channel", dump("chan receive, 2 minutes", "runtime.gopark(0x1)", "runtime.chanrecv1(0x1)", "example.com/m.FuzzX.func1(0x1)"),
			"the fuzz function's goroutine was blocked (chan receive), not running: a deadlock"},
		{"mutex", dump("sync.Mutex.Lock", "runtime.gopark(0x1)", "sync.(*Mutex).Lock(0x1)", "example.com/m.FuzzX.func1(0x1)"),
			"blocked (sync.Mutex.Lock)"},
		{"subtest", dump("chan receive", "runtime.gopark(0x1)", "runtime.chanrecv1(0x1)", "testing.(*T).Run(0x1)", "example.com/m.FuzzX.func1(0x1)"),
			"blocked in t.Run (chan receive), waiting for a subtest that did not end"},
		{"loop", dump("running", "example.com/m.FuzzX.func1(0x1)"), ""},
		{"subtest in a loop", dump("chan receive", "runtime.gopark(0x1)", "runtime.chanrecv1(0x1)", "testing.(*T).Run(0x1)", "example.com/m.FuzzX.func1(0x1)") +
			"\ngoroutine 81 [runnable]:\nexample.com/m.FuzzX.func1.1(0x1)\n\t/x.go:15 +0x1\ntesting.tRunner(0x1)\n\t/go/testing/testing.go:1 +0x1\n",
			"blocked (chan receive) while a goroutine of the code under test was still running, in example.com/m.FuzzX.func1.1: a loop that did not end in time, not a deadlock"},
		{"sleep", dump("sleep", "time.Sleep(0x1)", "example.com/m.FuzzX.func1(0x1)"), ""},
		{"waiting on a poll", dump("chan receive", "runtime.gopark(0x1)", "runtime.chanrecv1(0x1)", "example.com/m.FuzzX.func1(0x1)") +
			"\ngoroutine 81 [sleep]:\ntime.Sleep(0x1)\n\t/go/time/sleep.go:1 +0x1\nexample.com/m.poll(0x1)\n\t/x.go:15 +0x1\n",
			"while a goroutine of the code under test was sleeping, in a system call or waiting for I/O, in example.com/m.poll: a wait (a poll, a process, the network) that did not end in time, perhaps not a deadlock"},
		{"a standard library's goroutine sleeping", dump("chan receive", "runtime.gopark(0x1)", "runtime.chanrecv1(0x1)", "example.com/m.FuzzX.func1(0x1)") +
			"\ngoroutine 81 [IO wait]:\ninternal/poll.(*FD).Accept(0x1)\n\t/go/x.go:1 +0x1\nnet/http.(*Server).Serve(0x1)\n\t/go/y.go:1 +0x1\n",
			"the fuzz function's goroutine was blocked (chan receive), not running: a deadlock"},
	}
	for _, tt := range tests {
		got := blockedHang(tt.out)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s: blockedHang = %q, want %q", tt.desc, got, tt.want)
		}
	}
}

func TestWriteBucketOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "FuzzX.buckets")
	b := bucket{ID: bucketID("panic||a.f|a.g"), Kind: "panic", Signature: "panic||a.f|a.g"}
	if knownBucket([]string{dir}, b.ID) {
		t.Fatal("known before it was written")
	}
	if wrote, err := writeBucket(dir, b); !wrote || err != nil {
		t.Fatalf("first write: %v, %v", wrote, err)
	}
	if wrote, err := writeBucket(dir, bucket{ID: b.ID, Kind: "other"}); wrote || err != nil {
		t.Fatalf("second write: %v, %v; want not written, no error", wrote, err)
	}
	if !knownBucket([]string{dir}, b.ID) {
		t.Fatal("not known after it was written")
	}
	data, err := os.ReadFile(filepath.Join(dir, b.ID))
	if err != nil || !strings.Contains(string(data), `"kind": "panic"`) {
		t.Fatalf("bucket file %q, %v: want the first write's", data, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d files in the bucket directory, want 1 (no temporary file left)", len(ents))
	}
	if bucketID("x") != bucketID("x") || bucketID("x") == bucketID("y") || len(bucketID("x")) != 16 {
		t.Error("bucketID is not a stable 16-digit id per signature")
	}
}

// TestBucketOfMinimized: a failure is filed under the bucket of the
// failure its reproducer shows, minimized. expr's fuzz test reports every
// unexpected error at one t.Fatal line, quoting the input's function: one
// caught as "bitnand" and minimized to "bitand" is the bucket of "bitand",
// and a later run that catches "bitand" directly, or "bitnand" again and
// minimizes it elsewhere, knows it.
func TestBucketOfMinimized(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "FuzzExpr")
	msg := func(fn string) string {
		return "fuzz_test.go:92: cannot use map as argument (type int) to call " + fn + " (1:1)"
	}
	run := func(caught, minimized string) *failure {
		t.Helper()
		c := &coordinator{setup: &setup{opts: Options{Target: "FuzzExpr", CacheDir: cache, KeepGoing: true}, rep: &reporter{log: io.Discard}},
			sigs: map[string]bool{}, alias: map[string]string{}}
		sig := signature(KindFail, msg(caught))
		f := &failure{kind: KindFail, msg: msg(minimized), sig: sig, bucket: bucketID(sig)}
		f.known = knownBucket(bucketDirs(&c.opts), f.bucket) // as recordFailure does
		c.recorded(f, "testdata/fuzz/FuzzExpr/x")
		if got := c.bucketOf(sig); got != f.bucket {
			t.Errorf("caught as %s: a duplicate caught the same way is in bucket %s, want the recorded %s", caught, got, f.bucket)
		}
		return f
	}
	want := bucketID(signature(KindFail, msg("bitand")))
	if f := run("bitnand", "bitand"); f.bucket != want || f.known {
		t.Errorf("first run: bucket %s, known %v; want %s (the minimized failure's), new", f.bucket, f.known, want)
	}
	for _, name := range []string{want, bucketID(signature(KindFail, msg("bitnand")))} {
		if !knownBucket(bucketDirs(&Options{CacheDir: cache}), name) {
			t.Errorf("bucket %s not written", name)
		}
	}
	for _, tt := range []struct{ caught, minimized, bucket string }{
		{"bitand", "bitand", want}, // the minimized form, caught directly
		{"bitor", "bitand", want},  // another form minimized to it
		{"bitnand", "bitxor", bucketID(signature(KindFail, msg("bitxor")))}, // caught as before, minimized elsewhere
	} {
		if f := run(tt.caught, tt.minimized); f.bucket != tt.bucket || !f.known {
			t.Errorf("caught as %s, minimized to %s: bucket %s, known %v; want %s, known", tt.caught, tt.minimized, f.bucket, f.known, tt.bucket)
		}
	}
}

// TestMinimizedIntoRecorded: within one run, a failure minimized into the
// very input of one recorded before is a duplicate of it, and so is one
// minimized into another input of the same bucket (it was a failure of its
// own, a second reproducer of one bug; the worker now asks, recordedAs, and
// writes none).
func TestMinimizedIntoRecorded(t *testing.T) {
	events := new(bytes.Buffer)
	c := &coordinator{setup: &setup{opts: Options{Target: "FuzzExpr", CacheDir: filepath.Join(t.TempDir(), "FuzzExpr"), KeepGoing: true},
		rep: &reporter{events: events}}, sigs: map[string]bool{}, alias: map[string]string{}}
	msg := func(fn string) string {
		return "fuzz_test.go:92: cannot use map as argument (type int) to call " + fn + " (1:1)"
	}
	for _, r := range []struct{ caught, path string }{{"bitnand", "testdata/fuzz/FuzzExpr/a"}, {"bitor", "testdata/fuzz/FuzzExpr/a"}, {"bitxor", "testdata/fuzz/FuzzExpr/b"}} {
		sig := signature(KindFail, msg(r.caught))
		c.recorded(&failure{kind: KindFail, msg: msg("bitand"), sig: sig, bucket: bucketID(sig)}, r.path)
	}
	want := bucketID(signature(KindFail, msg("bitand")))
	var got []string
	for _, e := range decodeEvents(t, events) {
		if e.Type == event.Failure {
			got = append(got, fmt.Sprintf("%s dup=%v known=%v %s", e.Reproducer, e.Duplicate, e.Known, e.Bucket))
		}
	}
	wantEvents := []string{
		"testdata/fuzz/FuzzExpr/a dup=false known=false " + want,
		"testdata/fuzz/FuzzExpr/a dup=true known=false " + want, // names the reproducer it was minimized into
		"testdata/fuzz/FuzzExpr/a dup=true known=false " + want, // minimized into b: the recorded failure's
	}
	if !slices.Equal(got, wantEvents) || len(c.fails) != 1 || c.fails[0].hits != 3 {
		t.Errorf("failure events:\n%s\nwant:\n%s\n(%d failures recorded, want 1, hit 3 times)", strings.Join(got, "\n"), strings.Join(wantEvents, "\n"), len(c.fails))
	}
}

// lateDump is a worker's death by a panic on a goroutine the fuzz function
// started, with the other goroutines the runtime lists after it; other, if
// set, is one of them.
func lateDump(id int, other string) string {
	return fmt.Sprintf("panic: late goroutine panic\n\ngoroutine %d [running]:\nexample.com/m.FuzzX.func1.1()\n\t/m/x_test.go:12 +0x3e\n"+
		"created by example.com/m.FuzzX.func1 in goroutine %d\n\t/m/x_test.go:12 +0xcd\n\n"+
		"goroutine 1 [chan receive]:\ntesting.runFuzzing({0x1, 0x2})\n\t/go/src/testing/fuzz.go:624 +0x7ec\n\n"+
		"goroutine 9 [select]:\n%s()\n\t/m/other.go:3 +0x1\n", id, id-1, other)
}

// TestSignatureWithThreadHeaders: GOTRACEBACK=system or crash (and a
// runtime throw under any setting) adds the goroutine's g and m to each
// header ("goroutine 41 gp=0x... m=6 mp=0x... [running]:") and fp, sp and
// pc to each file line; the signature is the one of the plain dump (the
// headers went unseen, and the other goroutines' frames made one bug a
// new bucket for each GOTRACEBACK).
func TestSignatureWithThreadHeaders(t *testing.T) {
	plain := "fatal error: concurrent map writes\n\ngoroutine 41 [running]:\n" +
		"internal/runtime/maps.fatal({0x6ca1c7?, 0x0?})\n\t/go/src/runtime/panic.go:1181 +0x18\n" +
		"example.com/m.FuzzX.func1.1()\n\t/m/x_test.go:41 +0x72\n" +
		"created by example.com/m.FuzzX.func1 in goroutine 38\n\t/m/x_test.go:39 +0x116\n"
	crash := "fatal error: concurrent map writes\n\ngoroutine 41 gp=0x4ab93045680 m=6 mp=0x4ab930fe008 [running]:\n" +
		"runtime.fatal({0x6ca1c7, 0x15})\n\t/go/src/runtime/panic.go:1253 +0x74 fp=0x4ab9303d710 sp=0x4ab9303d6d0 pc=0x44e434\n" +
		"internal/runtime/maps.fatal({0x6ca1c7?, 0x0?})\n\t/go/src/runtime/panic.go:1181 +0x18 fp=0x4ab9303d730 sp=0x4ab9303d710 pc=0x487af8\n" +
		"example.com/m.FuzzX.func1.1()\n\t/m/x_test.go:41 +0x72 fp=0x4ab9303d7e0 sp=0x4ab9303d7a0 pc=0x56af12\n" +
		"runtime.goexit({})\n\t/go/src/runtime/asm_amd64.s:1771 +0x1 fp=0x4ab9303d7e8 sp=0x4ab9303d7e0 pc=0x48f021\n" +
		"created by example.com/m.FuzzX.func1 in goroutine 39\n\t/m/x_test.go:39 +0x116\n\n" +
		"goroutine 1 gp=0x4ab92fbe1e0 m=nil [chan receive]:\n" +
		"testing.runFuzzing({0x6e6978, 0x4ab92ffec00})\n\t/go/src/testing/fuzz.go:624 +0x7ec fp=0x1 sp=0x2 pc=0x3\n\n" +
		"goroutine 9 gp=0x4ab92fbe3c0 m=nil [select]:\nexample.com/m.idle()\n\t/m/other.go:3 +0x1 fp=0x1 sp=0x2 pc=0x3\n"
	if sp, sc := signature(KindFatal, plain), signature(KindFatal, crash); sp != sc {
		t.Errorf("signatures differ with GOTRACEBACK=crash's headers:\n%s\n%s", sp, sc)
	}
}

// TestSignatureOfFirstGoroutine: a death's signature holds the frames of
// the goroutine that failed, not those of the goroutines listed after it,
// which vary from one death to the next; such a goroutine, started by the
// code, is named (strayGoroutine), and for one the standard library
// started for it (time.AfterFunc), the code's function it runs.
func TestSignatureOfFirstGoroutine(t *testing.T) {
	a, b := lateDump(54, "example.com/m.idleA"), lateDump(8, "example.com/m.idleB")
	if sa, sb := signature(KindPanic, a), signature(KindPanic, b); sa != sb {
		t.Errorf("signatures differ with the other goroutines:\n%s\n%s", sa, sb)
	}
	if got := strayGoroutine(a, "example.com/m"); got != "example.com/m.FuzzX.func1 started" {
		t.Errorf("strayGoroutine = %q, want the fuzz function's closure that started it", got)
	}
	timer := "panic: late\n\ngoroutine 9 [running]:\nexample.com/m.arm.func1()\n\t/m/p.go:9 +0x1\n" +
		"created by time.goFunc\n\t/go/src/time/sleep.go:215 +0x2d\n"
	if got, want := strayGoroutine(timer, "example.com/m"), "time.goFunc started, running example.com/m.arm.func1"; got != want {
		t.Errorf("strayGoroutine = %q, want %q", got, want)
	}
	own := "panic: boom\n\ngoroutine 7 [running]:\nexample.com/m.parse()\n\t/m/p.go:5 +0x1\n" +
		"created by testing.(*F).Fuzz.func1 in goroutine 6\n\t/go/src/testing/fuzz.go:328 +0x668\n"
	if got := strayGoroutine(own, "example.com/m"); got != "" {
		t.Errorf("strayGoroutine of the input's own goroutine = %q, want none", got)
	}
}

// TestConfirms: a re-run confirms a failure of the same kind, and an input
// whose memory grew without end confirms itself across the two limits that
// stop it: an oom in one run, in another a hang whose memory still grew at
// the watchdog's growth bound (x/text's UTF-16 decoder on a loaded machine:
// a hang at 20 s, its re-runs ooms, called flaky and not written). A hang
// that stopped moving is no oom's.
func TestConfirms(t *testing.T) {
	grew := hangMessage(10e9, "the input ran 20s "+whileGrew+" (1764 MiB resident), past twice the timeout", "goroutine 1 [running]:\n")
	stuck := hangMessage(10e9, "", "goroutine 1 [running]:\n")
	oom := "fuzzbox: out of memory: one execution held 2603 MiB in the heap for 500ms while it ran, over -rss_limit_mb=2048"
	for _, tt := range []struct {
		first, firstMsg, rerun, rerunMsg string
		want                             bool
	}{
		{KindPanic, "panic: x", KindPanic, "panic: y", true},
		{KindHang, grew, KindOOM, oom, true},
		{KindOOM, oom, KindHang, grew, true},
		{KindHang, stuck, KindOOM, oom, false},
		{KindOOM, oom, KindHang, stuck, false},
		{KindPanic, "panic: x", KindOOM, oom, false},
		{KindFail, grew, KindOOM, oom, false}, // the words alone are no hang
	} {
		f := &failure{kind: tt.first, msg: tt.firstMsg}
		if got := confirms(f, tt.rerun, tt.rerunMsg); got != tt.want {
			t.Errorf("%s (%.40q) re-run as %s (%.40q): confirms = %v, want %v", tt.first, tt.firstMsg, tt.rerun, tt.rerunMsg, got, tt.want)
		}
	}
}
