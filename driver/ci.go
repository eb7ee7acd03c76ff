package driver

import (
	"cmp"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzbox/fuzzbox/event"
)

// CIFuzzTime is CI's -fuzztime when none is given: the budget all the
// affected fuzz tests share.
const CIFuzzTime = "5m"

// CIReports names the report files CI writes; "" leaves one out.
type CIReports struct {
	JUnit    string // JUnit XML: one test case per fuzz test
	SARIF    string // SARIF 2.1.0: one result per crash bucket, at the innermost frame in the repository
	Markdown string // a summary table for a pull request or job page
}

// CI fuzzes, for a change, the fuzz tests of the packages (matched by
// patterns in cfg.Dir) that the change affects (Changed against the git
// revision base), sharing cfg.FuzzTime between them, with KeepGoing and,
// unless cfg.Run says otherwise, no test run before fuzzing. It
// exits 1 only for failures in new crash buckets: a bug an earlier run
// (whose generated corpus and buckets the cache directory kept) already
// found is reported, as known, and does not fail the job. The reports are
// written at the end, also when nothing was to fuzz and when the job could
// not fuzz (a package that does not build, a -fuzz that matches no fuzz
// test of patterns: exit 2, where it passed as "nothing affected"). A job
// stopped before its end (ctx cancelled: a CI system's cancellation or
// timeout) that found no new bucket exits 2 and its reports say so: it
// passed, every fuzz test "ok" with nothing fuzzed. With out.JSON the exit
// event, the stream's last, carries the job's exit code.
func CI(ctx context.Context, cfg Config, base string, patterns []string, out Output, reps CIReports) Result {
	start := time.Now()
	res, root, p := ciRun(ctx, cfg, base, patterns, out)
	if res.ExitCode == ExitFailure && !res.hasNew() {
		res.ExitCode = ExitOK // only known buckets
	}
	if ctx.Err() != nil && res.ExitCode == ExitOK {
		res.ExitCode, res.Err = ExitError, errors.New("the job was stopped before its fuzzing ended (interrupted, or cancelled by the CI system): not a passing job")
		fmt.Fprintf(out.Stderr, "%s: %v\n", out.Prefix, res.Err)
	}
	for _, w := range []struct {
		path  string
		write func(io.Writer, Result, string) error
	}{{reps.JUnit, writeJUnit}, {reps.SARIF, writeSARIF}, {reps.Markdown, writeMarkdown}} {
		if w.path == "" {
			continue
		}
		if err := writeFile(w.path, func(f io.Writer) error { return w.write(f, res, root) }); err != nil {
			fmt.Fprintf(out.Stderr, "%s: %v\n", out.Prefix, err)
			res.ExitCode = max(res.ExitCode, ExitError)
		}
	}
	if out.JSON {
		if p == nil {
			p = NewPrinter(out.Stdout, true, nil)
		}
		code := res.ExitCode
		now := time.Now()
		e := event.Event{Type: event.Exit, Time: now, Elapsed: now.Sub(start).Milliseconds(), ExitCode: &code}
		if res.Err != nil {
			e.Error = oneLine(res.Err)
		}
		p.Print(e)
	}
	return res
}

// ciRun is CI without its reports and exit event: the result, the
// repository's top directory ("" when the change could not be read), and
// the printer of the fuzz tests' events (nil when none ran).
func ciRun(ctx context.Context, cfg Config, base string, patterns []string, out Output) (Result, string, *event.Printer) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	userFuzz := cfg.Fuzz != ""
	cfg.Fuzz, cfg.FuzzTime, cfg.KeepGoing = cmp.Or(cfg.Fuzz, "."), cmp.Or(cfg.FuzzTime, CIFuzzTime), true
	cfg.Run = cmp.Or(cfg.Run, "^$") // the job's go test runs the tests; the budget is for fuzzing
	cfg.cachePerPackage = true      // whichever packages a job affects, each finds its corpus and buckets where the last job left them
	dir := cmp.Or(cfg.Dir, ".")
	pkgs, root, err := changed(ctx, dir, base, patterns)
	if err != nil {
		return out.report(errorResult(err)), root, nil
	}
	var targets []Target
	if len(pkgs) > 0 {
		targets, err = Resolve(ctx, cfg, pkgs)
	}
	if userFuzz && (errors.As(err, new(noMatch)) || err == nil && len(targets) == 0) {
		// Nothing affected matches: does anything at all? A misspelt
		// -fuzz would otherwise pass every job.
		if _, aerr := Resolve(ctx, cfg, patterns); errors.As(aerr, new(noMatch)) {
			return out.report(errorResult(aerr)), root, nil
		}
	}
	switch {
	case errors.As(err, new(noMatch)) || err == nil && len(targets) == 0:
		w := out.Stdout
		if out.JSON {
			w = out.Stderr // standard output is the event stream
		}
		fmt.Fprintf(w, "%s: %s since %s\n", out.Prefix, noneAffected, base)
		return Result{ExitCode: ExitOK}, root, nil
	case err != nil:
		return out.report(errorResult(err)), root, nil
	}
	if !out.JSON {
		// What the job will fuzz, before the builds, which take minutes
		// in a large module and print nothing (the JSON stream's build
		// event lists the packages).
		pkgs := strings.Fields(packagesOf(targets))
		fmt.Fprintf(out.Stdout, "%s: affected by the changes since %s: %s of %s; building the fuzzing binaries: %s\n",
			out.Prefix, base, counted(len(targets), "fuzz test"), counted(len(pkgs), "package"), strings.Join(pkgs, " "))
	}
	// As runTargets, but without go test's "ok"/"FAIL" line (a known
	// bucket's FAIL in a passing job) and with the exit event left to CI.
	p := NewPrinter(out.Stdout, out.JSON, targets)
	res := Fuzz(ctx, cfg, targets, func(e event.Event) {
		if e.Type != event.Exit {
			p.Print(e)
		}
	})
	return out.report(res), root, p
}

// counted is "1 thing" or "n things".
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// noneAffected says a job had nothing to fuzz.
const noneAffected = "no fuzz test is affected by the changes"

// hasNew reports whether a failure of the run is in a new crash bucket (or
// has none: a failure fuzzbox could not bucket counts as new), or a fuzz
// test failed in its worker processes before f.Fuzz (StartFailed).
func (r Result) hasNew() bool {
	for _, t := range r.Targets {
		if t.StartFailed != "" {
			return true // not fuzzed, for a failure of its own
		}
		for _, f := range t.Failures {
			if !f.Known {
				return true
			}
		}
	}
	return false
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing a report: %w", err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// JUnit XML, as CI systems read it (Jenkins, GitLab, GitHub reporters).
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Class     string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Failures  []junitResult `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitResult struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes one suite per package and one case per fuzz test; a
// failure in a new bucket is a <failure>, a known one is told in the
// case's output. Reproducers' paths, here and in the other reports, are
// relative to the repository's root.
func writeJUnit(w io.Writer, res Result, root string) error {
	var doc junitSuites
	index := map[string]int{}
	for _, t := range res.Targets {
		i, ok := index[t.Package]
		if !ok {
			i = len(doc.Suites)
			index[t.Package] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: t.Package})
		}
		c := junitCase{Class: t.Package, Name: t.Name, SystemOut: fmt.Sprintf("%d executions", t.Execs)}
		if n := t.notFuzzed(); n != "" {
			c.SystemOut += "; " + n
			c.Skipped = &junitSkipped{Message: n}
		}
		for _, f := range t.Failures {
			text := fmt.Sprintf("%s failure, %s bucket %s, reproducer %s\n%s", f.Kind, event.BucketWord(f.Known), f.Bucket, t.shownInput(f, root), f.Message)
			if f.Known {
				c.SystemOut += "\n" + text
				continue
			}
			c.Failures = append(c.Failures, junitResult{Message: f.Headline(), Type: f.Kind, Text: text})
		}
		if t.Err != "" {
			c.Failures = append(c.Failures, junitResult{Message: t.Err, Type: "error", Text: t.Err})
		}
		if t.StartFailed != "" {
			c.Failures = append(c.Failures, junitResult{Message: event.FirstLine(t.StartFailed), Type: "start", Text: t.StartFailed})
		}
		s := &doc.Suites[i]
		s.Tests++
		switch {
		case len(c.Failures) > 0:
			s.Failures++
			c.Skipped = nil // a case is one or the other
		case c.Skipped != nil:
			s.Skipped++
		}
		s.Cases = append(s.Cases, c)
	}
	switch {
	case res.Err != nil:
		// The job stopped before any fuzz test (a package that does not
		// build), or before its end: a case says so, where none would
		// say nothing was affected, or the others that all passed.
		msg := res.Err.Error()
		doc.Suites = append(doc.Suites, junitSuite{Name: "fuzzbox", Tests: 1, Failures: 1, Cases: []junitCase{{
			Class: "fuzzbox", Name: "fuzzbox ci", Failures: []junitResult{{Message: event.FirstLine(msg), Type: "error", Text: msg}}}}})
	case len(res.Targets) == 0:
		// A passing case: a report without tests fails some readers
		// (Jenkins' junit step, unless allowEmptyResults).
		doc.Suites = append(doc.Suites, junitSuite{Name: "fuzzbox", Tests: 1, Cases: []junitCase{{
			Class: "fuzzbox", Name: "fuzzbox ci", SystemOut: noneAffected}}})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	return enc.Encode(doc)
}

// location returns the innermost place in the repository at root a
// failure's message names (FailureFrame), as a path relative to root and a
// line, or "".
func location(t TargetResult, msg, root string) (string, int) {
	if f, ok := FailureFrame(msg, t.Dir, root); ok {
		if rel, err := filepath.Rel(root, f.File); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel), f.Line
		}
	}
	return "", 0
}

// writeSARIF writes a SARIF 2.1.0 log (GitHub code scanning, GitLab): a
// rule per crash bucket, a result per failure, level error when the bucket
// is new and note when it is known, located at the innermost frame inside
// the repository.
func writeSARIF(w io.Writer, res Result, root string) error {
	type obj = map[string]any
	var rules, results []obj
	ruled := map[string]bool{}
	for _, t := range res.Targets {
		for _, f := range t.Failures {
			id := "fuzzbox/" + f.Kind + "/" + cmp.Or(f.Bucket, "unbucketed")
			if !ruled[id] { // the schema wants each rule once
				ruled[id] = true
				rules = append(rules, obj{"id": id, "shortDescription": obj{"text": f.Kind + " in " + t.String()}})
			}
			r := obj{
				"ruleId":  id,
				"level":   sarifLevel(f.Known),
				"message": obj{"text": fmt.Sprintf("%s (%s bucket; reproducer %s; replay: %s)", f.Headline(), event.BucketWord(f.Known), t.shownInput(f, root), replayLine(t, f, root))},
			}
			if file, line := location(t, f.Headline()+"\n"+f.Message, root); file != "" { // a fail's t.Error line, not a t.Log line before it
				r["locations"] = []obj{{"physicalLocation": obj{"artifactLocation": obj{"uri": file}, "region": obj{"startLine": line}}}}
			}
			results = append(results, r)
		}
	}
	run := obj{
		"tool":    obj{"driver": obj{"name": "fuzzbox", "informationUri": "https://github.com/fuzzbox/fuzzbox", "rules": orEmpty(rules)}},
		"results": orEmpty(results),
	}
	if res.ExitCode == ExitError && res.Err != nil {
		run["invocations"] = []obj{{"executionSuccessful": false,
			"toolExecutionNotifications": []obj{{"level": "error", "message": obj{"text": res.Err.Error()}}}}}
	}
	log := obj{
		"version": "2.1.0",
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"runs":    []obj{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// replayLine is the command that replays failure f of t from the
// repository's root: go test of the package, in its module's directory
// when that is not the root (go test finds no go.mod there).
func replayLine(t TargetResult, f event.Event, root string) string {
	cmd := fmt.Sprintf("go test %s-run=%s/%s %s", raceFlag(f.Kind), t.Name, f.ReplayName(), t.Package)
	if mod := ModuleRoot(t.Dir); root != "" && mod != "" && mod != root {
		if rel, err := filepath.Rel(root, mod); err == nil && filepath.IsLocal(rel) {
			cmd = "cd " + filepath.ToSlash(rel) + " && " + cmd
		}
	}
	return cmd
}

// sarifLevel is a result's level: a known bucket is a note.
func sarifLevel(known bool) string {
	if known {
		return "note"
	}
	return "error"
}

// orEmpty returns s, or an empty list for nil (SARIF wants arrays).
func orEmpty(s []map[string]any) []map[string]any {
	if s == nil {
		return []map[string]any{}
	}
	return s
}

// writeMarkdown writes a summary table.
func writeMarkdown(w io.Writer, res Result, root string) error {
	var b strings.Builder
	b.WriteString("## fuzzbox\n\n")
	switch {
	case len(res.Targets) == 0 && res.Err != nil:
		fmt.Fprintf(&b, "fuzzbox could not fuzz:\n\n```\n%s\n```\n", res.Err)
	case len(res.Targets) == 0:
		b.WriteString("No fuzz test is affected by the change.\n")
	default:
		if res.Err != nil {
			fmt.Fprintf(&b, "**fuzzbox did not finish:** %s\n\n", res.Err)
		}
		b.WriteString("| fuzz test | result | executions | crash bucket | reproducer |\n|---|---|---|---|---|\n")
		for _, t := range res.Targets {
			if len(t.Failures) == 0 {
				result := "ok"
				if n := t.notFuzzed(); n != "" {
					result += ", " + n
				}
				if t.Err != "" {
					result = "error: " + t.Err
				}
				if t.StartFailed != "" {
					result = "FAIL: " + strings.ReplaceAll(event.FirstLine(t.StartFailed), "|", `\|`)
				}
				fmt.Fprintf(&b, "| `%s` | %s | %d | | |\n", t, result, t.Execs)
			}
			for _, f := range t.Failures {
				result := f.Headline()
				if !strings.HasPrefix(result, f.Kind) {
					result = f.Kind + ": " + result
				}
				fmt.Fprintf(&b, "| `%s` | %s | %d | %s `%s` (%d×) | `%s` |\n", t, strings.ReplaceAll(result, "|", `\|`),
					t.Execs, event.BucketWord(f.Known), f.Bucket, 1+t.Duplicates[f.Bucket], t.shownInput(f, root))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// raceFlag is the go test flag a failure of kind needs to replay: "-race "
// for a race.
func raceFlag(kind string) string {
	if kind == event.KindRace {
		return "-race "
	}
	return ""
}
