package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// The race twin (Options.RaceTwin). The same test built with -race runs as
// one more worker process, in the background at the lowest CPU priority,
// that only replays: each input the corpus gains (the baseline's kept
// entries when fuzzing starts, then each new one) and each recorded
// failure's input. The fuzzing workers run the plain binary at full speed;
// the twin catches, a little later, the data races those inputs make.
//
// The loop owns the queue of inputs waiting for the twin (twinQueue). The
// twin's goroutine asks for its next input as a fuzzing worker asks for
// work (twinReady), and the loop answers on a channel that holds one value,
// so the loop never blocks on the twin; inputs that arrive while
// twinQueueCap wait are skipped and counted. A race the twin sees is
// recorded like any failure (record.go): claimed from the loop, confirmed in
// fresh twin processes, written as a reproducer, never minimized (the race
// detector reports a race once per process). Any other failure of an input
// in the twin is left to the fuzzing workers, which ran the same input; a
// twin process that dies or breaks the protocol is an internal error.

// twinQueueCap bounds the inputs waiting for the race twin.
const twinQueueCap = 1024

// twinSlowdown is how much longer than -timeout an input may run in the
// twin: the race detector makes code 2 to 20 times slower.
const twinSlowdown = 10

// raceConfirmRuns is how many fresh twin processes may confirm a race: a
// race needs the scheduler to interleave the two accesses the same way
// again, which a single re-run may not do.
const raceConfirmRuns = 5

// twinQueue is the loop's queue of inputs for the race twin. Only the loop
// touches it; the twin only reads the entries it is handed.
type twinQueue struct {
	items    []*entry // oldest first
	waiting  bool     // the twin asked and got nothing: the next input goes straight to it
	replayed int      // inputs the twin finished
	skipped  int      // inputs not queued: twinQueueCap were waiting
}

// push queues e, or skips it when the queue is full.
func (q *twinQueue) push(e *entry) {
	if len(q.items) >= twinQueueCap {
		q.skipped++
		return
	}
	q.items = append(q.items, e)
}

// pop takes the oldest input.
func (q *twinQueue) pop() (*entry, bool) {
	if len(q.items) == 0 {
		return nil, false
	}
	e := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	return e, true
}

// twinID is the race twin's worker id.
const twinID = -1

// gone notes that w has gone, and stops the race twin (a soft stop) when
// it was the last fuzzing worker: under an execution limit (-fuzztime=Nx)
// the workers stop when the budget is spent, without a soft stop, and the
// twin waits for inputs until one comes.
func (c *coordinator) gone(w *worker) {
	if w.id == twinID {
		return
	}
	if c.fuzzers--; c.fuzzers == 0 && c.twinIn != nil {
		c.finish()
	}
}

// twinReady is the twin's request for its next input; ran says it finished
// one since its last request.
type twinReady struct{ ran bool }

// toTwin hands the race twin e: at once when it is waiting, otherwise
// through the queue. Without a twin it does nothing.
func (c *coordinator) toTwin(e *entry) {
	switch {
	case c.twinIn == nil:
	case c.twinQ.waiting:
		c.twinQ.waiting = false
		c.twinIn <- e // the twin asked: the channel is empty
	default:
		c.twinQ.push(e)
	}
}

// twinReady answers the twin's request with the oldest queued input, or
// marks it waiting.
func (c *coordinator) twinReady(b twinReady) {
	if b.ran {
		c.twinQ.replayed++
	}
	if e, ok := c.twinQ.pop(); ok {
		c.twinIn <- e
		return
	}
	c.twinQ.waiting = true
}

// raceTwin is the twin's goroutine. It owns the twin process; its worker
// is how it talks to the loop and records a race (record.go), with a setup
// whose processes run the race-built binary (twinSetup).
type raceTwin struct {
	*worker
	inputs <-chan *entry   // from the loop: the next input, one per twinReady
	niced  *proc           // the twin process given the lowest priority (sys_*.go)
	soft   context.Context // the run's soft stop
	killed bool            // a twin process was killed from outside (warned once)
}

// startRaceTwin starts the twin's goroutine, which runs until soft is done
// and then sends gone. in must have room for one value.
func startRaceTwin(s *setup, msgs chan<- message, in chan *entry, soft context.Context) {
	t := &raceTwin{worker: newWorker(twinSetup(s), twinID, msgs), inputs: in, soft: soft}
	go t.run()
}

// twinSetup is s for the twin's processes: the race-built binary, with the
// arguments and environment of a fuzzing worker; no memory limit (the race
// detector's shadow memory is several times the heap), a timeout
// twinSlowdown times longer, no goroutine-leak check (the fuzzing workers
// do that) and no coverage area (its counters are not the plain binary's).
func twinSetup(s *setup) *setup {
	t := *s
	t.opts.RSSLimitMB, t.opts.Timeout, t.opts.NoLeaks = 0, twinSlowdown*s.opts.Timeout, true
	t.covLen = 0
	bin, command := s.opts.RaceTwin, s.command
	t.command = func() (string, []string, []string) {
		_, args, env := command()
		return bin, args, env
	}
	return &t
}

// run replays what the loop hands it until the run stops.
func (t *raceTwin) run() {
	var p *proc
	defer func() {
		if p != nil {
			p.stop(time.Second)
		}
		t.send(gone{})
	}()
	ran := false
	for {
		t.send(twinReady{ran})
		select {
		case <-t.soft.Done():
			return
		case e := <-t.inputs:
			var err error
			if p, err = t.replay(p, e); err != nil {
				t.internal("race twin: " + err.Error() + "; fuzzing goes on without it")
				return
			}
			ran = true
		}
	}
}

// replay runs e once on p, or on a fresh twin process when p is nil, and
// records the race it makes (a testdata seed is its own reproducer). It returns the process to use next: nil after
// a race (the detector reports each race once per process) or a death. An
// error means no twin process can be started.
func (t *raceTwin) replay(p *proc, e *entry) (*proc, error) {
	if p == nil {
		var err error
		if p, err = t.startRawProc(true); err != nil {
			return nil, fmt.Errorf("starting the race-built worker: %w", err)
		}
	}
	p.mem.SetValue(e.enc)
	var resp ipc.RunResponse
	err := p.call(ipc.Call{Run: &ipc.RunArgs{}}, &resp)
	if t.niced != p {
		// After its first call the process has started the runtime's
		// threads, which later ones inherit their priority from.
		t.niced = p
		lowerPriority(p.cmd.Process.Pid)
	}
	switch {
	case err != nil:
		t.died(p, err)
	case resp.InternalErr != "":
		t.internal("race twin: worker: " + resp.InternalErr)
	case resp.Err == "" || failureKind(resp.Err) != KindRace:
		return p, nil // another failure is the fuzzing workers' to report
	default:
		msg := raceMessage(p.out, resp.Err)
		p.stop(time.Second)
		t.recordFailure(nil, newFailure(KindRace, msg, e.vals, seedOf(e)))
		return nil, nil
	}
	p.stop(time.Second)
	return nil, nil
}

// died reports the death of twin process p in a Run call as an internal
// error, unless the run is stopping (the coordinator killed it) or a signal
// fuzzbox did not send killed it (the kernel's OOM killer: a race-built
// process needs several times the memory), which is a warning, once.
func (t *raceTwin) died(p *proc, err error) {
	if t.stopping() {
		return
	}
	if t.diedStarting(p, err) {
		t.startFailed(p)
		return
	}
	if why := t.internalCause(p, err); why != "" {
		t.internal("race twin: " + why)
		return
	}
	if p.killedFromOutside() {
		if !t.killed {
			t.killed = true
			t.rep.emit(event.Event{Type: event.Warning, Message: fmt.Sprintf(
				"race twin: the race-built worker was killed (%s) by a signal fuzzbox did not send while replaying an input: %s; a fresh one replays the next input, and later kills are not reported", p.state, twinKiller(p))})
		}
		return
	}
	kind, msg := p.death(t.opts.Timeout, 0)
	t.internal(fmt.Sprintf("race twin: the race-built worker died (%s) replaying an input the fuzzing workers ran without failing:\n%s", kind, msg))
}

// raceReportWait bounds the wait for the race detector's report on the
// twin's standard error, which a goroutine copies from a pipe and may not
// have read yet when the response arrives.
const raceReportWait = 2 * time.Second

// raceMessage is a race failure's message: the race detector's reports in
// out (each names both accesses with their stacks and where their
// goroutines were created), then what the testing package said.
func raceMessage(out *tailBuffer, testErr string) string {
	deadline := time.Now().Add(raceReportWait)
	reports := raceReports(out.String())
	for reports == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		reports = raceReports(out.String())
	}
	if reports == "" {
		reports = "(the race detector's report was not found in the worker's output)"
	}
	return "fuzzbox: data race" + raceWhere(reports) + ", found by replaying the input in the race-built worker\n" + reports + "\n" + cleanMessage(testErr)
}

// raceWhere names the first access of a race report for its first line:
// " in <function> (<file:line>)", or "".
func raceWhere(reports string) string {
	for _, m := range frameAtRE.FindAllStringSubmatch(reports, -1) {
		if !internalFrame(m[1]) {
			return fmt.Sprintf(" in %s (%s)", m[1], filepath.Base(m[2]))
		}
	}
	return ""
}

// raceSeparator is the line the race detector prints before and after
// each report.
const raceSeparator = "=================="

// raceReports returns the complete "WARNING: DATA RACE" reports of out,
// without their separator lines, or "".
func raceReports(out string) string {
	var b strings.Builder
	for {
		i := strings.Index(out, "WARNING: DATA RACE")
		if i < 0 {
			break
		}
		out = out[i:]
		end := strings.Index(out, "\n"+raceSeparator)
		if end < 0 {
			break // not all written yet
		}
		b.WriteString(out[:end+1])
		out = out[end+1+len(raceSeparator):]
	}
	return strings.TrimRight(b.String(), "\n")
}

// raceReplay is what a race failure's report adds to the testing package's
// "To re-run" line, which lacks -race: the go test command that replays it.
func raceReplay(target, name, kind string) string {
	if kind != KindRace {
		return ""
	}
	return fmt.Sprintf("\nTo replay it with the race detector: go test -race -run='^%s$/^%s$'", target, event.EntryPattern(name))
}

// twinKiller says who killed twin process p from outside, as far as the
// kernel's count of OOM kills tells.
func twinKiller(p *proc) string {
	const why = " (the race detector needs several times the memory)"
	ws, _ := p.state.Sys().(syscall.WaitStatus)
	switch killed, known := p.oomKilled(); {
	case ws.Signal() != syscall.SIGKILL:
		return "not the kernel's OOM killer, which sends SIGKILL"
	case !known:
		return "most likely the kernel's OOM killer" + why
	case killed:
		return "the kernel's OOM killer" + why
	}
	return "not the kernel's OOM killer (its count of OOM kills did not change)"
}
