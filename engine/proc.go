package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
)

// proc is one worker process as the coordinator sees it. One coordinator
// goroutine owns it and makes its calls; the watchdog goroutine only reads
// the exec count and kills the process.
type proc struct {
	cmd    *exec.Cmd
	conn   *ipc.Conn
	mem    *ipc.Mem
	toProc *os.File // write end of the call pipe; closing it tells the worker to exit
	out    *tailBuffer
	exited chan struct{} // closed when the process has exited
	dogged chan struct{} // closed when the watchdog, which reads mem, has returned
	state  *os.ProcessState
	reason atomic.Value              // string: why the watchdog killed it ("hang", "oom")
	busy   atomic.Bool               // a call is in flight
	rss    atomic.Int64              // resident MiB at the watchdog's last reading during a call
	grown  atomic.Value              // string: how the execution killed as a hang grew (the hang message's head), if it grew
	rss0   int64                     // rss after the process's first fuzz call (worn); 0 before
	calls  int64                     // executions reported by completed calls
	dict   [][]byte                  // the dictionary last sent to the process (see ipc.FuzzArgs.SameDict)
	known  []string                  // the known signatures last sent (ipc.FuzzArgs.SameKnown)
	hooks  atomic.Pointer[procHooks] // the fuzzing worker's, told of slow executions (early.go)
	// ooms are the kernel's counts of OOM kills when the process started
	// and when it exited (oomKills), valid when oomsRead is 2.
	ooms     [2]uint64
	oomsRead int
}

// valueCap is the shared-memory room for one encoded input: go test -fuzz's
// (100 MiB), so every input go test can run fits. The region is a sparse
// file: pages no input reached take no memory. Larger seeds are left out
// with a warning (loadInputs).
const valueCap = 100 << 20

func startProc(name string, args, env []string, covLen int, timeout, startLimit time.Duration, rssLimitMB int) (*proc, error) {
	mem, err := ipc.CreateMem(valueCap, covLen)
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		mem.Close()
		return nil, fmt.Errorf("engine: starting worker: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		mem.Close()
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("engine: starting worker: %w", err)
	}
	p := &proc{mem: mem, toProc: inW, out: newTailBuffer(256 << 10), exited: make(chan struct{}), dogged: make(chan struct{})}
	p.cmd = exec.Command(name, args...)
	// A worker starts where the process started, as the process did: a
	// fuzz test that changed directory (f.Chdir) does it again in the
	// worker, and a relative name (os.Args[0]) still names the binary.
	// (go test -fuzz's workers start in the changed directory and fail.)
	p.cmd.Dir = startDir
	p.cmd.ExtraFiles = []*os.File{inR, outW, mem.File()} // ipc.FdIn, FdOut, FdMem
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	// A process the code under test started and left running may hold
	// the worker's output open: its end is not waited for longer (each
	// re-run of a panic that leaves a "sleep 40 &" took 40 s).
	p.cmd.WaitDelay = outputDelay
	p.cmd.Env = append(workerEnv(rssLimitMB), env...)
	setWorkerAttr(p.cmd)
	p.countOOMs(0)
	err = startWorker(p.cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		mem.Close()
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("engine: starting worker: %w", err)
	}
	oomFirst(p.cmd.Process.Pid)
	p.conn = ipc.NewConn(outR, inW)
	go func() {
		p.cmd.Wait()
		workerWaited()
		p.countOOMs(1)
		p.state = p.cmd.ProcessState
		// Unblocks a call's read when a child the target started holds
		// the pipe open; a read in flight may then fail with os.ErrClosed
		// rather than see the end (diedReading).
		outR.Close()
		close(p.exited)
	}()
	go func() {
		defer close(p.dogged)
		p.watchdog(timeout, startLimit, rssLimitMB)
	}()
	return p, nil
}

// workerEnv passes the memory limit. The code under test sees the
// environment go test gives it otherwise: complete goroutine dumps come
// from the worker's own traceback setting (RunWorker), and the runtime's
// adaptivestackstart (stack.go) is on by default.
func workerEnv(rssLimitMB int) []string {
	return append(os.Environ(), fmt.Sprintf("%s=%d", rssLimitMBEnv, rssLimitMB))
}

// watchdog kills the worker when one execution runs longer than timeout
// (with SIGQUIT first, so the worker prints every goroutine's stack) or
// when its resident memory exceeds rssLimitMB. An execution whose resident
// memory grows on its way to the limit may run past the timeout (growth.go).
// An execution that has run a tenth of the timeout, or grown by a tenth of
// the memory limit, is told to the hooks (an early confirmation, early.go),
// and its end too; its growth is no end.
func (p *proc) watchdog(timeout, startLimit time.Duration, rssLimitMB int) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	started := time.Now()
	last := p.mem.Execs()
	execStart := started // when the execution running began (the count last moved)
	var g growth
	slow := false // the hooks were told the execution is slow
	for {
		select {
		case <-p.exited:
			return
		case now := <-tick.C:
			if !p.mem.Ready() {
				// Starting: no input runs yet, whatever the process costs.
				if now.Sub(started) > startLimit {
					p.kill(reasonStart, syscall.SIGQUIT)
					return
				}
				last, execStart = p.mem.Execs(), now
				continue
			}
			rss := 0
			if rssLimitMB > 0 && p.busy.Load() {
				rss = rssMB(p.cmd.Process.Pid)
				p.rss.Store(int64(rss))
			}
			if rss > rssLimitMB && rssLimitMB > 0 {
				p.killOOM()
				return
			}
			if e := p.mem.Execs(); e != last || !p.busy.Load() { // an execution ended, or none runs
				if slow {
					slow = false
					p.hooks.Load().progress()
				}
				last, execStart = e, now
				g.begin(now, rss)
				continue
			}
			g.sample(now, rss)
			ran := now.Sub(execStart)
			if hung, why := g.hung(now, ran, timeout, rssLimitMB); hung {
				if g.grew() {
					p.grown.Store(fmt.Sprintf("the input ran %v "+whileGrew+" (%d MiB resident), %s",
						ran.Round(100*time.Millisecond), rss, why))
				}
				p.kill(KindHang, syscall.SIGQUIT)
				return
			}
			if h := p.hooks.Load(); h != nil && !slow && g.slow(ran, timeout, rssLimitMB) {
				// The input in shared memory is this execution's as long
				// as the count has not moved (the worker writes it first).
				enc := bytes.Clone(p.mem.Value())
				if p.mem.Execs() == last {
					slow = true
					h.slow(enc)
				}
			}
		}
	}
}

// outputDelay bounds how long, once a worker has exited, its output is
// read until the pipe's end (exec.Cmd.WaitDelay).
const outputDelay = 2 * time.Second

// startTimeout is the least time a worker may take to start serving calls
// (the test binary's initialization, TestMain and the fuzz test's code
// before f.Fuzz): startLimit. Until then the watchdog counts no hang and no
// memory: that time is not an input's, and under load it can exceed a
// short -timeout. A variable for the engine's tests.
var startTimeout = 60 * time.Second

// startLimit bounds how long a worker may take to start serving calls:
// startTimeout, or three times what the fuzzing process took to reach
// fuzzing (Options.Setup), more when the workers outnumber the processors
// and start together. go test -fuzz waits for ever: a fuzz test that builds
// a large index before f.Fuzz (65 s here) was fuzzed by go test and, its
// every worker killed after a minute, never by fuzzbox.
func (s *setup) startLimit() time.Duration {
	share := max(1, (s.opts.Parallel+runtime.NumCPU()-1)/runtime.NumCPU())
	return max(startTimeout, 3*s.opts.Setup*time.Duration(share))
}

// reasonStart is the watchdog's reason for killing a worker that did not
// start within its startLimit: never the input's failure; the fuzz test's
// own when the worker was still in its code (diedStarting), otherwise an
// internal error.
const reasonStart = "start"

// kill records why and signals the process. After SIGQUIT, the worker
// prints every goroutine's stack and exits (quit.go); one that has not
// exited quitGrace later gets a second SIGQUIT, for the runtime's own report
// (the worker could not stop the world), and SIGKILL 3 s after that.
func (p *proc) kill(reason string, sig syscall.Signal) {
	p.reason.CompareAndSwap(nil, reason)
	p.cmd.Process.Signal(sig)
	if sig == syscall.SIGKILL {
		return
	}
	if p.waitExit(quitGrace) {
		return
	}
	p.cmd.Process.Signal(syscall.SIGQUIT)
	if !p.waitExit(3 * time.Second) {
		p.cmd.Process.Kill()
	}
}

// killOOM ends a worker whose resident memory passed the limit. SIGQUIT
// first, so that the report shows where the input's goroutine allocates
// (and its bucket tells one oom bug from another: signature); but a worker
// still allocating must not grow for long past the limit, so one that has
// not printed its stacks and exited within oomQuitGrace gets SIGKILL.
func (p *proc) killOOM() {
	p.reason.CompareAndSwap(nil, KindOOM)
	p.cmd.Process.Signal(syscall.SIGQUIT)
	if !p.waitExit(oomQuitGrace) {
		p.cmd.Process.Kill()
	}
}

// oomQuitGrace is how long a worker over the memory limit has to print its
// goroutine stacks after SIGQUIT.
const oomQuitGrace = time.Second

// waitExit reports whether the process exits within d.
func (p *proc) waitExit(d time.Duration) bool {
	select {
	case <-p.exited:
		return true
	case <-time.After(d):
		return false
	}
}

// quitGrace is how long a worker has to print its goroutine stacks after
// SIGQUIT: stopping the world waits for the OS to run every thread that runs
// a goroutine, which on a loaded machine takes a while.
const quitGrace = 10 * time.Second

// killOnHardStop kills the worker if it is still busy 300 ms after ctx is
// done, so Ctrl-C stops a run promptly even in the middle of a long input.
func (p *proc) killOnHardStop(ctx context.Context) {
	select {
	case <-p.exited:
		return
	case <-ctx.Done():
	}
	select {
	case <-p.exited:
	case <-time.After(300 * time.Millisecond):
		if p.busy.Load() {
			p.kill("stopped", syscall.SIGKILL)
		}
	}
}

// killedFromOutside reports whether the dead process was killed by a
// signal the coordinator did not send, with no crash report in its output.
func (p *proc) killedFromOutside() bool {
	if p.state == nil || p.reason.Load() != nil {
		return false
	}
	ws, ok := p.state.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && dumpStart(p.out.String()) < 0
}

// countOOMs reads the kernel's count of OOM kills into p.ooms[i].
func (p *proc) countOOMs(i int) {
	if n, ok := oomKills(); ok {
		p.ooms[i] = n
		p.oomsRead++
	}
}

// oomKilled reports whether the kernel's OOM killer killed a process (of
// any cgroup) while p ran, and whether that is known: a SIGKILL with known
// false was sent by someone else.
func (p *proc) oomKilled() (killed, known bool) {
	return p.ooms[1] > p.ooms[0], p.oomsRead == 2
}

// errDied is returned by call when the worker died; death describes it.
var errDied = errors.New("engine: worker died")

// call sends c and reads the response into resp. It returns errDied when
// the worker died (the pipe closed, possibly in the middle of a message),
// and an error wrapping errProtocol when the worker wrote something that is
// not a response; the worker is then killed.
func (p *proc) call(c ipc.Call, resp any) error {
	p.busy.Store(true)
	defer p.busy.Store(false)
	if err := p.conn.Send(c); err != nil {
		return p.waitDeath()
	}
	if err := p.conn.Recv(resp); err != nil {
		if diedReading(err) {
			return p.waitDeath()
		}
		p.kill("protocol", syscall.SIGKILL)
		return fmt.Errorf("%w: %v", errProtocol, err)
	}
	return nil
}

// diedReading reports whether a receive error means the worker is gone: the
// pipe reached its end, possibly in the middle of a message, or was closed
// by the goroutine that waits for the process to exit, which can happen
// before the read sees the end (the read then fails with os.ErrClosed).
func diedReading(err error) bool {
	return err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrClosed)
}

func (p *proc) waitDeath() error {
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
	}
	return errDied
}

// exitedZeroNote begins the message of a death with exit status 0 while
// the fuzz function ran (syscall.Exit, C's exit): go test -fuzz fails such an
// input, go test -run passes it (exitedZero; event.Event.ExitZero).
const exitedZeroNote = "fuzzbox: the fuzz function exited the process (exit status 0)"

// exitedZero reports whether a failure's message is that of an input that
// ended its process with exit status 0 while the fuzz function ran.
func exitedZero(kind, msg string) bool {
	return kind == KindExit && strings.HasPrefix(msg, exitedZeroNote)
}

// death describes how the process ended: the failure kind and a message.
func (p *proc) death(timeout time.Duration, rssLimitMB int) (kind, msg string) {
	out := p.out.String()
	reason, _ := p.reason.Load().(string)
	switch reason {
	case KindHang:
		grown, _ := p.grown.Load().(string)
		return KindHang, hangMessage(timeout, grown, out)
	case KindOOM:
		msg := fmt.Sprintf("fuzzbox: out of memory: the worker's resident memory exceeded -rss_limit_mb=%d while running the input", rssLimitMB)
		if dumpStart(out) >= 0 {
			msg += "; goroutine stacks:\n" + trimDump(out)
		}
		return KindOOM, msg
	}
	kind = deathKind(out)
	if (kind == KindPanic || kind == KindFatal) && printedCrash(p.state, out) {
		kind = KindExit
	}
	settled := p.mem.Settling() && !onInputGoroutine(out)
	switch {
	case kind == KindExit && settled:
		return kind, fmt.Sprintf("fuzzbox: the process exited (%s) %s\n%s", p.state, settledNote, lastLines(out, 20))
	case kind == KindExit && p.state.ExitCode() == 0:
		return kind, exitedZeroNote + " while running the input\n" + lastLines(out, 20)
	case kind == KindExit:
		return kind, fmt.Sprintf("fuzzbox: the fuzz function exited the process (%s) while running the input\n%s", p.state, lastLines(out, 20))
	}
	died := p.state.String()
	if settled {
		died += ", " + settledNote
	}
	dump := trimDump(out)
	return kind, fmt.Sprintf("%s\n(fuzzbox: the worker process died: %s)\n%s", firstLine(dump), died, dump)
}

// printedCrash reports whether a worker whose output holds a panic's or a
// fatal error's first line exited otherwise than the runtime exits on one
// (status 2, or a signal under GOTRACEBACK=crash), and without a C crash's
// or a sanitizer's report: the code under test printed the line (a
// handler logging "panic: recovered ..." on every input) and then exited
// (os.Exit(1)), which was reported as a panic, with a line an earlier input
// printed for its message.
func printedCrash(state *os.ProcessState, out string) bool {
	return state != nil && state.Exited() && state.ExitCode() != 2 && !crashReportRE.MatchString(out)
}

// blockedHang says why a hang is a deadlock when its dump shows the fuzz
// function's goroutine blocked waiting on a channel, a select, a lock, a
// WaitGroup or a subtest (t.Run) rather than running: no goroutine of the
// code under test was going to wake it, as "all goroutines are asleep"
// would say in a program without the worker's own goroutines. It returns ""
// for a goroutine that was running (a loop) or sleeping.
func blockedHang(out string) string {
	if i := dumpStart(out); i >= 0 {
		out = out[i:]
	}
	for _, block := range goroutineGapRE.Split(out, -1) {
		if !strings.Contains(block, "reflect.Value.call") {
			continue
		}
		m := goroutineStateRE.FindStringSubmatch(block)
		if m == nil || !blockingState(m[1]) {
			return ""
		}
		if fn := runningGoroutine(out); fn != "" {
			// Waiting on a goroutine that runs (a loop, in a subtest or
			// not): no deadlock, though the wait did not end.
			return fmt.Sprintf("the fuzz function was blocked (%s) while a goroutine of the code under test was still running, in %s: a loop that did not end in time, not a deadlock", m[1], fn)
		}
		if fn := waitingGoroutine(out); fn != "" {
			// A poll that sleeps between tries, a child process, a
			// network read: a wait that did not end in time, which
			// may end.
			return fmt.Sprintf("the fuzz function was blocked (%s) while a goroutine of the code under test was sleeping, in a system call or waiting for I/O, in %s: a wait (a poll, a process, the network) that did not end in time, perhaps not a deadlock", m[1], fn)
		}
		if userFrame(block) == "testing.(*T).Run" {
			return fmt.Sprintf("the fuzz function was blocked in t.Run (%s), waiting for a subtest that did not end: a deadlock", m[1])
		}
		return fmt.Sprintf("the fuzz function's goroutine was blocked (%s), not running: a deadlock, or a wait nothing in the code under test was going to end", m[1])
	}
	return ""
}

// runningGoroutine returns the innermost function of a goroutine of the
// code under test (not the runtime's, testing's or fuzzbox's) that a dump
// shows running or runnable, or "".
func runningGoroutine(dump string) string {
	for _, block := range goroutineGapRE.Split(dump, -1) {
		m := goroutineStateRE.FindStringSubmatch(block)
		if m == nil || m[1] != "running" && m[1] != "runnable" {
			continue
		}
		if fn := userFrame(block); fn != "" && !internalFrame(fn) && !strings.HasPrefix(fn, "os/signal.") {
			return fn
		}
	}
	return ""
}

// waitingGoroutine returns the innermost frame outside the standard
// library of a goroutine of the code under test (codeFrame) that a dump
// shows sleeping, in a system call or waiting for I/O, or "": a fuzz
// function waiting on a goroutine that polls with time.Sleep, or on a
// child process, was called deadlocked.
func waitingGoroutine(dump string) string {
	for _, block := range goroutineGapRE.Split(dump, -1) {
		m := goroutineStateRE.FindStringSubmatch(block)
		if m == nil || m[1] != "sleep" && m[1] != "syscall" && m[1] != "IO wait" {
			continue
		}
		if fn := codeFrame(block); fn != "" {
			return fn
		}
	}
	return ""
}

// codeFrame returns the innermost frame of a goroutine's stack outside the
// runtime and the standard library, when it is not testing's or fuzzbox's
// (the code under test's or a dependency's), or "".
func codeFrame(block string) string {
	for _, m := range frameRE.FindAllStringSubmatch(block, -1) {
		fn := m[1]
		if internalFrame(fn) || strings.HasPrefix(fn, "testing.") {
			return ""
		}
		if pkg := funcPackage(fn); strings.Contains(strings.Split(pkg, "/")[0], ".") {
			return fn
		}
	}
	return ""
}

// userFrame returns the innermost function of a goroutine's stack outside
// the runtime.
func userFrame(block string) string {
	for _, m := range frameRE.FindAllStringSubmatch(block, -1) {
		if !strings.HasPrefix(m[1], "runtime.") {
			return m[1]
		}
	}
	return ""
}

// goroutineStateRE matches a dump's goroutine header, "goroutine 7 [chan
// receive, 2 minutes]:", capturing the state; with GOTRACEBACK=system or
// crash, and for a runtime throw's goroutine, the header names its g and m
// too ("goroutine 7 gp=0xc000007 m=2 mp=0xc00005 [running]:").
var goroutineStateRE = regexp.MustCompile(`(?m)^goroutine \d+(?: gp=\S+ m=\S+(?: mp=\S+)?)? \[([^,\]]+)`)

// blockingState reports whether a goroutine state is a wait on another
// goroutine.
func blockingState(state string) bool {
	for _, p := range []string{"chan receive", "chan send", "select", "semacquire", "sync.", "sync "} {
		if strings.HasPrefix(state, p) {
			return true
		}
	}
	return false
}

// stackUnavailable is what the runtime's own SIGQUIT report prints for a
// goroutine running on another thread.
const stackUnavailable = "goroutine running on other thread; stack unavailable"

// whileGrew marks the message of a hang whose memory grew while it ran
// (growth.hung, grewHang).
const whileGrew = "while its memory grew"

// hangMessage reports a hang with the worker's goroutine stacks, and says
// so when they may not show where it hangs: the worker printed none before
// it was killed, or it could not stop the world and the runtime's own report
// could not read a running goroutine's stack. grown, for an input whose
// memory grew, says how long it ran and why that growth did not excuse it
// (growth.hung); "" for one that did not grow.
func hangMessage(timeout time.Duration, grown, out string) string {
	head := fmt.Sprintf("fuzzbox: hang: the input ran longer than the timeout of %v", timeout)
	if grown != "" {
		head = "fuzzbox: hang: " + grown
	}
	if why := blockedHang(out); why != "" {
		head += "; " + why
	}
	switch {
	case dumpStart(out) < 0:
		return head + "; the worker printed no goroutine stacks before it was killed. Its last output:\n" + lastLines(out, 40)
	case strings.Contains(out, stackUnavailable):
		return head + "; goroutine stacks, incomplete: the stack of a goroutine running on another thread, the hung one perhaps, could not be read:\n" + trimDump(out)
	}
	return head + "; goroutine stacks:\n" + trimDump(out)
}

// trimDump returns the part of out from the first panic, fatal error or
// signal report on, without the worker's idle goroutines (dropIdle), or its last
// lines when it has none.
func trimDump(out string) string {
	if i := dumpStart(out); i >= 0 {
		return dropIdle(out[i:])
	}
	return lastLines(out, 40)
}

// dumpStart returns the offset of the first crash report in out, or -1.
func dumpStart(out string) int {
	best := -1
	for _, marker := range []string{"panic: ", "fatal error: ", "SIGQUIT", "WARNING: DATA RACE"} {
		if i := strings.Index(out, marker); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if loc := crashReportRE.FindStringIndex(out); loc != nil && (best < 0 || loc[0] < best) {
		best = loc[0]
	}
	return best
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// stop closes the call pipe so the worker exits, and kills it if it has not
// within grace.
func (p *proc) stop(grace time.Duration) {
	p.toProc.Close()
	select {
	case <-p.exited:
	case <-time.After(grace):
		p.cmd.Process.Kill()
		<-p.exited
	}
	<-p.dogged // the watchdog may be reading the region
	p.mem.Close()
}

// tailBuffer keeps the last max bytes written to it.
//
// It keeps the start of the last crash report too (dumpStart: "panic: ",
// "fatal error: "…, headMax bytes of it): a worker with thousands of
// goroutines dumps more than max, and the tail alone lost the report's
// first line and failing goroutine, so that a panic was taken for an exit.
type tailBuffer struct {
	mu     sync.Mutex
	max    int
	buf    []byte
	total  int    // bytes written
	head   []byte // from the last crash report on, headMax bytes at most
	headAt int    // offset of head in what was written; -1 before a crash report
}

// headMax bounds tailBuffer's copy of a crash report's start.
const headMax = 64 << 10

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max, headAt: -1} }

// Write implements io.Writer.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	start := t.total - len(t.buf) // offset of buf[0]
	t.buf = append(t.buf, b...)
	t.total += len(b)
	from := max(0, len(t.buf)-len(b)-16) // a marker may straddle two writes
	i := -1
	if mayStartDump(t.buf[from:]) {
		i = dumpStart(string(t.buf[from:]))
	}
	switch {
	case i >= 0 && start+from+i > t.headAt:
		t.headAt = start + from + i
		t.head = append(t.head[:0], t.buf[from+i:min(len(t.buf), from+i+headMax)]...)
	case t.headAt >= 0 && len(t.head) < headMax:
		t.head = append(t.head, b[:min(len(b), headMax-len(t.head))]...)
	}
	if len(t.buf) > 2*t.max {
		// Trimmed to max once it holds twice as much: trimmed on every
		// write, a worker printing 300 KB per input in lines copied the
		// whole tail per line, and ran at 145 execs/s (go test: 29k).
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

// dumpMarks are the byte strings one of which every start of a crash
// report dumpStart finds holds.
var dumpMarks = [][]byte{[]byte("panic: "), []byte("fatal error: "), []byte("SIGQUIT"), []byte("WARNING: DATA RACE"), []byte("\nPC="), []byte("==ERROR: ")}

// mayStartDump reports whether b may hold the start of a crash report:
// dumpStart's regular expression, run on every write, cost 7–9 s per
// 100 MB of output.
func mayStartDump(b []byte) bool {
	for _, m := range dumpMarks {
		if bytes.Contains(b, m) {
			return true
		}
	}
	return false
}

// String returns the tail, after the crash report's start when the tail
// has lost it.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	tail := t.buf[max(0, len(t.buf)-t.max):]
	kept := t.total - len(tail)
	if t.headAt < 0 || t.headAt >= kept {
		return string(tail)
	}
	left := kept - (t.headAt + len(t.head))
	if left <= 0 { // the head reaches into the tail
		return string(t.head[:kept-t.headAt]) + string(tail)
	}
	return fmt.Sprintf("%s\n[fuzzbox: %d bytes of the worker's output left out]\n%s", t.head, left, tail)
}

// fuzzArgs returns the arguments of a fuzz call on p: args, without the
// dictionary and the known signatures when p has them already.
func (p *proc) fuzzArgs(args *ipc.FuzzArgs) *ipc.FuzzArgs {
	a := *args
	if sameSlice(p.dict, args.Dict) {
		a.Dict, a.SameDict = nil, true
	}
	if sameSlice(p.known, args.Known) {
		a.Known, a.SameKnown = nil, true
	}
	p.dict, p.known = args.Dict, args.Known
	return &a
}

// sameSlice reports whether a and b are the same slice: the coordinator's
// dictionary and known signatures are replaced, never changed in place.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
