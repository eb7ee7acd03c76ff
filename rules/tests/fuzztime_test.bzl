"""Unit tests of go_fuzz_test's argument checks that return values (fuzztime parsing, timeouts).

The checks that fail() run when a BUILD file loads, which no Starlark test can observe; .ci/bazel.sh checks their
exact messages with `bazel query` on BUILD files that misuse the macro."""

load("@bazel_skylib//lib:unittest.bzl", "asserts", "unittest")
load("//rules/private:fuzz_test.bzl", "fuzz_timeout", "parse_fuzztime")

def _parse_fuzztime_test_impl(ctx):
    env = unittest.begin(ctx)
    for text, want in [
        ("30s", 30),
        ("5m", 300),
        ("1h30m", 5400),
        ("2m10s", 130),
        ("500ms", 1),  # sub-second units round up to a second
        ("1.5h", 5400),  # fractions, as in Go
        ("2.5s", 3),
        (".5m", 30),
        ("1m0.001s", 61),
        ("1000x", None),  # an execution budget has no duration
    ]:
        asserts.equals(env, want, parse_fuzztime("t", text), "parse_fuzztime(%r)" % text)
    return unittest.end(env)

parse_fuzztime_test = unittest.make(_parse_fuzztime_test_impl)

def _fuzz_timeout_test_impl(ctx):
    env = unittest.begin(ctx)
    for fuzztime, size, timeout, want in [
        ("30s", None, None, "moderate"),  # 30s + 90s overhead > 60s
        ("4m", None, None, "long"),
        ("20m", None, None, "eternal"),
        ("1000x", None, None, "long"),  # unknown duration
        ("30s", "large", None, "long"),  # from the size
        ("30s", None, "eternal", "eternal"),  # the user's
    ]:
        asserts.equals(env, want, fuzz_timeout("t", fuzztime, size, timeout), "fuzz_timeout(%r, %r, %r)" % (fuzztime, size, timeout))
    return unittest.end(env)

fuzz_timeout_test = unittest.make(_fuzz_timeout_test_impl)

def fuzztime_test_suite(name):
    """Declares the tests of this file as one test suite.

    Args:
      name: name of the test_suite.
    """
    unittest.suite(name, parse_fuzztime_test, fuzz_timeout_test)
