package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Crash buckets: every failure recorded is grouped by its signature (kind,
// and the innermost stack frames outside the runtime and testing: see
// signature), that of the minimized failure its reproducer shows (with the
// signature it was caught with as an alias: saveBucket), and each bucket is written once, as a small JSON file in a
// directory beside the generated corpus (<cachedir>/FuzzX.buckets/<id>)
// and, when syncing, beside the sync directory's entries
// (<SyncDir>/FuzzX.buckets/<id>), which the instances share. A failure
// whose bucket a run finds in either is "known" (an earlier run, or another
// instance, recorded it), and so is one whose bucket another instance
// writes first while this one confirms and minimizes it; otherwise it is
// "new" and this run writes the bucket. Front ends show which, and count a
// run's duplicates per bucket.

// A bucket is what a bucket file holds.
type bucket struct {
	ID         string    `json:"id"`
	Kind       string    `json:"kind"`
	Signature  string    `json:"signature"`
	Message    string    `json:"message"`    // the first failure's first line
	Reproducer string    `json:"reproducer"` // where the first failure was written
	FirstSeen  time.Time `json:"first_seen"`
}

// bucketID names the bucket of a signature: 16 hex digits of its SHA-256.
func bucketID(sig string) string {
	sum := sha256.Sum256([]byte(sig))
	return hex.EncodeToString(sum[:8])
}

// bucketDirs returns the directories a run keeps its buckets in: the
// shared one beside the sync directory's entries first (its write decides
// whether a bucket is new), when the sync directory is there (one that went
// away is not made again), then the one beside the generated corpus. It is
// empty when there is neither.
func bucketDirs(opts *Options) []string {
	var dirs []string
	if _, err := os.Stat(opts.SyncDir); opts.SyncDir != "" && err == nil {
		dirs = append(dirs, filepath.Join(opts.SyncDir, opts.Target+".buckets"))
	}
	if opts.CacheDir != "" {
		dirs = append(dirs, strings.TrimRight(opts.CacheDir, string(filepath.Separator))+".buckets")
	}
	return dirs
}

// knownBucket reports whether one of dirs holds the bucket id.
func knownBucket(dirs []string, id string) bool {
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, id)); err == nil {
			return true
		}
	}
	return false
}

// writeBucket writes b into dir unless a bucket of its id is there already:
// the file appears whole (a temporary file hard-linked to its name) and at
// most once, whoever writes it first (two instances sharing dir, a killed
// run). It reports whether this call wrote it.
func writeBucket(dir string, b bucket) (bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("creating the bucket directory: %w", err)
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return false, fmt.Errorf("encoding bucket %s: %w", b.ID, err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-"+b.ID+"-")
	if err != nil {
		return false, fmt.Errorf("writing bucket %s: %w", b.ID, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, fmt.Errorf("writing bucket %s: %w", b.ID, err)
	}
	if err := os.Link(tmp.Name(), filepath.Join(dir, b.ID)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("writing bucket %s: %w", b.ID, err)
	}
	return true, nil
}
