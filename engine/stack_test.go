package engine

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/basedeps"
	"github.com/fuzzbox/fuzzbox/event"
)

// TestWorkerEnv: workers see the environment go test gives the code under
// test, plus fuzzbox's memory limit: no GODEBUG or GOTRACEBACK of fuzzbox's,
// which the code, and the processes it starts, would see (the starting
// stack size is the runtime's default, TestStackBallast; complete dumps
// come from RunWorker's traceback setting).
func TestWorkerEnv(t *testing.T) {
	t.Setenv("GODEBUG", "")
	t.Setenv("GOTRACEBACK", "")
	os.Unsetenv("GODEBUG")
	os.Unsetenv("GOTRACEBACK")
	for _, kv := range workerEnv(100) {
		if strings.HasPrefix(kv, "GODEBUG=") || strings.HasPrefix(kv, "GOTRACEBACK=") {
			t.Errorf("worker environment has %s", kv)
		}
	}
}

// TestWorkerEnvNotSeen: what the coordinator passes its workers in the
// environment (leak detection's package, the memory limit) is read and
// removed before the fuzz function runs: the code under test, and the
// processes it starts, see go test's environment.
func TestWorkerEnvNotSeen(t *testing.T) {
	r := runFake(t, "envcheck", time.Second, func(o *Options) { o.Package = "example.com/m" })
	if fails := r.ofType(event.Failure); len(fails) != 0 || r.err != nil {
		t.Errorf("failures %+v (%v): want none", fails, r.err)
	}
}

// stackProbeEnv makes the test binary print the runtime's starting stack
// size after starting the ballast and collecting garbage (TestMain).
const stackProbeEnv = "FUZZBOX_TEST_STACK_PROBE"

// stackProbe is that printing. The ballast goroutines grow their stacks
// only once they are scheduled, which on a loaded machine can be after the
// first collections: the probe collects again, for up to a second, until
// the size reaches 16 KB (a worker collects garbage over and over, so it
// gets there too).
func stackProbe() {
	basedeps.StackBallast()
	s := []metrics.Sample{{Name: "/gc/stack/starting-size:bytes"}}
	for range 100 {
		runtime.GC()
		runtime.GC()
		if metrics.Read(s); s[0].Value.Uint64() >= 16<<10 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	os.Stdout.WriteString(strconv.FormatUint(s[0].Value.Uint64(), 10))
}

// TestStackBallast: in a process started with the workers' environment the
// runtime starts goroutines with 16 KB stacks; without it, with its
// default.
func TestStackBallast(t *testing.T) {
	probe := func(env []string) int {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(env, stackProbeEnv+"=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("probe: %v", err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatalf("probe printed %q", out)
		}
		return n
	}
	if got := probe(workerEnv(0)); got != 16<<10 {
		t.Errorf("worker starting stack size = %d, want %d", got, 16<<10)
	}
	if got := probe(append(os.Environ(), "GODEBUG=adaptivestackstart=0")); got >= 16<<10 {
		t.Errorf("starting stack size without adaptivestackstart = %d, want the runtime's default", got)
	}
}

// TestDropIdle: crash and hang reports do not list the ballast's goroutines
// or the SIGQUIT handler's.
func TestDropIdle(t *testing.T) {
	dump := "SIGQUIT: quit\n\ngoroutine 5 [chan receive (nil chan)]:\n" + basedeps.BallastFrame + "0x2000)\n\t/x/stack.go:70 +0x1\n\n" +
		"goroutine 9 [running]:\nexample.com/t.FuzzX.func1(...)\n\t/x/t_test.go:9 +0x1\n\n" +
		"goroutine 6 [chan receive]:\n" + quitFrame + "func1()\n\t/x/quit.go:50 +0x1\ncreated by " + quitFrame[:len(quitFrame)-1] + " in goroutine 1"
	got := dropIdle(dump)
	if strings.Contains(got, "ballast") || strings.Contains(got, "dumpOnQuit") || !strings.Contains(got, "example.com/t.FuzzX.func1") || !strings.HasPrefix(got, "SIGQUIT") {
		t.Errorf("dropIdle = %q", got)
	}
}
