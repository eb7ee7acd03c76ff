package ipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"unsafe"
)

// Mem is a region of memory shared by the coordinator and one worker, backed
// by a file both map. Layout (little-endian):
//
//	[0:8)    execs: executions started by the worker (atomic)
//	[8:12)   value length in bytes
//	[12:16)  value capacity in bytes (fixed at creation)
//	[16:20)  coverage length in bytes (fixed at creation)
//	[20:24)  ready: 1 once the worker serves calls (atomic)
//	[24:28)  settling: 1 while the worker waits for goroutines an input left running (atomic)
//	[28:32)  held: 1 once the input running held more than the memory limit in another worker (atomic)
//	[32:64)  reserved
//	[64:64+valueCap)             the encoded input
//	[64+valueCap:+coverageLen)   coverage (one byte per edge counter)
//
// Mem provides no synchronization on its own beyond the atomic exec count and
// ready flag: the side that holds the turn (the worker during a call, the
// coordinator between calls) is the only writer, and the pipes pass the turn.
type Mem struct {
	f    *os.File
	buf  []byte // the whole mapping
	vcap int
	clen int
}

const memHeader = 64

var errMemSize = errors.New("ipc: shared memory has an impossible layout")

// CreateMem creates a region with room for valueCap bytes of input and
// coverageLen bytes of coverage, backed by a new anonymous memory file
// (memFile).
func CreateMem(valueCap, coverageLen int) (*Mem, error) {
	f, err := memFile()
	if err != nil {
		return nil, fmt.Errorf("ipc: creating shared memory: %w", err)
	}
	size := memHeader + valueCap + coverageLen
	if err := f.Truncate(int64(size)); err != nil {
		f.Close()
		return nil, fmt.Errorf("ipc: sizing shared memory: %w", err)
	}
	m, err := mapMem(f, size)
	if err != nil {
		return nil, err
	}
	binary.LittleEndian.PutUint32(m.buf[12:], uint32(valueCap))
	binary.LittleEndian.PutUint32(m.buf[16:], uint32(coverageLen))
	m.vcap, m.clen = valueCap, coverageLen
	return m, nil
}

// tempMemFile returns a new unlinked temporary file for a region.
func tempMemFile() (*os.File, error) {
	f, err := os.CreateTemp("", "fuzzbox-mem-")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name()) // the descriptors keep it alive
	return f, nil
}

// OpenMem maps a region created by CreateMem, passed to a worker as f.
func OpenMem(f *os.File) (*Mem, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("ipc: shared memory: %w", err)
	}
	if fi.Size() < memHeader {
		return nil, errMemSize
	}
	m, err := mapMem(f, int(fi.Size()))
	if err != nil {
		return nil, err
	}
	m.vcap = int(binary.LittleEndian.Uint32(m.buf[12:]))
	m.clen = int(binary.LittleEndian.Uint32(m.buf[16:]))
	if memHeader+m.vcap+m.clen != len(m.buf) {
		m.Close()
		return nil, errMemSize
	}
	return m, nil
}

func mapMem(f *os.File, size int) (*Mem, error) {
	buf, err := mmap(f, size)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("ipc: mapping shared memory: %w", err)
	}
	return &Mem{f: f, buf: buf}, nil
}

// File returns the backing file, to pass to a worker.
func (m *Mem) File() *os.File { return m.f }

// Close unmaps the region and closes its file; later calls do nothing.
func (m *Mem) Close() error {
	if m.buf == nil {
		return nil // closed already: a second munmap could unmap a later mapping
	}
	err := munmap(m.buf)
	m.buf = nil
	if cerr := m.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (m *Mem) execsPtr() *uint64 { return (*uint64)(unsafe.Pointer(&m.buf[0])) }

// AddExec counts one execution started. Called by the worker before it runs
// each input.
func (m *Mem) AddExec() { atomic.AddUint64(m.execsPtr(), 1) }

// Execs returns the number of executions the worker has started.
func (m *Mem) Execs() uint64 { return atomic.LoadUint64(m.execsPtr()) }

func (m *Mem) readyPtr() *uint32 { return (*uint32)(unsafe.Pointer(&m.buf[20])) }

// SetReady records that the worker has started and serves calls. Called by
// the worker once, before it reads its first call: the time a process takes
// to start is not an execution's.
func (m *Mem) SetReady() { atomic.StoreUint32(m.readyPtr(), 1) }

// Ready reports whether the worker has called SetReady.
func (m *Mem) Ready() bool { return atomic.LoadUint32(m.readyPtr()) == 1 }

func (m *Mem) settlingPtr() *uint32 { return (*uint32)(unsafe.Pointer(&m.buf[24])) }

// SetSettling records whether the worker, after the fuzz function returned,
// is waiting for goroutines the input in the value area started. A worker
// that dies while it is set died of one of those goroutines.
func (m *Mem) SetSettling(on bool) {
	var v uint32
	if on {
		v = 1
	}
	atomic.StoreUint32(m.settlingPtr(), v)
}

// Settling reports whether the worker was waiting for an input's goroutines
// (SetSettling): read after it died, whether they killed it. False once
// the region is closed.
func (m *Mem) Settling() bool { return m.buf != nil && atomic.LoadUint32(m.settlingPtr()) == 1 }

func (m *Mem) heldPtr() *uint32 { return (*uint32)(unsafe.Pointer(&m.buf[28])) }

// SetHeld records, from the coordinator, that the input the worker runs has
// held more than the memory limit in the heap in another worker: what
// RunArgs.HeldOOM says of a re-run, told to one that was already running
// when that worker failed (an early confirmation). It is never cleared: such
// a worker runs that one input.
func (m *Mem) SetHeld() { atomic.StoreUint32(m.heldPtr(), 1) }

// Held reports whether SetHeld was called.
func (m *Mem) Held() bool { return atomic.LoadUint32(m.heldPtr()) == 1 }

// ValueCap returns the capacity of the value area.
func (m *Mem) ValueCap() int { return m.vcap }

// Value returns the current input. The slice aliases the region.
func (m *Mem) Value() []byte {
	n := int(binary.LittleEndian.Uint32(m.buf[8:]))
	if n > m.vcap {
		n = m.vcap
	}
	return m.buf[memHeader : memHeader+n]
}

// SetValue copies b into the value area; it reports false if b does not fit.
func (m *Mem) SetValue(b []byte) bool {
	if len(b) > m.vcap {
		return false
	}
	copy(m.buf[memHeader:], b)
	binary.LittleEndian.PutUint32(m.buf[8:], uint32(len(b)))
	return true
}

// Coverage returns the coverage area. The slice aliases the region.
func (m *Mem) Coverage() []byte {
	return m.buf[memHeader+m.vcap : memHeader+m.vcap+m.clen]
}
