package engine

import (
	"bytes"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// On Linux the syncer is told of the files moved or written into the sync
// directory (inotify) and reads each at once, instead of at its next scan:
// an input another instance on this machine, or on a local file system
// shared with it, publishes reaches this one in milliseconds, as it would
// reach a worker of the same instance. A network file system does not
// report other machines' writes: the scans stay, as they are the only way
// there and a fallback here.

// dirWatch reports the names of the files that appear in one directory,
// and of the coverage logs made there.
type dirWatch struct {
	f     *os.File
	names chan string // closed when the watch ends; "" after it was lost
	// lost is set when the watch no longer works: the directory was
	// removed or moved, or names overflowed (the kernel's queue or ours).
	lost atomic.Bool
}

// watchDir watches dir, or returns nil when it cannot.
func watchDir(dir string) *dirWatch {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO|syscall.IN_CLOSE_WRITE|syscall.IN_CREATE|syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF); err != nil {
		syscall.Close(fd)
		return nil
	}
	w := &dirWatch{f: os.NewFile(uintptr(fd), "inotify"), names: make(chan string, 1024)}
	go w.read()
	return w
}

// read turns the kernel's events into names until the watch is closed.
func (w *dirWatch) read() {
	defer close(w.names)
	buf := make([]byte, 64<<10)
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			w.lost.Store(true)
			return
		}
		for b := buf[:n]; len(b) >= syscall.SizeofInotifyEvent; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&b[0]))
			end := syscall.SizeofInotifyEvent + int(ev.Len)
			if end > len(b) {
				break
			}
			name := b[syscall.SizeofInotifyEvent:end]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[end:]
			switch {
			case ev.Mask&(syscall.IN_Q_OVERFLOW|syscall.IN_IGNORED|syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF) != 0:
				w.lose()
			case ev.Mask&syscall.IN_CREATE != 0 && !bytes.HasPrefix(name, []byte(covLogPrefix)):
				// A file being written: reported when closed or moved in.
				// Coverage logs stay open (synccov.go): reported when made.
			case len(name) > 0:
				select {
				case w.names <- string(name):
				default:
					w.lose() // the syncer is behind: a scan reads them
				}
			}
		}
	}
}

// lose marks the watch lost and wakes the syncer (an empty name), which
// then reads the directory soon and watches it again.
func (w *dirWatch) lose() {
	w.lost.Store(true)
	select {
	case w.names <- "":
	default: // names are waiting: the syncer sees lost when it takes one
	}
}

// close ends the watch, if any.
func (w *dirWatch) close() {
	if w != nil {
		w.f.Close()
	}
}
