package event

import (
	"fmt"
	"strings"
	"time"
)

// Format renders e as the status line people see (in go test -fuzz's shape
// where it has one), or "" for events that have no line of their own:
// output (printed as is), the first build event, exit, duplicate failures, and the done
// event of a fuzz test that was not fuzzed (the output and fuzzbox fuzz's
// summary say why).
func Format(e Event) string {
	el := fmtDur(time.Duration(e.Elapsed) * time.Millisecond)
	switch e.Type {
	case Tests:
		return "fuzz: " + e.Message
	case Build:
		if e.Message == "" { // the run's first: the build is starting
			return ""
		}
		return "fuzz: " + e.Message
	case Baseline:
		return fmt.Sprintf("fuzz: elapsed: %s, gathering baseline coverage: %s completed", el, e.Progress)
	case Start:
		return fmt.Sprintf("fuzz: elapsed: %s, gathering baseline coverage: %s completed, now fuzzing with %d workers", el, e.Progress, e.Workers)
	case Stats, Done:
		switch {
		case e.NotFuzzed != "":
			return ""
		case e.Type == Done && e.Progress != "":
			// Ended (by a stop, a failure or the limit) before fuzzing
			// started: where the baseline got to, as go test -fuzz says it.
			return fmt.Sprintf("fuzz: elapsed: %s, gathering baseline coverage: %s completed", el, e.Progress)
		}
		return statsLine(el, e)
	case Minimizing:
		switch {
		case e.Kind == "" && e.Message != "":
			return fmt.Sprintf("fuzz: elapsed: %s, minimizing (%s)", el, e.Message) // past the run's time
		case e.Kind == "":
			return fmt.Sprintf("fuzz: elapsed: %s, minimizing", el) // the periodic line while it goes on
		}
		return fmt.Sprintf("fuzz: elapsed: %s, minimizing %s failure: %s", el, e.Kind, e.Headline())
	case Failure:
		if e.Duplicate {
			if e.Reproducer == "" {
				return "" // counted in the summary
			}
			return fmt.Sprintf("fuzz: elapsed: %s, %s failure minimized to the input already written to %s: %s", el, e.Kind, e.Reproducer, e.Headline())
		}
		line := fmt.Sprintf("fuzz: elapsed: %s, found %s failure: %s (written to %s)", el, e.Kind, e.Headline(), e.Reproducer)
		if e.Seed != "" { // go test's line, then what it found
			line = fmt.Sprintf("failure while testing seed corpus entry: %s/%s (%s failure: %s)", e.Target, e.Seed, e.Kind, e.Headline())
		}
		if e.Bucket != "" {
			line += "; " + BucketWord(e.Known) + " bucket " + e.Bucket
		}
		switch e.Minimized {
		case MinimizedCutShort:
			line += "; minimization was cut short by -fuzzminimizetime (a smaller input may exist)"
		case MinimizedStopped:
			line += "; minimization was stopped with the run (a smaller input may exist)"
		}
		if e.Reruns > 0 && e.Reproduced == 0 {
			line += fmt.Sprintf("; FLAKY: it did not fail again in %d re-runs in a fresh worker (kept by -keepflaky)", e.Reruns)
		}
		if len(e.Values) > 0 {
			line += "\n    failing arguments: " + strings.Join(e.Values, ", ")
		}
		return line
	case Flaky:
		kept := "not written (-keepflaky writes it)"
		if e.Reproducer != "" {
			kept = "written to " + e.Reproducer + " (-keepflaky)"
		}
		return fmt.Sprintf("fuzz: elapsed: %s, flaky %s failure: %s: failed again in %d of %d re-runs in a fresh worker; %s",
			el, e.Kind, strings.TrimSuffix(e.Headline(), ":"), e.Reproduced, e.Reruns, kept) // "goroutine stacks:" of an oom
	case Warning:
		return fmt.Sprintf("fuzz: elapsed: %s, warning: %s", el, FirstLine(e.Message))
	case InternalError:
		return fmt.Sprintf("fuzz: elapsed: %s, internal error in fuzzbox (a fuzzbox bug, not a failure of your code; please report it): %s; nothing was written%s",
			el, FirstLine(e.Message), indentedRest(e.Message))
	}
	return ""
}

// BucketWord says whether a failure's crash bucket was recorded before:
// "known" or "new" (the status line, fuzzbox fuzz's summary, CI's reports).
func BucketWord(known bool) string {
	if known {
		return "known"
	}
	return "new"
}

func statsLine(el string, e Event) string {
	line := fmt.Sprintf("fuzz: elapsed: %s, execs: %d (%.0f/sec), new interesting: %d (total: %d), edges: %d",
		el, e.Execs, e.ExecsPerSec, e.New, e.Corpus, e.Edges)
	if e.Unstable > 0 {
		line += fmt.Sprintf(", unstable: %d", e.Unstable)
	}
	if e.Pruned > 0 {
		line += fmt.Sprintf(", pruned: %d redundant cache entries", e.Pruned)
	}
	if e.RaceReplayed > 0 || e.RaceSkipped > 0 {
		line += fmt.Sprintf(", race twin: %d replayed", e.RaceReplayed)
		if e.RaceSkipped > 0 {
			line += fmt.Sprintf(" (%d skipped)", e.RaceSkipped)
		}
	}
	if e.Instances > 1 {
		line += fmt.Sprintf(", synced instances: %d", e.Instances)
	}
	if e.Type == Done && e.Plateau {
		line += "; stopped: no new coverage for the -plateau time"
	}
	return line
}

func fmtDur(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return d.String()
}

// FirstLine returns the first non-empty line of a message that is not a
// "--- FAIL" header, trimmed.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "---") {
			return l
		}
	}
	return s
}

// indentedRest returns the lines of msg after its first, each on a line of
// its own indented by four spaces, or "" when there are none.
func indentedRest(msg string) string {
	_, rest, ok := strings.Cut(strings.TrimRight(msg, "\n"), "\n")
	if !ok {
		return ""
	}
	return "\n    " + strings.ReplaceAll(rest, "\n", "\n    ")
}
