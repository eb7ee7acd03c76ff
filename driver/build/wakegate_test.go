package build

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGateWakeups: the Go release's runtime/proc.go gets newproc's and
// ready's wake-ups gated, each on its own line (positions in proc.go stay
// the runtime's); a runtime without them as expected is left alone.
func TestGateWakeups(t *testing.T) {
	path, src := gorootSource(t, "runtime", "proc.go")
	out := gateWakeups(src, path)
	if n := bytes.Count(out, []byte("fuzzbox_nowake == 0")); n != 2 {
		t.Fatalf("gated proc.go has %d gated wake-ups, want 2", n)
	}
	first, rest, _ := bytes.Cut(out, []byte("\n"))
	if string(first) != "//line "+path+":1" || bytes.Count(rest, []byte("\n")) != bytes.Count(src, []byte("\n")) {
		t.Errorf("gated proc.go starts %q and has %d lines after it, want the line directive and %d", first, bytes.Count(rest, []byte("\n")), bytes.Count(src, []byte("\n")))
	}
	if got := gateWakeups(bytes.Replace(src, []byte(readyWake), []byte("\trunqput(mp.p.ptr(), gp, next)\n"), 1), path); got != nil {
		t.Error("a proc.go without ready's wake-up was rewritten")
	}
}

// gorootSource returns the path and the source of the file name of the
// standard package pkg, as the go command's Go release has it.
func gorootSource(t *testing.T, pkg, name string) (string, []byte) {
	t.Helper()
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(strings.TrimSpace(string(goroot)), "src", filepath.FromSlash(pkg), name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, src
}

const wakeGateTests = `package u

import "testing"

func FuzzMapWrites(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if string(b) != "M" {
			return
		}
		m := map[int]int{}
		for g := 0; g < 4; g++ {
			go func(g int) {
				for i := 0; ; i++ {
					m[i%64+g] = i
				}
			}(g)
		}
		select {}
	})
}
`

// TestLibFuzzerWakeGate: a libFuzzer binary's runtime has the wake-ups
// gated, and goroutines the fuzz function starts still run in parallel:
// four writing one map die of concurrent map writes (on one processor they
// would run one at a time, and the input would hang).
func TestLibFuzzerWakeGate(t *testing.T) {
	needClang(t)
	bin := buildLibFuzzerTest(t, wakeGateTests, "FuzzMapWrites")
	if !wakeupGated(t, bin) {
		t.Errorf("the binary's runtime.ready calls wakep without a check before it on its line: its wake-ups are not gated")
	}
	work := t.TempDir()
	out, code := runBinary(t, bin, work, "-runs=2000", "-seed=3", "-max_len=8")
	if code != 0 {
		t.Fatalf("2000 runs: exit %d:\n%s", code, tail(out))
	}
	in := filepath.Join(work, "in-M")
	if err := os.WriteFile(in, []byte("M"), 0o666); err != nil {
		t.Fatal(err)
	}
	out, code = runBinary(t, bin, work, "-timeout=60", in)
	if code == 0 || !strings.Contains(out, "concurrent map writes") {
		t.Errorf("four goroutines writing one map: exit %d, want concurrent map writes:\n%s", code, tail(out))
	}
}

// wakeupGated reports whether runtime.ready in bin checks something on the
// line of its call of wakep before it makes it (the gate; the runtime's own
// ready has the call alone on its line).
func wakeupGated(t *testing.T, bin string) bool {
	t.Helper()
	out, err := exec.Command("go", "tool", "objdump", "-s", "^runtime.ready$", bin).Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	var prev string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "proc.go:") {
			continue
		}
		if strings.Contains(line, "runtime.wakep(SB)") {
			return prev == f[0]
		}
		prev = f[0]
	}
	t.Fatalf("no call of runtime.wakep in runtime.ready:\n%s", out)
	return false
}
