"""Providers of the fuzzbox Bazel rules."""

GoFuzzInfo = provider(
    doc = """What the fuzzbox runner needs to know about one go_fuzz_test's fuzzing binary.

Returned by the `<name>_testmain` target that go_fuzz_test declares, and read by the
`<name>_fuzz` and `<name>_run` targets.""",
    fields = {
        "importpath": "string: import path of the package under test (names the generated-corpus cache and the events).",
        "package_dir": """string: the package's directory relative to the runfiles root of its repository
(`pkg/parse`, or `../repo/pkg/parse` for a package of another repository). Its `testdata/fuzz/`
holds the seed corpus and receives reproducers.""",
        "package": "string: the package's directory relative to its workspace root (`pkg/parse`), where `bazel run` writes reproducers.",
    },
)
