package engine

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fuzzbox/fuzzbox/event"
)

// Failure kinds, as reported in messages and events (defined once, in
// package event, which the driver and front ends read them from).
const (
	KindPanic = event.KindPanic
	KindFail  = event.KindFail
	KindFatal = event.KindFatal
	KindExit  = event.KindExit
	KindHang  = event.KindHang
	KindOOM   = event.KindOOM
	KindRace  = event.KindRace
	KindLeak  = event.KindLeak
)

// failureKind classifies the message of an input that failed while the
// worker survived (the error the testing package returned for it).
func failureKind(msg string) string {
	switch {
	case strings.HasPrefix(msg, leakHeader):
		return KindLeak
	case strings.Contains(msg, "race detected during execution of test"), strings.Contains(msg, "WARNING: DATA RACE"):
		return KindRace
	case strings.Contains(msg, "panic: "):
		return KindPanic
	}
	return KindFail
}

// deathKind classifies the death of a worker process from the tail of its
// output.
func deathKind(output string) string {
	switch {
	case strings.Contains(output, "WARNING: DATA RACE"):
		return KindRace
	case strings.Contains(output, "runtime: out of memory"),
		strings.Contains(output, "fuzzbox: out of memory"):
		return KindOOM
	case strings.Contains(output, "fatal error: "), crashReportRE.MatchString(output):
		return KindFatal
	case strings.Contains(output, "panic: "):
		return KindPanic
	}
	return KindExit
}

// crashReportRE matches the start of a crash report that is neither a
// panic nor a fatal error: the runtime's for a signal that arrived in C
// code ("SIGSEGV: segmentation violation" then "PC=", as go test -run
// prints it), and a sanitizer's in cgo code built with one
// ("==12==ERROR: AddressSanitizer: heap-buffer-overflow ..."). A C crash
// was reported as the process exiting, with the last lines of the output:
// the register dump, or ASan's legend.
var crashReportRE = regexp.MustCompile(`(?m)^(?:SIG[A-Z0-9]+: [^\n]*\nPC=|==\d+==ERROR: [A-Za-z]+Sanitizer: )`)

// A failure is one failing input, as found by a worker.
type failure struct {
	kind string
	msg  string // message as the testing package or the process printed it
	vals []any  // the failing input (minimized when possible)
	path string // the input's existing file when it is a testdata seed; "" to write a reproducer
	seed string // the seed corpus entry's name (seedRef) when the input is one: not minimized, nothing written
	// entry is the generated-corpus entry's file name when the input is
	// one (seedRef.entry): reported, as the reproducer is its input
	// minimized.
	entry string
	key   string // failureKey of the failure as caught: minimization keeps it
	// outside: the worker was killed by a signal fuzzbox did not send, twice
	// (confirmDeath); a re-run killed so again reproduces it, and it is
	// not minimized.
	outside bool

	sig    string // signature when it was caught (claim)
	bucket string // bucketID(sig); once recorded, that of the minimized failure's signature (saveBucket)
	known  bool   // the bucket was on disk already: recorded before
	caught string // once recorded, bucketID(sig) when it is not bucket: the alias (saveBucket)

	reruns     int    // re-runs in fresh workers
	reproduced int    // re-runs that failed the same way
	minimized  string // "yes", "no", or "" when not attempted
}

// newFailure returns the failure of vals, from seed s if it is one.
func newFailure(kind, msg string, vals []any, s seedRef) *failure {
	return &failure{kind: kind, msg: msg, vals: vals, path: s.path, seed: s.name, entry: s.entry}
}

// crashError is what Coordinate returns for a failure. The testing package
// prints Error(), then "Failing input written to <CrashPath()>" and the
// go test -run line to replay it.
type crashError struct {
	kind string
	msg  string
	path string
	seed string // failure.seed: the seed corpus entry that failed
	// bucket and known are its crash bucket's id and whether an earlier
	// run (or another instance) recorded it; hits counts its failures,
	// duplicates included.
	bucket string
	known  bool
	hits   int
}

// where says where the failing input is: its reproducer, or the seed
// corpus entry of target it is.
func (e *crashError) where(target string) string {
	if e.seed != "" {
		return event.SeedEntry(target, e.seed)
	}
	return e.path
}

func (e *crashError) Error() string { return e.msg }

// Unwrap implements the testing package's fuzzCrashError.
func (e *crashError) Unwrap() error { return nil }

// CrashPath implements the testing package's fuzzCrashError.
func (e *crashError) CrashPath() string { return e.path }

// multiCrashError reports several unique failures (-keepgoing). Its
// CrashPath is the first one's; Error lists them all.
type multiCrashError struct {
	errs   []*crashError
	target string
}

func (e *multiCrashError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fuzzbox found %d unique failures:\n", len(e.errs))
	for i, c := range e.errs {
		line := lineOf(c.kind, c.msg)
		if !strings.HasPrefix(line, c.kind+": ") {
			line = c.kind + ": " + line
		}
		fmt.Fprintf(&b, "  %d. %s -> %s", i+1, line, c.where(e.target))
		if c.bucket != "" {
			fmt.Fprintf(&b, " (%s bucket %s, %d×)", event.BucketWord(c.known), c.bucket, c.hits)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nfirst failure:\n")
	b.WriteString(e.errs[0].msg)
	return b.String()
}

func (e *multiCrashError) Unwrap() error { return nil }

func (e *multiCrashError) CrashPath() string { return e.errs[0].path }

// runError is what Coordinate returns for the run's failures fails, as
// go test -fuzz would: a failing seed corpus entry is no crash with a
// "Failing input written to" file, only its message (the status line
// named the entry), so an error that is no fuzzCrashError reports it, as
// it reports several whose first is a seed's.
func runError(target string, fails []*crashError) error {
	var err interface {
		error
		CrashPath() string
	} = fails[0]
	if len(fails) > 1 {
		err = &multiCrashError{errs: fails, target: target}
	}
	if fails[0].seed != "" {
		return errors.New(err.Error())
	}
	return err
}

// firstLine is the first line of a message that says something.
var firstLine = event.FirstLine

// frameFn matches the function of a stack frame's line, as a group.
const frameFn = `(?m)^[ \t]*([\w./\-]+(?:\.\(?\*?[\w]+\)?)?\.[\w.\-\[\]]+)\(.*\)`

var (
	frameRE   = regexp.MustCompile(frameFn + `$`)
	numbersRE = regexp.MustCompile(`0x[0-9a-f]+|\d+`)
	quotedRE  = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|` + "`[^`\n]*`")
	groupRE   = regexp.MustCompile(`\([^()]*\)|\[[^\[\]]*\]|\{[^{}]*\}`)
)

// shape is a message's line without what tells one input from another:
// quoted strings (a t.Errorf of the input with %q), the contents of
// brackets ((1:2), [a b], {A:1}, func(int, int)) and numbers. Two failures
// of one bug at one place differ only there; a line without quotes or
// brackets keeps the form buckets had before, numbers removed.
func shape(line string) string {
	line = quotedRE.ReplaceAllString(line, `""`)
	for {
		// Innermost groups first, their brackets hidden (masked) so that
		// the group around them matches next.
		next := groupRE.ReplaceAllStringFunc(line, func(g string) string {
			return masked.Replace(g[:1] + g[len(g)-1:])
		})
		if next == line {
			break
		}
		line = next
	}
	return unmasked.Replace(numbersRE.ReplaceAllString(line, "N"))
}

// masked hides brackets from groupRE; unmasked shows them again.
var (
	masked   = strings.NewReplacer("(", "\x01", ")", "\x02", "[", "\x03", "]", "\x04", "{", "\x05", "}", "\x06")
	unmasked = strings.NewReplacer("\x01", "(", "\x02", ")", "\x03", "[", "\x04", "]", "\x05", "{", "\x06", "}")
)

// signature identifies a failure for de-duplication: its kind, the shape
// of the first line of its message (a fail's: the line that says what
// failed, failLine) when it is a fail or has no stack, and the first few
// stack frames outside the runtime and testing packages; for a hang, an
// oom and a leak, frames that do not depend on where the goroutine was
// caught (hangFrames, leakFrames), and no message: an oom's says how it was
// caught (the worker's sampler, the exact check, the watchdog), which varies
// for one bug, and without frames every oom of a fuzz test had one bucket. A panic's holds the shape of its panic line,
// as a fail's does of its reporting line, and a fatal error's its text
// (numbers removed): two panics in one function are two bugs when their
// messages differ (a nil map written and a panic of the code's own had one
// bucket, so the second was called known). Line numbers are left out, so
// that an edit above a bug does not make it new.
func signature(kind, msg string) string {
	var frames []string
	switch kind {
	case KindHang, KindOOM:
		frames = hangFrames(msg)
	case KindLeak:
		frames = leakFrames(msg)
	}
	if len(frames) > 0 {
		return kind + "||" + strings.Join(frames, "|")
	}
	for _, m := range frameRE.FindAllStringSubmatch(firstGoroutine(msg), -1) {
		fn := m[1]
		if internalFrame(fn) {
			continue
		}
		frames = append(frames, fn)
		if len(frames) == 3 {
			break
		}
	}
	var head string
	switch {
	case kind == KindFail:
		head = shape(failLine(msg))
		if src := bareReportSource(msg); src != "" {
			head += "|" + src
		}
	case len(frames) == 0:
		head = shape(firstLine(msg))
	case kind == KindPanic:
		line := panicLine(msg)
		if i := strings.Index(line, "panic: "); i >= 0 {
			line = line[i:] // not testing's "testing.go:NNN: " before it
		}
		head = shape(recoveredRE.ReplaceAllString(line, ""))
	case kind == KindFatal:
		head = failureKey(kind, msg)
	}
	return kind + "|" + head + "|" + strings.Join(frames, "|")
}

// recoveredRE matches what the testing package appends to a panic it
// recovered and raised again (" [recovered]", " [recovered, repanicked]").
var recoveredRE = regexp.MustCompile(` \[recovered[^\]]*\]$`)

// firstGoroutine cuts a dying process's dump of every goroutine after the
// first, the one that failed: frames of the others (the testing package's
// main goroutine, the code's idle ones) vary from one death to the next,
// and made a signature of a goroutine with fewer than three frames of its
// own unstable (a panic on a goroutine the code started: each death a new
// "unique" failure, each flaky one reported).
func firstGoroutine(msg string) string {
	hs := goroutineStateRE.FindAllStringIndex(msg, 2)
	if len(hs) < 2 {
		return msg
	}
	return msg[:hs[1][0]]
}

// Patterns for failureKey.
var (
	// frameAtRE matches a stack frame and the file:line under it.
	frameAtRE = regexp.MustCompile(frameFn + `\n[ \t]*(\S+\.go:\d+)`)
	// reportedAtRE matches the file:line that starts a t.Error's line
	// (trimmed: a report whose text starts on the next line ends there).
	reportedAtRE = regexp.MustCompile(`^([\w.\-]+\.go:\d+):(?: |$)`)
)

// failureKey is what minimization keeps of a failure besides its kind, so
// that the input written fails with the bug that was caught and not with
// another one a smaller candidate runs into:
//   - a panic: the innermost stack frame outside the runtime, testing and
//     fuzzbox, with its file:line, and for a runtime error its text with the
//     numbers removed (an index out of range and a nil dereference in one
//     function are two bugs; a panic's own text may quote the input);
//   - a runtime fatal error: its text with the numbers removed;
//   - a t.Error or t.Fatal: the file:line that reported it (failLine: not
//     a t.Log line before it; its text may quote the input);
//   - a goroutine leak: where its first goroutine was created (leakKey);
//   - a hang, oom or exit: "" (any failure of the kind: a hang stays a hang
//     at the same timeout, an oom at the same limit).
//
// It is "" too when the message has nothing to key on.
func failureKey(kind, msg string) string {
	switch kind {
	case KindLeak:
		return leakKey(msg)
	case KindFatal:
		if i := strings.Index(msg, "fatal error: "); i >= 0 {
			return numbersRE.ReplaceAllString(firstLine(msg[i:]), "N")
		}
		if loc := crashReportRE.FindStringIndex(msg); loc != nil {
			// The signal or the sanitizer's finding, without addresses.
			return numbersRE.ReplaceAllString(firstLine(msg[loc[0]:]), "N")
		}
	case KindFail:
		if m := reportedAtRE.FindStringSubmatch(failLine(msg)); m != nil {
			return m[1]
		}
	case KindPanic:
		rerr, fn, at := panicSite(msg)
		if fn == "" {
			return rerr
		}
		return rerr + "|" + fn + "|" + at
	}
	return ""
}

// panicSite returns a panic's runtime error with the numbers removed (""
// for a panic of the code's own) and its innermost stack frame outside the
// runtime, testing and fuzzbox: the function and its file:line ("" when
// none).
func panicSite(msg string) (rerr, fn, at string) {
	line := panicLine(msg)
	if i := strings.Index(line, "runtime error: "); i >= 0 {
		rerr = numbersRE.ReplaceAllString(line[i:], "N")
	}
	for _, m := range frameAtRE.FindAllStringSubmatch(msg, -1) {
		if !internalFrame(m[1]) {
			return rerr, m[1], m[2]
		}
	}
	return rerr, "", ""
}

// sameFailure reports whether a failure of kind got with message msg is
// the failure minimization keeps: of kind, at key (failureKey; "" for any
// place).
func sameFailure(kind, key, got, msg string) bool {
	return got == kind && (key == "" || failureKey(kind, msg) == key)
}

// confirms reports whether a re-run that failed with kind and msg confirms
// f: it failed the same way, or f's input grew its memory without end and
// the re-run stopped it at the other limit. Such an input is an oom where it
// reaches -rss_limit_mb within the watchdog's growth bound and a hang
// (whileGrew) where it does not, which is the machine's speed, not the
// input's: x/text's UTF-16 decoder on a loaded machine was a hang at 20 s
// with 1,764 MiB resident, its re-runs ooms, and the bug was called flaky
// and not written. Minimization is stricter (sameFailure): a smaller input
// is kept only when it fails the way the report says.
func confirms(f *failure, kind, msg string) bool {
	return kind == f.kind || kind == KindOOM && grewHang(f.kind, f.msg) || f.kind == KindOOM && grewHang(kind, msg)
}

// heldOOM reports whether f is an oom of the worker's heap check
// (checkHeld), which a re-run confirms after a shorter wait
// (ipc.RunArgs.HeldOOM).
func heldOOM(f *failure) bool {
	return f.kind == KindOOM && strings.Contains(firstLine(f.msg), heldInHeap)
}

// grewHang reports whether a failure is a hang whose memory grew while it
// ran.
func grewHang(kind, msg string) bool {
	return kind == KindHang && strings.Contains(firstLine(msg), whileGrew)
}

// internalFrame reports whether a stack frame's function is the runtime's,
// the testing package's or fuzzbox's: not where a user's failure happened.
func internalFrame(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "runtime/debug.") || strings.HasPrefix(fn, "testing.") ||
		strings.HasPrefix(fn, "panic(") || strings.HasPrefix(fn, "github.com/fuzzbox/fuzzbox/")
}

// goroutineGapRE separates the goroutines of a stack dump.
var goroutineGapRE = regexp.MustCompile(`\n[ \t]*\n`)

// hangFrames returns, from a hang's (or an oom's) dump of every goroutine,
// the fuzz function and up to three of the calls it made on the way to the
// code that did not return (ownFrame: the code's own), outermost first, or
// nil if no goroutine was running the fuzz function. A hang's innermost frames are wherever the watchdog's signal
// caught the loop, and the dump starts with whichever goroutine the runtime
// lists first: the way in is what stays the same from one kill to the next.
// The fuzz function is the frame that testing's reflect call runs.
func hangFrames(msg string) []string {
	for _, block := range goroutineGapRE.Split(msg, -1) {
		var fns []string
		for _, m := range frameRE.FindAllStringSubmatch(block, -1) {
			fns = append(fns, m[1])
		}
		call := slices.IndexFunc(fns, func(fn string) bool { return strings.HasPrefix(fn, "reflect.Value.call") })
		if call < 0 {
			continue
		}
		var path []string // outermost first: the fuzz function, then its callees
		entry := ""       // the first standard library function the fuzz function called
		for i := call - 1; i >= 0 && len(path) < 4; i-- {
			fn := fns[i]
			switch {
			case len(path) == 0 && !strings.HasPrefix(fn, "runtime."):
				path = append(path, fn)
			case len(path) == 0:
			case ownFrame(fn, path[0]) && path[len(path)-1] != fn:
				path = append(path, fn)
			case len(path) == 1 && entry == "" && !runtimeFrame(fn):
				entry = fn
			}
		}
		if len(path) == 1 && entry != "" {
			// A fuzz function that calls the standard library itself
			// (json.Unmarshal, regexp.Match): the call it is in tells
			// one of its hangs from another.
			path = append(path, entry)
		}
		return path
	}
	return nil
}

// ownFrame reports whether fn, a frame below the fuzz function fuzzFn,
// belongs on a hang's or an oom's way in: not the runtime's, nor another
// standard library package's (where a loop or an allocation was caught in
// a map's or a slice's growth, a string search, varies from one kill to the
// next: an oom caught in a map's insertion had another bucket each run),
// unless the fuzz test is itself the standard library's.
func ownFrame(fn, fuzzFn string) bool {
	return !runtimeFrame(fn) && (!stdPackage(funcPackage(fn)) || stdPackage(funcPackage(fuzzFn)))
}

// runtimeFrame reports whether fn is the runtime's.
func runtimeFrame(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(funcPackage(fn), "internal/runtime/")
}

// leakFrames returns what a leak's first goroutine is known by: the
// function that started it and the function it runs (its outermost frame),
// or nil if msg has no goroutine with a "created by" line. Where it blocks
// depends on the input: go-milter's fuzz test leaves a goroutine writing
// into a pipe nobody reads, blocked in the writer's Write for one input and
// in its Close for another, which its innermost frames made two buckets of
// one bug. Minimization keeps the same place too (failureKey: where it was
// started).
func leakFrames(msg string) []string {
	c := createdByRE.FindStringSubmatchIndex(msg)
	if c == nil {
		return nil
	}
	fns := frameRE.FindAllStringSubmatch(msg[:c[0]], -1)
	if len(fns) == 0 {
		return nil
	}
	return []string{msg[c[2]:c[3]], fns[len(fns)-1][1]}
}
