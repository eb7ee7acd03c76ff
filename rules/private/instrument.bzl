"""Opt-in instrumentation of the dependencies of a go_fuzz_test's package under test.

cmd/go compiles every package of a fuzzing binary with `-d=libfuzzer` (but a few of the
standard library's). rules_go has no per-package way to do that: its global
`//go/config:gc_goopts` setting would instrument the whole standard library and fuzzbox's
own runtime packages too. So go_fuzz_instrumented recompiles the selected dependencies
itself, with rules_go's public Go context API (`go_context`, `go.archive`, the
`GoArchive` provider's `source`, `data` and `direct` fields), which rules_go 0.34 and
current releases both have:

- It walks the dependency graph of the library under test and the test's own deps
  (`GoArchive.direct`), deepest first.
- A selected package is recompiled from its own sources (`GoArchive.source`) with
  `-d=libfuzzer` added to its `gc_goopts`. A package that is not selected but imports a
  recompiled one is recompiled unchanged against the new archives: its GoArchive's
  transitive set would otherwise bring the original dependency to the link beside the
  copy ("package conflict"), and only go.archive makes a GoArchive through public API.
  Every other package keeps its archive.
- It returns the library under test with its dependencies replaced (for the
  `_internal` go_library to embed; go_library lets an embedding library's deps override
  the embedded library's, and a struct GoArchive is a valid dep in both versions) and
  the new archives by import map, which go_fuzz_instrumented_dep hands to the test's
  other libraries.

The fuzzing binary thus links one copy of each package, instrumented or not.
"""

load("@io_bazel_rules_go//go:def.bzl", "GoArchive", "GoLibrary", "GoSource", "go_context")

FuzzInstrumentedDepsInfo = provider(
    doc = "What go_fuzz_instrumented recompiled, for go_fuzz_instrumented_dep.",
    fields = {
        "archives": "dict: import map -> GoArchive, every package it recompiled (instrumented or only rebuilt against instrumented ones).",
        "instrumented": "list of string: import paths of the packages compiled with `-d=libfuzzer`.",
    },
)

_LIBFUZZER = "-d=libfuzzer"

def _repo(label):
    return label.repo_name if hasattr(label, "repo_name") else label.workspace_name

# The repository of these rules: fuzzbox's own packages (engine/instrument defines the
# comparison hooks, which must not call themselves) are never instrumented.
_FUZZBOX_REPO = _repo(Label("//rules:defs.bzl"))

# rules_go >= 0.50 merged GoLibrary and GoSource into GoInfo (def.bzl keeps both names).
_ONE_INFO = GoLibrary == GoSource

# What go_context needs to compile in the same mode (cgo or pure) as go_library. rules_go
# 0.34 takes the C/C++ configuration from _go_context_data. Current releases take it
# from the rule itself: these are the attributes, toolchain and fragments that their
# go_rule() adds (not loaded from there: rules_go 0.34 has no go_rule).
CGO_ATTRS = {
    "_xcode_config": attr.label(default = configuration_field(fragment = "apple", name = "xcode_config_label")),
    "_pure_flag": attr.label(default = "@io_bazel_rules_go//go/config:pure"),
    "_pure_constraint": attr.label(default = "@io_bazel_rules_go//go/toolchain:cgo_off"),
} if _ONE_INFO else {}
CGO_TOOLCHAINS = [
    config_common.toolchain_type("@bazel_tools//tools/cpp:toolchain_type", mandatory = False),
] if _ONE_INFO else []
CGO_FRAGMENTS = ["apple", "cpp"] if _ONE_INFO else []

def _copy(value, constructor, **changes):
    """A copy of provider instance value, made with constructor, with some fields changed."""
    fields = {k: getattr(value, k) for k in dir(value) if k not in ("to_json", "to_proto")}
    fields.update(changes)
    return constructor(**fields)

def info_providers(source):
    """The providers that make a target usable as a go_library dep or embed."""
    if _ONE_INFO:
        return [source]
    return [source.library, source]

def postorder(roots):
    """The archives reachable from roots through GoArchive.direct, each once (by import
    map), every archive after its dependencies."""
    order, seen = [], {}
    stack = [(a, False) for a in reversed(roots)]

    # Starlark has no while loop: each archive is pushed at most once per importer, plus
    # once expanded, so this bound is never reached on a finite graph.
    for _ in range(1 << 30):
        if not stack:
            break
        archive, expanded = stack.pop()
        key = archive.data.importmap
        if expanded:
            order.append(archive)
            continue
        if key in seen:
            continue
        seen[key] = True
        stack.append((archive, True))
        for dep in reversed(archive.direct):
            if dep.data.importmap not in seen:
                stack.append((dep, False))
    return order

def recompiled_source(ctx, archive, deps, instrument):
    """archive's source with deps replaced and, if instrument, -d=libfuzzer; its outputs
    are named after its import map under this target, so they collide with nothing."""
    source = archive.source
    gc_goopts = list(source.gc_goopts)
    if instrument and _LIBFUZZER not in gc_goopts:
        gc_goopts.append(_LIBFUZZER)
    name = "%s/%s" % (ctx.label.name, archive.data.importmap)
    if hasattr(source, "library"):  # rules_go < 0.50: the name is the GoLibrary's
        return _copy(source, GoSource, deps = deps, gc_goopts = gc_goopts, library = _copy(source.library, GoLibrary, name = name))
    return _copy(source, GoSource, deps = deps, gc_goopts = gc_goopts, name = name)

def _instrumented_impl(ctx):
    go = go_context(ctx)
    lib = ctx.attr.library[GoArchive]
    selected = {}
    for t in ctx.attr.instrument:
        selected[t[GoArchive].data.importmap] = t.label
    if lib.data.importmap in selected:
        fail("%s: instrument_deps lists %s, the library under test; it is always instrumented" % (ctx.label, selected[lib.data.importmap]))
    order = postorder(list(lib.direct) + [d[GoArchive] for d in ctx.attr.deps])
    reachable = {a.data.importmap: True for a in order}
    for importmap, label in selected.items():
        if importmap not in reachable:
            fail("%s: instrument_deps lists %s, which is not a dependency of the library under test or of the test's deps" % (ctx.label, label))
    new, instrumented = {}, []
    for archive in order:
        key = archive.data.importmap
        # A dependency that imports the library under test links the test's
        # own copy of it (relink.bzl), never a recompiled original.
        pick = key in selected or (ctx.attr.all and _repo(archive.data.label) != _FUZZBOX_REPO and key != lib.data.importmap)
        if not pick and not [d for d in archive.direct if d.data.importmap in new]:
            continue
        deps = [new.get(d.data.importmap, d) for d in archive.direct]
        new[key] = go.archive(go, recompiled_source(ctx, archive, deps, pick))
        if pick:
            instrumented.append(archive.data.importpath)
    source = _copy(lib.source, GoSource, deps = [new.get(d.data.importmap, d) for d in lib.direct])
    return info_providers(source) + [
        FuzzInstrumentedDepsInfo(archives = new, instrumented = instrumented),
        DefaultInfo(files = depset([a.data.file for a in new.values()])),
        OutputGroupInfo(instrumented = depset([new[k].data.file for k in new if new[k].data.importpath in instrumented])),
    ]

go_fuzz_instrumented = rule(
    implementation = _instrumented_impl,
    doc = """The library under test of a go_fuzz_test with some of its dependencies (and of the
test's deps) recompiled with `-d=libfuzzer`. Returns the library's GoLibrary/GoSource
(GoInfo on rules_go >= 0.50) with its dependencies replaced, to be embedded by the
package under test, and FuzzInstrumentedDepsInfo. Its default outputs are the recompiled
archives; output group `instrumented` holds the instrumented ones.""",
    attrs = dict({
        "library": attr.label(
            mandatory = True,
            providers = [GoArchive],
            doc = "The go_library under test (go_fuzz_test's embed; not named embed: go_context reads that as a list).",
        ),
        "deps": attr.label_list(
            providers = [GoArchive],
            doc = "The test's other libraries (go_fuzz_test's deps): their dependencies are candidates too.",
        ),
        "instrument": attr.label_list(
            providers = [GoArchive],
            doc = "The go_library targets to instrument; each must be a dependency of library or deps.",
        ),
        "all": attr.bool(
            doc = "Instrument every dependency but fuzzbox's own packages (the standard library is never recompiled).",
        ),
        "_go_context_data": attr.label(default = "@io_bazel_rules_go//:go_context_data"),
    }, **CGO_ATTRS),
    toolchains = ["@io_bazel_rules_go//go:toolchain"] + CGO_TOOLCHAINS,
    fragments = CGO_FRAGMENTS,
)

def _dep_impl(ctx):
    dep = ctx.attr.dep
    archive = ctx.attr.instrumented[FuzzInstrumentedDepsInfo].archives.get(dep[GoArchive].data.importmap)
    source = dep[GoSource]
    return info_providers(source) + [archive or dep[GoArchive]]

go_fuzz_instrumented_dep = rule(
    implementation = _dep_impl,
    doc = """One of a go_fuzz_test's deps as the fuzzing binary links it: its archive recompiled
by go_fuzz_instrumented when that recompiled it, else its own.""",
    attrs = {
        "dep": attr.label(
            mandatory = True,
            providers = [GoArchive],
            doc = "The library (one of go_fuzz_test's deps).",
        ),
        "instrumented": attr.label(
            mandatory = True,
            providers = [FuzzInstrumentedDepsInfo],
            doc = "The go_fuzz_instrumented target of the same go_fuzz_test.",
        ),
    },
)
