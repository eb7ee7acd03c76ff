package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Recorded coverage (Options.SyncDir): beside the inputs it publishes, an
// instance appends the coverage each one reached here to a log of its own in
// the sync directory, .cov-<peer name>, which starts with the SHA-256 of the
// test binary. An instance that reads another's input takes its coverage
// from that instance's log when the log's binary is its own, instead of
// running the input on a worker: the same binary gives the same counters for
// the same input (bar the unstable edges the finder's re-run left out). Each
// such run was a worker's round trip (0.5–0.8 ms on two busy processors
// against 80–95 µs of execution), one per import, while an instance of one
// worker fuzzes nothing else; in the first seconds of a text parser's run
// that is as many round trips as the instance's own finds
// (bench/README.md, "Corpus sync: recorded coverage"). An instance that
// joins a sync directory of thousands of entries takes them without a
// baseline run too.
//
// Each instance publishes its whole cache when its fuzzing starts: it
// records only the inputs new to the directory, so a directory kept across
// runs holds about one record per input; and an instance removes the logs
// of other binaries that were not written for peerGone (earlier builds').
//
// An input without a record (another binary, a log lost with its
// directory, a record not readable yet) runs on a worker as before. A
// record only decides whether the input joins the corpus: a wrong one
// (a log corrupted in a way its checksum misses) costs fuzzing time, never a
// report, as every failure comes from an execution here.
//
// A log is a sequence of records, each its length (4 bytes, little-endian),
// its bytes and their CRC-32 (IEEE, 4 bytes). The first is the header:
// covMagic, the binary's SHA-256 and the number of counters (uvarint); each
// other is an entry's name (the 8 bytes corpus.Name prints in hex) and its
// coverage's non-zero bytes, each as the gap from the last one's index plus
// one (uvarint) and the byte. One record is one write; a reader keeps a
// record cut short (its writer is mid-write, or was killed) for later, and
// stops reading a log whose record is bad.

// covLogPrefix starts the name of an instance's coverage log.
const covLogPrefix = ".cov-"

// covMagic starts a coverage log's header.
const covMagic = "fuzzbox coverage v1\x00"

// maxCovRecord bounds a record's length, so that a bad length in a log is
// no huge allocation: a record of a map of n counters takes at most 8+4n
// bytes (covLog.limit).
const maxCovRecord = 64 << 20

var errCovRecord = errors.New("bad coverage record")

// binaryKey is the SHA-256 of the running test binary, computed in the
// background: a run starts hashing when it starts, and the syncer waits for
// it only at its first use, after the baseline.
type binaryKey struct {
	done chan struct{}
	sum  []byte // nil when the binary could not be read
}

// hashBinary starts hashing this process's executable.
func hashBinary() *binaryKey {
	k := &binaryKey{done: make(chan struct{})}
	go func() {
		defer close(k.done)
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			k.sum = h.Sum(nil)
		}
	}()
	return k
}

// get returns the key once it is computed; nil for a nil key or one that
// could not be computed.
func (k *binaryKey) get() []byte {
	if k == nil {
		return nil
	}
	<-k.done
	return k.sum
}

// appendSparse appends cov's non-zero bytes to dst as a record's entry
// part does: the gap from the last index plus one, and the byte. Most of a
// coverage map is zero: it skips eight bytes at a time.
func appendSparse(dst, cov []byte) []byte {
	next := 0
	for i := 0; i < len(cov); i++ {
		if i&7 == 0 && i+8 <= len(cov) && binary.LittleEndian.Uint64(cov[i:]) == 0 {
			i += 7
			continue
		}
		if cov[i] != 0 {
			dst = binary.AppendUvarint(dst, uint64(i-next))
			dst = append(dst, cov[i])
			next = i + 1
		}
	}
	return dst
}

// expandSparse returns the coverage map of n counters that appendSparse
// encoded as b.
func expandSparse(b []byte, n int) ([]byte, error) {
	cov := make([]byte, n)
	next := 0
	for len(b) > 0 {
		gap, k := binary.Uvarint(b)
		if k <= 0 || k >= len(b) || gap >= uint64(n-next) {
			return nil, errCovRecord
		}
		i := next + int(gap)
		cov[i] = b[k]
		next, b = i+1, b[k+1:]
	}
	return cov, nil
}

// appendCovRecord appends a record of payload to dst.
func appendCovRecord(dst, payload []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	dst = append(dst, payload...)
	return binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(payload))
}

// nextCovRecord splits the first record off b. It returns a nil payload
// when b holds no whole record yet, and errCovRecord for a record longer
// than limit or whose checksum does not match.
func nextCovRecord(b []byte, limit int) (payload, rest []byte, err error) {
	if len(b) < 4 {
		return nil, b, nil
	}
	n := int(binary.LittleEndian.Uint32(b))
	if n > limit {
		return nil, b, errCovRecord
	}
	if len(b) < 8+n {
		return nil, b, nil
	}
	payload = b[4 : 4+n]
	if binary.LittleEndian.Uint32(b[4+n:]) != crc32.ChecksumIEEE(payload) {
		return nil, b, errCovRecord
	}
	return payload, b[8+n:], nil
}

// covHeader is a log's header record's payload.
func covHeader(key []byte, covLen int) []byte {
	return binary.AppendUvarint(append([]byte(covMagic), key...), uint64(covLen))
}

// isCovLog reports whether name is another instance's coverage log: the
// prefix and a peer's name (newPeerName).
func isCovLog(name string) bool {
	peer, ok := strings.CutPrefix(name, covLogPrefix)
	if !ok || len(peer) != 16 {
		return false
	}
	_, err := hex.DecodeString(peer)
	return err == nil
}

// A covLog is another instance's coverage log, as far as the syncer read it.
type covLog struct {
	f       *os.File
	pending []byte // read and not yet a whole record
	header  bool   // the header was read and names this binary
	done    bool   // not to be read again: another binary's, or bad
	foreign bool   // another binary's
}

// covRecords is what the syncer knows of the coverage logs: its own, which
// it appends to, and the others', which it reads.
type covRecords struct {
	key    []byte // this binary's, nil when recording is off
	covLen int
	own    *os.File // nil until the first record, or after a failure
	failed bool     // writing the own log failed: not tried again until the directory is back
	logs   map[string]*covLog
	covs   map[string][]byte // entry name → its recorded coverage (sparse), not yet taken
}

// record appends e's coverage to this instance's log in dir, making it
// first. A failure stops the recording until reset: readers then run the
// inputs.
func (r *covRecords) record(dir, peer, name string, sparse []byte) {
	if r.key == nil || r.failed {
		return
	}
	raw, err := hex.DecodeString(name)
	if err != nil {
		return
	}
	var buf []byte
	if r.own == nil {
		path := filepath.Join(dir, covLogPrefix+peer)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|os.O_TRUNC, 0o666)
		if err != nil {
			r.failed = true
			return
		}
		r.own = f
		buf = appendCovRecord(buf, covHeader(r.key, r.covLen))
	}
	buf = appendCovRecord(buf, append(raw, sparse...))
	if _, err := r.own.Write(buf); err != nil {
		r.reset()
		r.failed = true
	}
}

// reset closes this instance's log, to be made again at the next record:
// the directory was made again, and the log went with the old one.
func (r *covRecords) reset() {
	if r.own != nil {
		r.own.Close()
		r.own = nil
	}
	r.failed = false
}

// found notes another instance's log, name, of dir, and reads what it
// has; seen names the entries already taken.
func (r *covRecords) found(dir, name string, seen map[string]bool) {
	if r.key == nil || r.logs[name] != nil || !isCovLog(name) {
		return
	}
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return
	}
	if r.logs == nil {
		r.logs = map[string]*covLog{}
	}
	l := &covLog{f: f}
	r.logs[name] = l
	r.read(l, seen)
}

// coverage returns the recorded coverage of the entry named name, reading
// what the logs have gained when it is not known yet; nil when there is
// none. seen names the entries already taken: their records are dropped.
func (r *covRecords) coverage(name string, seen map[string]bool) []byte {
	if r.key == nil {
		return nil
	}
	sparse, ok := r.covs[name]
	if !ok {
		for _, l := range r.logs {
			r.read(l, seen)
		}
		sparse, ok = r.covs[name]
	}
	if !ok {
		return nil
	}
	delete(r.covs, name)
	cov, err := expandSparse(sparse, r.covLen)
	if err != nil {
		return nil
	}
	return cov
}

// read reads what l gained since the last read and notes its records.
func (r *covRecords) read(l *covLog, seen map[string]bool) {
	if l.done {
		return
	}
	var chunk [64 << 10]byte
	for {
		n, err := l.f.Read(chunk[:])
		l.pending = append(l.pending, chunk[:n]...)
		if err != nil || n == 0 {
			break
		}
	}
	limit := min(8+4*r.covLen+len(covMagic)+64, maxCovRecord)
	for !l.done {
		payload, rest, err := nextCovRecord(l.pending, limit)
		if err != nil {
			l.stop()
			return
		}
		if payload == nil {
			break
		}
		l.pending = rest
		r.take(l, payload, seen)
	}
	l.pending = bytes.Clone(l.pending) // the rest of a cut record: keep it small
}

// take notes one record of l.
func (r *covRecords) take(l *covLog, payload []byte, seen map[string]bool) {
	if !l.header {
		if !bytes.Equal(payload, covHeader(r.key, r.covLen)) {
			l.stop()
			l.foreign = true
		}
		l.header = true
		return
	}
	if len(payload) < 8 {
		l.stop()
		return
	}
	name := hex.EncodeToString(payload[:8])
	if !seen[name] {
		if r.covs == nil {
			r.covs = map[string][]byte{}
		}
		r.covs[name] = bytes.Clone(payload[8:])
	}
}

// stop stops reading l.
func (l *covLog) stop() {
	l.done = true
	l.pending = nil
	l.f.Close()
}

// prune removes the logs of the directory's listing ents that belong to
// another binary and were not written for peerGone (compared with now, the
// file system's time): logs of earlier builds, of use to no instance of
// this one, which would otherwise pile up in a directory kept across
// builds (a CI cache).
func (r *covRecords) prune(dir string, ents []os.DirEntry, now time.Time) {
	for _, de := range ents {
		l := r.logs[de.Name()]
		if l == nil || !l.foreign {
			continue
		}
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > peerGone {
			os.Remove(filepath.Join(dir, de.Name()))
			delete(r.logs, de.Name())
		}
	}
}

// close closes every log.
func (r *covRecords) close() {
	r.reset()
	for _, l := range r.logs {
		if !l.done {
			l.stop()
		}
	}
}
