"""Public API of the fuzzbox Bazel rules: fuzz Go packages' `func FuzzX(f *testing.F)` tests.

    load("@fuzzbox//rules:defs.bzl", "go_fuzz_test")

    go_fuzz_test(
        name = "parse_fuzz",
        srcs = ["parse_fuzz_test.go"],
        embed = [":parse"],
        fuzztime = "30s",
    )

declares `parse_fuzz` (replays the seeds, `bazel test`), `parse_fuzz_fuzz` (fuzzes as a test),
`parse_fuzz_run` (`bazel run`, reproducers into the source tree) and `parse_fuzz_bin` (the
fuzzing binary). See docs/bazel.md. Everything else lives in rules/private and may change.
"""

load("//rules/private:fuzz_test.bzl", _go_fuzz_test = "go_fuzz_test")
load("//rules/private:providers.bzl", _GoFuzzInfo = "GoFuzzInfo")

go_fuzz_test = _go_fuzz_test
GoFuzzInfo = _GoFuzzInfo
