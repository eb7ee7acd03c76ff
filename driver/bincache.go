package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/driver/build"
)

// Fuzzing binaries are linked into a cache directory that outlives the run,
// then copied into the run's own. The go command links a test binary again
// whenever its output file is missing, but leaves one that is up to date
// (its build ID matches what it would link): a binary the last run of the
// same package and flags left is. pion/dtls's handshake package: 2.2 s to
// build into a new file, 0.5 s into the last run's; the entry also keeps
// the build's per-package flags (build.Options.FlagsFile). The copy keeps the
// run's binary its own while another run rebuilds the cached one; a lock
// keeps two runs from building one entry at a time. Entries unused for
// binCacheAge are removed.

// binCacheAge is how long an unused cached binary is kept.
const binCacheAge = 7 * 24 * time.Hour

// binCacheDir is the cache's directory under the user's cache directory.
const binCacheDir = "fuzzbox/bin"

// cachedBuild is build.Build linking in the binary cache and copying the
// binary to opts.Out. Where there is no cache (no user cache directory, no
// file locks on the system), it builds into opts.Out.
func cachedBuild(ctx context.Context, opts build.Options) (*build.Result, error) {
	dir, unlock, ok := binCacheEntry(ctx, opts)
	if !ok {
		return build.Build(ctx, opts)
	}
	defer unlock()
	out := opts.Out
	opts.Out = filepath.Join(dir, filepath.Base(out))
	opts.FlagsFile = filepath.Join(dir, "flags")
	res, err := build.Build(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := copyExecutable(opts.Out, out); err != nil {
		return nil, fmt.Errorf("driver: copying the fuzzing binary from the cache: %w", err)
	}
	if res.Binary, err = filepath.Abs(out); err != nil {
		return nil, fmt.Errorf("driver: %w", err)
	}
	return res, nil
}

// binCacheEntry returns opts' directory in the binary cache, locked until
// unlock is called, after removing the entries unused for binCacheAge; ok
// is false when there is none, or ctx ended while another run held it. A package in the temporary directory (a
// test's copy of a fixture, made anew each time) has none: its entry would
// never be used again.
func binCacheEntry(ctx context.Context, opts build.Options) (dir string, unlock func(), ok bool) {
	root := filepath.Join(build.UserCacheDir(), filepath.FromSlash(binCacheDir))
	pkgDir, err := filepath.Abs(opts.Dir)
	if _, inTmp := within(pkgDir, os.TempDir()); err != nil || inTmp {
		return "", nil, false
	}
	key := strings.Join([]string{pkgDir, opts.Package, fmt.Sprint(opts.Race), opts.Tags, opts.Vet, strings.Join(opts.Toolexec, " ")}, "\x00")
	sum := sha256.Sum256([]byte(key))
	dir = filepath.Join(root, hex.EncodeToString(sum[:12]))
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", nil, false
	}
	if unlock, ok = lockFile(ctx, filepath.Join(dir, workLock)); !ok {
		return "", nil, false
	}
	now := time.Now()
	os.Chtimes(dir, now, now) // used: kept another binCacheAge
	sweepBinCache(root, now)
	return dir, unlock, true
}

// sweepBinCache removes root's entries unused since binCacheAge before now
// that no run holds.
func sweepBinCache(root string, now time.Time) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, de := range ents {
		info, err := de.Info()
		if err != nil || !de.IsDir() || now.Sub(info.ModTime()) < binCacheAge {
			continue
		}
		if dir := filepath.Join(root, de.Name()); abandoned(filepath.Join(dir, workLock)) {
			os.RemoveAll(dir)
		}
	}
}

// copyExecutable copies the binary from to the new file to.
func copyExecutable(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o777)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// within reports whether path is dir or inside it (both absolute; symbolic
// links are not followed), and path relative to dir when it is.
func within(path, dir string) (rel string, ok bool) {
	rel, err := filepath.Rel(dir, path)
	return rel, err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
