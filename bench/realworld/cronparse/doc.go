// Package cronparse fuzzes the cron spec parser of github.com/robfig/cron/v3
// (cron.ParseStandard: five fields, ranges, steps, names, "@every"
// descriptors and a "TZ=" or "CRON_TZ=" prefix), as a scheduler reading
// user-supplied schedules does (Kubernetes CronJobs go through it).
//
// Module github.com/robfig/cron/v3 v3.0.1, the last release (2020); not
// fixed in any release. Upstream: https://github.com/robfig/cron/issues/554
// and #470 (open; the same bug reported from fuzzing since 2020, PR #365).
// Bug: Parser.Parse takes a time zone prefix to end at the first space and
// slices up to strings.Index(spec, " ") without checking that there is one:
// a spec that is only a prefix, "TZ=0", panics with "slice bounds out of
// range [:-1]" in Parser.Parse. The input is short but needs the exact
// prefix keyword and no space after it.
//
// Signature: cron/v3\.Parser\.Parse
package cronparse
