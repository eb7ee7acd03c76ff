package main

import (
	"fmt"
	"strconv"
	"time"
)

// overhead is the time a fuzzing test needs besides its budget (the
// baseline run of the corpus, minimizing a failure, copying the outputs):
// the rules' _OVERHEAD_SECONDS (fuzz_test.bzl), which picks the target's
// timeout from its fuzztime.
const overhead = 90 * time.Second

// fitTimeout returns the -fuzztime of a bazel test whose timeout is
// timeout (TEST_TIMEOUT, in seconds; "" when Bazel did not set it) and
// whose -fuzztime is fuzztime, and what to tell the user about it ("" when
// it is unchanged). Bazel ends a test at its timeout and reports it as
// TIMEOUT, a failure, whatever the test found, so a duration that does not
// leave the overhead (--test_arg=-fuzztime=1h on a moderate target, or a
// shorter --test_timeout) is cut to what fits, and no budget (-fuzztime= or 0)
// becomes all the time that fits, split over the fuzz tests as any budget
// is. At least a quarter of the timeout goes to fuzzing. An Nx budget's
// duration is unknown: it is kept.
func fitTimeout(fuzztime, timeout string) (string, string) {
	secs, err := strconv.Atoi(timeout)
	if err != nil || secs <= 0 {
		return fuzztime, ""
	}
	limit := time.Duration(secs) * time.Second
	room := max(limit-overhead, limit/4)
	why := fmt.Sprintf("the test's timeout (%ds) less about %ds for the baseline, minimizing a failure and the outputs", secs, int(overhead.Seconds()))
	d, err := time.ParseDuration(fuzztime)
	switch {
	case fuzztime == "" || err == nil && d == 0: // as go test's -fuzztime=0: no limit
		return room.String(), fmt.Sprintf("fuzzbox: no -fuzztime: fuzzing for %s, %s\n", room, why)
	case err != nil || d <= room:
		return fuzztime, ""
	}
	return room.String(), fmt.Sprintf("fuzzbox: -fuzztime=%s does not fit the test's timeout: fuzzing for %s, %s (raise it with --test_timeout=%d)\n",
		fuzztime, room, why, int((d + overhead + time.Second - 1).Seconds()))
}
