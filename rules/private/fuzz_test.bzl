"""The go_fuzz_test macro: a replay test, a fuzzing binary, a fuzzing test and a run target."""

load("@io_bazel_rules_go//go:def.bzl", "go_binary", "go_library", "go_test")
load(":instrument.bzl", "go_fuzz_instrumented", "go_fuzz_instrumented_dep")
load(":relink.bzl", "go_fuzz_test_archive", "go_fuzz_test_archives")
load(":runner.bzl", "go_fuzz_merge", "go_fuzz_runner", "go_fuzz_runner_test")
load(":testmain.bzl", "go_fuzz_test_split", "go_fuzz_testmain")

# Nanoseconds per unit of a Go duration.
_UNITS = {"ns": 1, "us": 1000, "µs": 1000, "ms": 1000000, "s": 1000000000, "m": 60000000000, "h": 3600000000000}

# Bazel's test timeouts, shortest first.
_TIMEOUTS = [("short", 60), ("moderate", 300), ("long", 900), ("eternal", 3600)]
_SIZE_TIMEOUT = {"small": "short", "medium": "moderate", "large": "long", "enormous": "eternal"}

# Time a fuzzing test needs besides its budget: building nothing (Bazel did), the
# baseline run of the corpus, minimizing a failure (-fuzzminimizetime, 60s by default)
# and copying the outputs.
_OVERHEAD_SECONDS = 90

# go_test's attributes the fuzzing targets do not support yet, with the value that asks for
# nothing (rules_go's default, given explicitly), which is taken as it is left out.
_UNSUPPORTED = {"cgo": False, "race": "off", "msan": "off", "linkmode": "normal", "goos": "auto", "goarch": "auto", "pure": "off"}

def _fail(name, msg):
    fail('go_fuzz_test(name = "%s"): %s' % (name, msg))

def parse_fuzztime(name, fuzztime):
    """Returns the seconds, rounded up, of a duration fuzztime (as Go's time.ParseDuration reads it:
    `90s`, `1h30m`, `1.5h`, `500ms`), or None for an `Nx` budget.

    Fails with an exact message when fuzztime is neither."""
    bad = 'fuzztime must be a duration such as "30s" or "5m", or "Nx" executions, not %r' % (fuzztime,)
    if type(fuzztime) != "string" or not fuzztime:
        _fail(name, bad)
    if fuzztime.endswith("x") and fuzztime[:-1].isdigit():
        return None
    total, i, n = 0, 0, len(fuzztime)
    for _ in range(n):
        if i >= n:
            break
        j = _digits_end(fuzztime, i)
        whole, frac, k = fuzztime[i:j], "", j
        if k < n and fuzztime[k] == ".":
            k = _digits_end(fuzztime, j + 1)
            frac = fuzztime[j + 1:k]
        u = k
        for _ in range(n):
            if u < n and not fuzztime[u].isdigit() and fuzztime[u] != ".":
                u += 1
            else:
                break
        unit = fuzztime[k:u]
        if not (whole or frac) or unit not in _UNITS:
            _fail(name, bad)
        total += int(whole or "0") * _UNITS[unit]
        if frac:
            total += int(frac) * _UNITS[unit] // int("1" + "0" * len(frac))
        i = u
    if total <= 0:
        _fail(name, "fuzztime must be positive, not %r" % (fuzztime,))
    return (total + _UNITS["s"] - 1) // _UNITS["s"]

def _digits_end(text, i):
    """The index after the digits of text that start at i."""
    for _ in range(len(text)):
        if i < len(text) and text[i].isdigit():
            i += 1
        else:
            break
    return i

def fuzz_timeout(name, fuzztime, size, timeout):
    """The timeout (and size) of the fuzzing test: the user's, checked, or the shortest that fits."""
    seconds = parse_fuzztime(name, fuzztime)
    need = (seconds or 0) + _OVERHEAD_SECONDS
    if timeout == None and size != None:
        if size not in _SIZE_TIMEOUT:
            _fail(name, 'size must be one of "small", "medium", "large", "enormous", not %r' % (size,))
        timeout = _SIZE_TIMEOUT[size]
    if timeout != None:
        limit = [s for t, s in _TIMEOUTS if t == timeout]
        if not limit:
            _fail(name, 'timeout must be one of "short", "moderate", "long", "eternal", not %r' % (timeout,))
        if seconds != None and need > limit[0]:
            _fail(name, 'fuzztime = "%s" does not fit timeout "%s" (%ds, and fuzzing needs about %ds more for the baseline and minimization): raise the timeout or shorten fuzztime' % (fuzztime, timeout, limit[0], _OVERHEAD_SECONDS))
        return timeout
    if seconds == None:
        return "long"  # an execution budget: its duration is unknown
    for t, s in _TIMEOUTS:
        if need <= s:
            return t
    _fail(name, 'fuzztime = "%s" is longer than Bazel\'s longest test timeout (eternal, 3600s) allows' % fuzztime)

def _check_args(name, fuzz_args):
    if type(fuzz_args) != "list":
        _fail(name, "fuzz_args must be a list of fuzzbox fuzz flags, not %r" % (fuzz_args,))
    for a in fuzz_args:
        if type(a) != "string" or not a.startswith("-"):
            _fail(name, 'fuzz_args must be fuzzbox fuzz flags such as "-parallel=2", not %r' % (a,))
        flag = a.lstrip("-").split("=", 1)[0]
        if flag.startswith("bazel.") or flag.startswith("test."):
            _fail(name, "fuzz_args must not set %r: the rules set it" % ("-" + flag,))
        if flag in ("fuzz", "fuzztime"):
            _fail(name, "set %s with the %s attribute, not in fuzz_args" % ("-" + flag, flag))

def _with_seed_corpus(data):
    """data plus the package's testdata/fuzz/** files, each once."""
    if type(data) != "list":
        return data  # a select(): the user lists the corpus
    seen = {d.lstrip(":"): True for d in data if type(d) == "string"}
    corpus = native.glob(["testdata/fuzz/**"], allow_empty = True)
    return data + [f for f in corpus if f not in seen]

def _importpaths(name, embed, importpath):
    """Import paths of the internal and external test libraries.

    The internal one inherits the embedded library's (None) unless importpath is given or
    nothing is embedded. The external one is the go command's `<import path>_test` when the
    import path is known at load time (importpath, or an embedded go_library of this package
    declared earlier), else a name unique to this target."""
    internal = importpath
    if not internal and not embed:
        internal = "%s/%s" % (native.package_name(), name)
    known = internal
    if not known and len(embed) == 1 and type(embed[0]) == "string" and embed[0].startswith(":"):
        rule = native.existing_rule(embed[0][1:])
        if rule:
            known = rule.get("importpath")
    external = (known or "%s/%s" % (native.package_name(), name)) + "_test"
    return internal, external

def check_instrument_deps(name, instrument_deps, embed, deps):
    """Whether instrument_deps selects every dependency (True), and the listed ones."""
    if instrument_deps == None or instrument_deps == False or instrument_deps == []:
        return False, []
    if instrument_deps != True and (type(instrument_deps) != "list" or
                                    [d for d in instrument_deps if type(d) != "string" or not d]):
        _fail(name, "instrument_deps must be True (every dependency but fuzzbox's own packages) or a list of go_library labels, not %r" % (instrument_deps,))
    if type(embed) != "list" or len(embed) != 1:
        _fail(name, "instrument_deps needs exactly one library in embed (the package under test), not %r" % (embed,))
    if type(deps) != "list":
        _fail(name, "instrument_deps does not support deps given as a select() yet")
    if instrument_deps == True:
        return True, []
    for i, d in enumerate(instrument_deps):
        if d in embed:
            _fail(name, "instrument_deps must not list %r, the library under test: it is always instrumented" % d)
        if d in instrument_deps[:i]:
            _fail(name, "instrument_deps lists %r twice" % d)
    return False, instrument_deps

def go_fuzz_test(
        name,
        srcs,
        embed = [],
        deps = [],
        data = [],
        corpus = [],
        fuzz = ".",
        fuzztime = "30s",
        fuzz_args = [],
        shard_count = None,
        size = None,
        timeout = None,
        gotags = [],
        instrument_deps = None,
        tags = [],
        visibility = None,
        **kwargs):
    """Declares the Bazel targets of a Go package's fuzz tests.

    `name` is a go_test (every test, and every `f.Add` seed and `testdata/fuzz/FuzzX` file,
    replayed as `go test` does). `name_fuzz` is a test that fuzzes for `fuzztime` with the
    fuzzbox engine and fails when it finds a bug. `name_run` fuzzes under `bazel run` and
    writes reproducers into the source tree. `name_merge` merges the new inputs of
    `name_fuzz`'s shards into the source tree (`bazel run`). `name_bin` is the fuzzing
    binary they run.

    Args:
      name: name of the replay test; the other targets add `_fuzz`, `_run`, `_merge`, `_bin`.
      srcs: the test's Go sources (`*_test.go`, internal and external), as for go_test.
      embed: the go_library under test (as for go_test).
      deps: other Go libraries the tests import.
      data: files the tests read; `testdata/fuzz/**` of the package is added.
      corpus: files or filegroups (`go test fuzz v1`) that `_fuzz` and `_run` start from, besides
        `testdata/fuzz/FuzzX`, e.g. `glob(["testdata/corpus/**"])`: a file under a directory
        named after a fuzz test is for that one, any other for every fuzz test. A file that
        does not parse is skipped with a warning. The replay test does not read them.
      fuzz: regexp of the fuzz tests the `_fuzz` and `_run` targets fuzz (`-fuzz`); default every one.
      fuzztime: fuzzing budget of `_fuzz` and `_run` (`-fuzztime`): `30s`, `5m`, or `Nx` executions.
      fuzz_args: more `fuzzbox fuzz` flags for `_fuzz` and `_run`, such as `["-parallel=2"]`.
      shard_count: shards of `_fuzz`: several fuzz tests are spread over them; a single fuzz
        test runs one independent campaign per shard.
      size: size of `_fuzz`; default: from the timeout.
      timeout: timeout of `_fuzz`; default: the shortest that fits `fuzztime`.
      gotags: build tags for the replay test and the fuzzing binary (which adds `fuzzbox`).
      instrument_deps: also instrument dependencies of the package under test in the fuzzing
        binary (coverage counters and comparison hooks, `-d=libfuzzer`), so that fuzzing is
        guided inside them too: a list of go_library labels (each a dependency of `embed`
        or `deps`), or True for every dependency except fuzzbox's own packages. The
        standard library is never instrumented. Default: only the package under test (and
        its test files). The packages between the package under test and an instrumented
        one are recompiled (uninstrumented) for the fuzzing binary too. Needs exactly one
        library in `embed` and `deps` as a plain list.
      tags: tags of every target (`_run`, `_merge` and `_bin` are also `manual`).
      visibility: visibility of the replay and fuzzing tests.
      **kwargs: other go_test attributes for the replay test (`importpath`, `env`, `x_defs`, ...);
        `env`, `args`, `x_defs`, `embedsrcs`, `gc_goopts` and `gc_linkopts` apply to the
        fuzzing targets too.
    """
    if not srcs:
        _fail(name, "srcs must list the test's _test.go files")
    if not embed and type(srcs) == "list" and all([type(s) == "string" and s.endswith("_test.go") for s in srcs]):
        _fail(name, "embed must name the go_library under test: it is the package the fuzzing binary instruments")
    if type(fuzz) != "string" or not fuzz:
        _fail(name, "fuzz must be a non-empty regexp of fuzz test names, not %r" % (fuzz,))
    _check_args(name, fuzz_args)
    if type(corpus) != "list" and type(corpus) != "select":
        _fail(name, "corpus must be a list of files or filegroups, such as glob([\"testdata/corpus/**\"]), not %r" % (corpus,))
    if shard_count != None and (type(shard_count) != "int" or shard_count < 1):
        _fail(name, "shard_count must be a positive integer, not %r" % (shard_count,))
    for unsupported, default in _UNSUPPORTED.items():
        if kwargs.get(unsupported) not in (None, "auto", default):
            _fail(name, "%s is not supported by fuzzing targets yet; declare a plain go_test for it" % unsupported)
    instrument_all, instrument_list = check_instrument_deps(name, instrument_deps, embed, deps)
    fuzz_timeout_value = fuzz_timeout(name, fuzztime, size, timeout)
    data = _with_seed_corpus(data)
    testonly = kwargs.pop("testonly", True)
    internal_importpath, external_importpath = _importpaths(name, embed, kwargs.get("importpath"))

    go_test(
        name = name,
        srcs = srcs,
        embed = embed,
        deps = deps,
        data = data,
        gotags = gotags,
        tags = tags,
        visibility = visibility,
        **kwargs
    )

    hidden = tags + ["manual"]
    go_fuzz_test_split(name = name + "_split", srcs = srcs, tags = hidden, testonly = testonly, visibility = ["//visibility:private"])
    native.filegroup(name = name + "_internal_srcs", srcs = [name + "_split"], output_group = "internal", tags = hidden, testonly = testonly, visibility = ["//visibility:private"])
    native.filegroup(name = name + "_external_srcs", srcs = [name + "_split"], output_group = "external", tags = hidden, testonly = testonly, visibility = ["//visibility:private"])

    # With instrument_deps, the library under test as go_fuzz_instrumented returns it
    # (its dependencies replaced by the recompiled ones), and each test dep likewise.
    internal_embed, linked = embed, {}
    if instrument_all or instrument_list:
        go_fuzz_instrumented(
            name = name + "_instrumented",
            library = embed[0],
            deps = deps,
            instrument = instrument_list,
            all = instrument_all,
            testonly = testonly,
            tags = hidden,
            visibility = ["//visibility:private"],
        )
        internal_embed = [name + "_instrumented"]
        for i, d in enumerate(deps):
            linked[d] = "%s_dep%d" % (name, i)
            go_fuzz_instrumented_dep(
                name = linked[d],
                dep = d,
                instrumented = name + "_instrumented",
                testonly = testonly,
                tags = hidden,
                visibility = ["//visibility:private"],
            )

    # The package under test with its own test files, instrumented like cmd/go does
    # for the package it fuzzes. Its import path is the embedded library's (or importpath).
    go_library(
        name = name + "_internal",
        srcs = [name + "_internal_srcs"],
        embed = internal_embed,
        deps = [linked[d] for d in deps] if linked else deps,
        importpath = internal_importpath,
        # The replay test's link-time defines: a key without a package is this package's, as in go_test.
        x_defs = kwargs.get("x_defs", {}),
        # Files the test files' //go:embed directives name.
        embedsrcs = kwargs.get("embedsrcs", []),
        # The replay test's compiler flags, and the instrumentation.
        gc_goopts = kwargs.get("gc_goopts", []) + ["-d=libfuzzer"],
        testonly = testonly,
        tags = hidden,
        visibility = ["//visibility:private"],
    )
    go_library(
        name = name + "_external",
        srcs = [name + "_external_srcs"],
        importpath = external_importpath,
        x_defs = kwargs.get("x_defs", {}),
        embedsrcs = kwargs.get("embedsrcs", []),
        # Instrumented too: the package's small functions are inlined into it.
        gc_goopts = kwargs.get("gc_goopts", []) + ["-d=libfuzzer"],
        deps = [name + "_internal"] + [linked.get(d, d) for d in deps if d not in embed],
        testonly = testonly,
        tags = hidden,
        visibility = ["//visibility:private"],
    )
    go_fuzz_testmain(
        name = name + "_testmain",
        srcs = srcs,
        internal = name + "_internal",
        external = name + "_external",
        testonly = testonly,
        tags = hidden,
        visibility = ["//visibility:private"],
    )
    # The two as the binary links them: deps that import the package under test
    # (a test-suite package beside it) compiled again against _internal.
    go_fuzz_test_archives(
        name = name + "_archives",
        internal = name + "_internal",
        external = name + "_external",
        testonly = testonly,
        tags = hidden,
        visibility = ["//visibility:private"],
    )
    for which in ("internal", "external"):
        go_fuzz_test_archive(
            name = "%s_%s_linked" % (name, which),
            archives = name + "_archives",
            which = which,
            testonly = testonly,
            tags = hidden,
            visibility = ["//visibility:private"],
        )
    go_binary(
        name = name + "_bin",
        srcs = [name + "_testmain"],
        deps = [
            name + "_internal_linked",
            name + "_external_linked",
            Label("//engine/fuzzmain"),
        ],
        gotags = gotags + ["fuzzbox"],
        # The replay test's linker flags.
        gc_linkopts = kwargs.get("gc_linkopts", []),
        testonly = testonly,
        tags = hidden,
        visibility = visibility,
    )
    runner = dict(
        binary = name + "_bin",
        stock = name,
        testmain = name + "_testmain",
        # The package's Go files: the driver's dictionary of their literals.
        data = data + [f for f in native.glob(["*.go"], allow_empty = True) if f not in data],
        fuzz = fuzz,
        fuzztime = fuzztime,
        fuzz_args = fuzz_args,
        corpus = corpus,
        # The replay test's environment: the fuzzing binary and the replay of failures run in it too.
        env = kwargs.get("env", {}),
        test_args = kwargs.get("args", []),
        testonly = testonly,
    )
    go_fuzz_runner_test(
        name = name + "_fuzz",
        shard_count = shard_count,
        size = size,
        timeout = fuzz_timeout_value,
        tags = tags,
        visibility = visibility,
        **runner
    )
    go_fuzz_runner(name = name + "_run", tags = hidden, visibility = visibility, **runner)
    go_fuzz_merge(name = name + "_merge", test = name + "_fuzz", tags = hidden, visibility = visibility, **runner)
