package engine

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
)

// Shared dictionaries (Options.SyncDir): synced instances share their
// automatic dictionaries as one instance's workers share its one. Each
// instance appends the comparison operands its traced executions add to
// its dictionary to a log of its own in the sync directory, .dict-<peer
// name>, one dictionary line per token (corpus.QuoteToken), and adds the
// others' logs' tokens to its dictionary as they grow. Without it, an
// instance learned another's operands only by running its inputs traced;
// since it takes them on their recorded coverage instead (synccov.go), two
// synced instances' dictionaries held 240–370 tokens each after 2 s of
// fuzzing jsparse, where one instance of two workers held 360–512
// (bench/README.md, "Corpus sync: shared dictionaries").
//
// A log holds at most the dictionary's size (maxAutoTokens, plus the
// tokens the instance started with), so it is read whole on every growth
// it is found to have. A reader takes complete lines only (a writer may be
// mid-write) and skips a line it cannot parse. An instance removes its log
// when it stops; a killed instance's is removed by the others once it has
// not been written for peerGone.

// dictLogPrefix starts the name of an instance's dictionary log: hidden,
// so that no instance reads it as an input.
const dictLogPrefix = ".dict-"

// dictPoll is how often, at most, the syncer reads the other instances'
// dictionary logs between two listings: on each file the watch reports.
const dictPoll = 50 * time.Millisecond

// dictLogs are this instance's dictionary log and its reads of the
// others'; the syncer goroutine's.
type dictLogs struct {
	own    *os.File
	failed bool             // writing the own log failed: not tried again until the directory is back
	mine   [][]byte         // the tokens published, written again to a new log
	read   map[string]int64 // another instance's log → how many of its bytes were taken
	polled time.Time        // the last read of the others' logs
}

// publish appends toks to this instance's log in dir, making it first.
func (d *dictLogs) publish(dir, peer string, toks [][]byte) {
	d.mine = append(d.mine, toks...)
	d.write(dir, peer, toks)
}

func (d *dictLogs) write(dir, peer string, toks [][]byte) {
	if d.failed || len(toks) == 0 {
		return
	}
	if d.own == nil {
		f, err := os.OpenFile(filepath.Join(dir, dictLogPrefix+peer), os.O_WRONLY|os.O_CREATE|os.O_APPEND|os.O_TRUNC, 0o666)
		if err != nil {
			d.failed = true
			return
		}
		d.own = f
		toks = d.mine // a new log: everything published so far
	}
	var b bytes.Buffer
	for _, t := range toks {
		b.WriteString(corpus.QuoteToken(t))
		b.WriteByte('\n')
	}
	if _, err := d.own.Write(b.Bytes()); err != nil {
		d.reset()
		d.failed = true
	}
}

// reset closes this instance's log, to be made again (with every token
// published) at the next publish: the directory was made again, and the
// log went with the old one.
func (d *dictLogs) reset() {
	if d.own != nil {
		d.own.Close()
		d.own = nil
	}
	d.failed = false
}

// found notes the file name of dir when it is another instance's log.
func (d *dictLogs) found(name, peer string) {
	if !strings.HasPrefix(name, dictLogPrefix) || name == dictLogPrefix+peer {
		return
	}
	if d.read == nil {
		d.read = map[string]int64{}
	}
	if _, ok := d.read[name]; !ok {
		d.read[name] = 0
	}
}

// poll returns the tokens the other instances' logs in dir gained since
// the last poll; unless now is set, it reads them at most every dictPoll.
func (d *dictLogs) poll(dir string, now bool) [][]byte {
	if len(d.read) == 0 || !now && time.Since(d.polled) < dictPoll {
		return nil
	}
	d.polled = time.Now()
	var toks [][]byte
	for name, off := range d.read {
		data, err := readFrom(filepath.Join(dir, name), off)
		if err != nil {
			continue // gone: its instance stopped
		}
		end := bytes.LastIndexByte(data, '\n') + 1 // complete lines only
		for line := range bytes.Lines(data[:end]) {
			if t, err := corpus.ParseDict(line); err == nil {
				toks = append(toks, t...)
			}
		}
		d.read[name] = off + int64(end)
	}
	return toks
}

// readFrom returns the bytes of the file path from off on.
func readFrom(path string, off int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

// prune removes the dictionary logs of the listing ents that were not
// written for peerGone (compared with now, the file system's time): a
// killed instance's, which would otherwise stay.
func (d *dictLogs) prune(dir, peer string, ents []os.DirEntry, now time.Time) {
	for _, de := range ents {
		name := de.Name()
		if !strings.HasPrefix(name, dictLogPrefix) || name == dictLogPrefix+peer {
			continue
		}
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > peerGone {
			os.Remove(filepath.Join(dir, name))
			delete(d.read, name)
		}
	}
}

// leave closes and removes this instance's log.
func (d *dictLogs) leave(dir, peer string) {
	if d.own != nil {
		d.own.Close()
		d.own = nil
		os.Remove(filepath.Join(dir, dictLogPrefix+peer))
	}
}
