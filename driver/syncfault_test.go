package driver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fuzzbox/fuzzbox/corpus"
	"github.com/fuzzbox/fuzzbox/driver/build"
	"github.com/fuzzbox/fuzzbox/engine/ipc"
	"github.com/fuzzbox/fuzzbox/event"
)

// Corpus sync under faults (issue 22), end to end with real fuzzing
// processes: an instance killed while it publishes, a sync directory removed
// and restored under a running instance, two instances finding the same
// crash. Bad files in the sync directory are TestFuzzSync's. The instances
// run one prebuilt fuzzing binary of the targets fixture (FuzzSynced has a
// branch only syncedInput reaches, which an instance gets only from the
// sync directory).

// syncedInput is the one input that takes FuzzSynced's branch.
const syncedInput = "go test fuzz v1\n[]byte(\"an input from elsewhere\")\n"

// targetsBin is the targets fixture's fuzzing binary, built once per test
// binary into fuzzboxBin's directory.
var targetsBin struct {
	once sync.Once
	bin  string
	err  error
}

// targetsBinary builds the targets fixture into a fuzzing binary, once.
func targetsBinary(t *testing.T) string {
	t.Helper()
	fuzzbox := testFuzzbox(t)
	targetsBin.once.Do(func() {
		dir := filepath.Join(fuzzboxBin.dir, "targets")
		if targetsBin.err = os.CopyFS(dir, os.DirFS("../cmd/fuzzbox/testdata/fuzz/targets")); targetsBin.err != nil {
			return
		}
		res, err := build.Build(context.Background(), build.Options{Dir: dir, Out: dir + ".fuzz", Toolexec: []string{fuzzbox, "toolexec"}})
		targetsBin.bin, targetsBin.err = res.Binary, err
	})
	if targetsBin.err != nil {
		t.Fatal(targetsBin.err)
	}
	return targetsBin.bin
}

// syncConfig fuzzes target with the prebuilt binary, one worker, syncing
// through dir.
func syncConfig(t *testing.T, target, fuzztime, dir string) Config {
	return Config{Binary: targetsBinary(t), Fuzz: "^" + target + "$", FuzzTime: fuzztime, Parallel: 1, Sync: dir, RSSLimitMB: DefaultRSSLimitMB}
}

// importedAs reports whether r imported (a coverage event with imported)
// the input whose file name is name.
func importedAs(r *fixtureRun, name string) bool {
	for _, e := range r.events {
		if e.Type == event.Coverage && e.Imported && filepath.Base(e.Reproducer) == name {
			return true
		}
	}
	return false
}

// checkEntries checks that every file of dir is a whole corpus entry: the
// only other things there may be a killed write's .tmp-* directory, an
// instance's (empty) .peer-* file and its coverage log, .cov-*.
func checkEntries(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range ents {
		path := filepath.Join(dir, de.Name())
		switch {
		case de.IsDir() && strings.HasPrefix(de.Name(), ".tmp-"):
		case de.Type().IsRegular() && strings.HasPrefix(de.Name(), ".cov-"): // an instance's coverage log
		case de.Type().IsRegular() && strings.HasPrefix(de.Name(), ".peer-"):
			if fi, err := de.Info(); err == nil && fi.Size() != 0 {
				t.Errorf("peer file %s is not empty", de.Name())
			}
		case de.IsDir():
			t.Errorf("directory %s in the sync directory", de.Name())
		default:
			if _, err := corpus.ReadFile(path, nil); err != nil {
				data, _ := os.ReadFile(path)
				t.Errorf("partial or bad file in the sync directory: %v\n%q", err, data)
			}
		}
	}
}

// TestFuzzSyncKilledMidPublish: an instance killed with SIGKILL (workers
// and all) while it writes an input to the sync directory leaves no partial
// file there, and another instance syncing through the same directory goes
// on and still imports from it.
func TestFuzzSyncKilledMidPublish(t *testing.T) {
	shared := t.TempDir()
	victim := targetsModule(t)
	path, err := corpus.Write(filepath.Join(victim, ".cache", "FuzzSynced"), []byte(syncedInput))
	if err != nil {
		t.Fatal(err)
	}
	// The victim publishes its cache's input when its fuzzing starts: a
	// name to watch for. It is started once the other instance fuzzes.
	name := filepath.Base(path)
	killed := make(chan killResult, 1)
	var once sync.Once
	cfg := syncConfig(t, "FuzzSynced", "25s", shared)
	r := fuzzWatched(t, t.TempDir(), cfg, targetsModule(t), func(e event.Event) {
		if e.Type == event.Start {
			once.Do(func() { go func() { killed <- killMidPublish(cfg.Binary, victim, shared, name) }() })
		}
	})
	var k killResult
	select {
	case k = <-killed:
	case <-time.After(3 * time.Minute):
		t.Fatalf("the victim instance was not killed\n%s", r)
	}
	if k.err != nil {
		t.Fatalf("%v\n%s", k.err, r)
	}
	t.Logf("killed when the victim's input was %s", k.seen)
	checkEntries(t, filepath.Join(shared, "FuzzSynced"))
	if r.res.ExitCode != ExitOK || !importedAs(r, name) {
		t.Errorf("the other instance: exit %d, imported %s: %v; want exit 0 and the import\n%s", r.res.ExitCode, name, importedAs(r, name), r)
	}
	for _, w := range r.warnings {
		if strings.Contains(w, "skipping") {
			t.Errorf("the other instance skipped a file: %s", w)
		}
	}
}

// A killResult says how the victim instance died.
type killResult struct {
	seen string // "being written" or "in place": its input when it was killed
	err  error
}

// killMidPublish starts bin fuzzing FuzzSynced in dir, syncing through
// shared, kills its process group when the input name appears there (in
// a temporary directory while it is written, or in place), and then
// writes that input whole itself, so that the other instance can get it
// either way.
func killMidPublish(bin, dir, shared, name string) killResult {
	cmd := exec.Command(bin, "-test.run=^$", "-test.fuzz=^FuzzSynced$", "-test.fuzzcachedir="+filepath.Join(dir, ".cache"),
		"-test.fuzztime=2m", "-test.parallel=1", "-test.timeout=0", "-"+ipc.FlagSync+"="+shared)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return killResult{err: err}
	}
	target := filepath.Join(shared, "FuzzSynced")
	seen := ""
	for end := time.Now().Add(time.Minute); seen == "" && time.Now().Before(end); time.Sleep(100 * time.Microsecond) {
		seen = publishing(target, name)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	if seen == "" {
		return killResult{err: fmt.Errorf("the victim instance did not publish %s", name)}
	}
	_, err := corpus.Write(target, []byte(syncedInput))
	return killResult{seen: seen, err: err}
}

// publishing says where the file name is in dir: "being written" (in a
// temporary directory), "in place", or "" (neither).
func publishing(dir, name string) string {
	if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
		return "in place"
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".tmp-*", name)); len(tmp) > 0 {
		return "being written"
	}
	return ""
}

// TestFuzzSyncDirRemoved: the sync directory removed under a running
// instance is reported (a warning) and fuzzing goes on; once it is back,
// the instance says so, imports from it and publishes there again.
func TestFuzzSyncDirRemoved(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "sync")
	var removed, restored sync.Once
	r := fuzzWatched(t, t.TempDir(), syncConfig(t, "FuzzSynced", "30s", shared), targetsModule(t), func(e event.Event) {
		switch {
		case e.Type == event.Stats:
			// At the first stats line, not at start: the syncer's
			// goroutine may make the directory only after the start
			// event (a loaded machine), which would undo the removal.
			removed.Do(func() { os.RemoveAll(shared) })
		case e.Type == event.Warning && strings.Contains(e.Message, "fuzzing goes on without it"):
			restored.Do(func() { corpus.Write(filepath.Join(shared, "FuzzSynced"), []byte(syncedInput)) })
		}
	})
	if r.res.ExitCode != ExitOK {
		t.Fatalf("want exit 0\n%s", r)
	}
	gone, back := -1, -1
	for i, w := range r.warnings {
		if gone < 0 && strings.Contains(w, "fuzzing goes on without it") {
			gone = i
		}
		if gone >= 0 && back < 0 && strings.Contains(w, "works again") {
			back = i
		}
	}
	if gone < 0 || back < 0 {
		t.Fatalf("warnings %q: want the directory reported gone, then working again\n%s", r.warnings, r)
	}
	if !importedAs(r, corpus.Name([]byte(syncedInput))) {
		t.Errorf("the input put in the restored directory was not imported\n%s", r)
	}
	// Its own corpus (what its cache kept, besides the import) is
	// published again.
	cached, _ := filepath.Glob(filepath.Join(r.dir, ".cache", "*", "FuzzSynced", "*"))
	if len(cached) == 0 {
		cached, _ = filepath.Glob(filepath.Join(r.dir, ".cache", "FuzzSynced", "*"))
	}
	own := 0
	for _, p := range cached {
		if filepath.Base(p) == corpus.Name([]byte(syncedInput)) {
			continue
		}
		own++
		if _, err := os.Stat(filepath.Join(shared, "FuzzSynced", filepath.Base(p))); err != nil {
			t.Errorf("the instance's entry %s is not in the restored sync directory", filepath.Base(p))
		}
	}
	t.Logf("%d entries of its own", own)
	checkEntries(t, filepath.Join(shared, "FuzzSynced"))
}

// TestFuzzSyncSameCrash: two instances, each with a cache directory of its
// own, syncing through one directory, find the same panic: its bucket is
// written once, in the sync directory, and one instance reports it new, the
// other known.
func TestFuzzSyncSameCrash(t *testing.T) {
	shared := t.TempDir()
	var runs [2]*fixtureRun
	t.Run("instances", func(t *testing.T) {
		for i := range runs {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				runs[i] = fuzzIn(t, t.TempDir(), syncConfig(t, "FuzzPanic", "60s", shared), targetsModule(t))
			})
		}
	})
	if t.Failed() {
		return
	}
	var fails []event.Event
	for _, r := range runs {
		i := firstOfType(r.events, event.Failure)
		if r.res.ExitCode != ExitFailure || i < 0 {
			t.Fatalf("want a failure, exit 1\n%s", r)
		}
		fails = append(fails, r.events[i])
	}
	id := fails[0].Bucket
	if id == "" || fails[1].Bucket != id || fails[0].Known == fails[1].Known {
		t.Errorf("failures' buckets %q, %q, known %v, %v: want one bucket, new in one instance and known in the other",
			fails[0].Bucket, fails[1].Bucket, fails[0].Known, fails[1].Known)
	}
	if _, err := os.Stat(filepath.Join(shared, "FuzzPanic.buckets", id)); err != nil {
		t.Errorf("bucket %s not in the sync directory: %v", id, err)
	}
}
