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
// signature), and each bucket is written once, as a small JSON file in a
// directory beside the generated corpus (<cachedir>/FuzzX.buckets/<id>).
// A failure whose bucket a run finds there is "known" (an earlier run, or
// another instance sharing the cache directory, recorded it); otherwise it
// is "new" and this run writes the bucket. Front ends show which, and count
// a run's duplicates per bucket.

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

// bucketsBeside returns the bucket directory of a generated corpus
// directory, or "" when there is none.
func bucketsBeside(cacheDir string) string {
	if cacheDir == "" {
		return ""
	}
	return strings.TrimRight(cacheDir, string(filepath.Separator)) + ".buckets"
}

// knownBucket reports whether dir holds the bucket id.
func knownBucket(dir, id string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, id))
	return err == nil
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
