package engine

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
)

// On Linux every platform part of the engine is there: shared memory
// (mmap), the workers' pipes as inherited descriptors, a parent-death
// signal, resident memory from /proc (-rss_limit_mb) and SIGQUIT for a
// hang's stacks. CI runs the engine's tests on linux/amd64 and, under
// qemu-user, linux/arm64.

// platformErr: fuzzing works here.
func platformErr() error { return nil }

// memLimitNote: the memory limit is enforced.
const memLimitNote = ""

// setWorkerAttr makes the kernel kill the worker when the coordinator dies,
// even by SIGKILL, so no worker outlives it. Linux sends Pdeathsig when
// the thread that started the worker exits, not the process (go.dev/issue/27505),
// and a Go thread exits with a goroutine that ends locked to it: code
// under test in the coordinator that does so (a test's background
// goroutines calling runtime.LockOSThread, as namespace code does) had
// workers killed "from outside" and the run end in "workers keep dying".
// Workers start from one thread that does not exit while any of them is
// alive (startWorker).
func setWorkerAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// startWorker starts cmd from a goroutine locked to its thread, which
// therefore does not exit while a worker it started is alive
// (setWorkerAttr). The goroutine lives only while workers do: when the last
// one has been waited for (workerWaited), it unlocks its thread, which goes
// back to the runtime, and returns. A goroutine left behind for the life of
// the process was seen by test mains that check for leaked goroutines
// after m.Run (x/net's quic waits until there are none, goleak's
// VerifyTestMain fails): the run hung until -timeout, or failed, once
// fuzzing had ended, where go test -fuzz leaves none.
func startWorker(cmd *exec.Cmd) error {
	starter.mu.Lock()
	if starter.calls == nil {
		calls, done := make(chan func()), make(chan struct{})
		starter.calls, starter.done = calls, done
		go func() {
			runtime.LockOSThread()
			for f := range calls {
				f()
			}
			// No worker this thread started is alive: it may exit or
			// run other code again.
			runtime.UnlockOSThread()
			close(done)
		}()
	}
	calls := starter.calls
	starter.live++ // the goroutine stays until this worker is waited for
	starter.mu.Unlock()
	res := make(chan error, 1)
	calls <- func() { res <- cmd.Start() }
	err := <-res
	if err != nil {
		workerWaited()
	}
	return err
}

// workerWaited tells startWorker that a worker it started has exited and
// been waited for (or failed to start). With the last one, startWorker's
// goroutine returns before workerWaited does.
func workerWaited() {
	starter.mu.Lock()
	defer starter.mu.Unlock()
	starter.live--
	if starter.live > 0 || starter.calls == nil {
		return
	}
	close(starter.calls)
	<-starter.done
	starter.calls, starter.done = nil, nil
}

// starter is startWorker's goroutine: calls is nil when none runs, done is
// closed when it has returned, live counts the workers it started that
// have not been waited for.
var starter struct {
	mu    sync.Mutex
	calls chan func()
	done  chan struct{}
	live  int
}

// oomFirst makes process pid, a worker, the first the kernel's OOM killer
// kills (oom_score_adj 1000, the highest, which a process may set on its
// own user's processes without privilege). Out of memory in a cgroup or
// on the machine, the kernel then kills a worker, which the coordinator
// reports and replaces, and not the coordinator: with every process at 0
// it once killed the 2.5 MB fuzzbox CLI 2 ms after the 1 GB worker whose
// memory was not yet freed, and the run ended with no report. A failure
// (a process in a sandbox that forbids it) leaves the kernel's default.
func oomFirst(pid int) {
	os.WriteFile("/proc/"+strconv.Itoa(pid)+"/oom_score_adj", []byte("1000"), 0)
}

// exitedPeakMB returns the peak resident set size of an exited process in
// MiB (its wait status's maximum resident set), 0 if unknown.
func exitedPeakMB(state *os.ProcessState) int {
	ru, ok := state.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return int(ru.Maxrss >> 10) // kilobytes on Linux
}

// rssMB returns the resident set size of process pid in MiB (0 if unknown).
func rssMB(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.Atoi(string(f[1]))
	return pages * os.Getpagesize() >> 20
}

// vmBytes returns the size of this process's mapped address space, and of
// its resident memory that maps no file (statm's resident less shared).
// The worker's memory check calls it every 10 ms while inputs run, so it
// uses only packages built without coverage instrumentation (syscall, and
// this one): instrumented code here would add noise to the inputs'
// coverage.
func vmBytes() (vm, anon uint64) {
	fd, err := syscall.Open("/proc/self/statm", syscall.O_RDONLY, 0)
	if err != nil {
		return 0, 0
	}
	defer syscall.Close(fd)
	var buf [128]byte
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return 0, 0
	}
	var f [3]uint64 // size, resident, shared, in pages
	for i, c := 0, 0; c < n && i < len(f); c++ {
		if d := buf[c]; d >= '0' && d <= '9' {
			f[i] = f[i]*10 + uint64(d-'0')
		} else {
			i++
		}
	}
	page := uint64(syscall.Getpagesize())
	return f[0] * page, (f[1] - min(f[1], f[2])) * page
}

// unallocatedBytes returns the size of this process's mappings that are
// no memory allocated: reservations without access (PROT_NONE) and mappings
// of files, from /proc/self/maps. vmBytes counts them: a 4-GiB PROT_NONE
// reservation, unmapped before the input returned, was an oom that go test
// passes. Like vmBytes, it uses only syscall; it runs only when the
// mapped size grew past the limit.
func unallocatedBytes() uint64 {
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY, 0)
	if err != nil {
		return 0
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 64<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err != nil || n <= 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	var total uint64
	for len(buf) > 0 {
		line := buf
		for i, c := range buf {
			if c == '\n' {
				line, buf = buf[:i], buf[i+1:]
				break
			}
		}
		if len(line) == len(buf) {
			buf = nil
		}
		total += unallocated(line)
	}
	return total
}

// unallocated returns the size of the /proc/self/maps mapping line if it
// is a reservation without access or a file's mapping, else 0. A line is
// "start-end perms offset dev inode [path]", addresses in hexadecimal.
func unallocated(line []byte) uint64 {
	var f [6][]byte
	n := 0
	for i := 0; i < len(line) && n < len(f); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		if j > i {
			f[n] = line[i:j]
			n++
		}
		i = j
	}
	if n < 5 {
		return 0
	}
	noAccess := len(f[1]) >= 3 && f[1][0] == '-' && f[1][1] == '-' && f[1][2] == '-'
	file := !(len(f[4]) == 1 && f[4][0] == '0')
	if !noAccess && !file {
		return 0
	}
	var start, end uint64
	addr := &start
	for _, c := range f[0] {
		switch {
		case c == '-':
			addr = &end
		case c >= '0' && c <= '9':
			*addr = *addr<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			*addr = *addr<<4 | uint64(c-'a'+10)
		}
	}
	if end < start {
		return 0
	}
	return end - start
}

// lowerPriority gives every thread of process pid the lowest CPU priority
// (nice 19): the race twin runs in the background of the fuzzing workers.
// Linux keeps a nice value per thread and a new thread inherits its
// creator's, so once all threads have it, the process keeps it; the second
// pass catches a thread started during the first.
func lowerPriority(pid int) {
	for range 2 {
		tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
		for _, t := range tasks {
			if tid, err := strconv.Atoi(t.Name()); err == nil {
				syscall.Setpriority(syscall.PRIO_PROCESS, tid, 19)
			}
		}
	}
}
