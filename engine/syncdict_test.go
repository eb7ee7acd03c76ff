package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"
)

// syncerTokens takes the syncer's news until its tokens hold every one of
// want, failing the test after a minute; it returns the tokens taken.
func syncerTokens(t *testing.T, s *syncer, want ...string) []string {
	t.Helper()
	var got []string
	timeout := time.After(time.Minute)
	for !containsAll(got, want) {
		select {
		case n := <-s.news:
			for _, tok := range n.tokens {
				got = append(got, string(tok))
			}
		case <-timeout:
			t.Fatalf("tokens %q in a minute, want %q among them", got, want)
		}
	}
	return got
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// TestSyncerSharesDictionary: what one instance's dictionary takes reaches
// the other's (and not its own), bytes of every value included; a line of
// a log that is not a dictionary line is skipped, and one cut short is
// taken once it is complete; an instance that stops removes its log, and a
// killed instance's log is removed once it is long unwritten.
func TestSyncerSharesDictionary(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "FuzzX")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, dictLogPrefix+"0000gone")
	if err := os.WriteFile(gone, []byte("\"old\"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * peerGone)
	if err := os.Chtimes(gone, old, old); err != nil {
		t.Fatal(err)
	}
	opts := &Options{SyncDir: root, Target: "FuzzX", Types: []reflect.Type{reflect.TypeFor[[]byte]()}}
	a := startSyncer(opts, 10*time.Millisecond, nil, nil, 0)
	defer a.close(os.Stderr)
	b := startSyncer(opts, 10*time.Millisecond, nil, nil, 0)
	a.out <- syncOut{tokens: [][]byte{[]byte("SELECT"), []byte("\x00\"\\\xff")}}
	syncerTokens(t, b, "SELECT", "\x00\"\\\xff")
	b.out <- syncOut{tokens: [][]byte{[]byte("FROM")}}
	got := syncerTokens(t, a, "FROM")
	if slices.Contains(got, "SELECT") {
		t.Errorf("a took its own token back: %q", got)
	}

	// Another instance's log, written by hand: a bad line, then a line
	// cut short, completed later.
	other := filepath.Join(dir, dictLogPrefix+"0000other")
	if err := os.WriteFile(other, []byte("not a token\n\"WHERE\"\n\"JO"), 0o666); err != nil {
		t.Fatal(err)
	}
	got = syncerTokens(t, a, "WHERE")
	if slices.Contains(got, "JO") || slices.Contains(got, "not a token") {
		t.Errorf("tokens %q: a bad line or one cut short was taken", got)
	}
	f, err := os.OpenFile(other, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("IN\"\n")
	f.Close()
	syncerTokens(t, a, "JOIN")

	if _, err := os.Stat(gone); err == nil {
		t.Error("a log long unwritten was not removed")
	}
	b.close(os.Stderr)
	if _, err := os.Stat(filepath.Join(dir, dictLogPrefix+b.peer)); err == nil {
		t.Error("a stopped instance left its dictionary log")
	}
}

// TestDictionaryAddReturnsAdded: add returns the tokens it took, which
// synced instances share, and nothing once the dictionary is full.
func TestDictionaryAddReturnsAdded(t *testing.T) {
	d := newDictionary([][]byte{[]byte("user")})
	got := d.add([][]byte{[]byte("a"), []byte("user"), []byte("a"), nil, []byte("b")})
	if len(got) != 2 || string(got[0]) != "a" || string(got[1]) != "b" {
		t.Errorf("add = %q, want [a b]", got)
	}
	for i := 0; !d.full(); i++ {
		d.add([][]byte{[]byte{byte(i), byte(i >> 8)}})
	}
	if got := d.add([][]byte{[]byte("late")}); len(got) != 0 {
		t.Errorf("add to a full dictionary = %q, want nothing", got)
	}
}
