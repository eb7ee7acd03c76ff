"""The fuzzing binary's two test packages, with the test's deps that import the package under test.

A test's deps may import the package under test themselves: a test-suite or helper package
beside it (go-toml's and BurntSushi/toml's test suites, a `footest` package of fixtures),
which the external test files (`package foo_test`) use. The fuzzing binary links the
package under test as the test's own `_internal` library (its sources and the internal test
files), so the original library such a dep brings along would be a second copy of the
same package: rules_go's link fails with "package conflict error: ... multiple copies of
package passed to linker". The go command and rules_go's go_test recompile those deps
against the package with its test files (rules_go: `_recompile_external_deps`); so does
go_fuzz_test_archives, with the same public Go context API as instrument.bzl:

- It walks the external test library's dependency graph (`GoArchive.direct`) and finds the
  packages that import the package under test, directly or not (`importers`).
- If there are none, both test libraries are linked as they are.
- Otherwise the internal library is compiled again without those deps (its test files
  cannot import them: that is an import cycle under go test too), each of them again
  against it, deepest first, and the external library against the new archives.

go_fuzz_test_archive hands one of the two to the fuzzing binary.
"""

load("@io_bazel_rules_go//go:def.bzl", "GoArchive", "go_context")
load(":instrument.bzl", "CGO_ATTRS", "CGO_FRAGMENTS", "CGO_TOOLCHAINS", "info_providers", "postorder", "recompiled_source")

FuzzTestArchivesInfo = provider(
    doc = "The fuzzing binary's test libraries as it links them (go_fuzz_test_archives).",
    fields = {
        "internal": "GoArchive: the package under test with its internal test files.",
        "external": "GoArchive: the external (`package x_test`) test files.",
        "relinked": "list of string: import paths of the deps compiled again against the internal library.",
    },
)

def importers(order, key):
    """The import maps of the archives in order (postorder: each after its dependencies)
    that import the package of import map key, directly or through others; key's own
    archives are left out."""
    found = {}
    for archive in order:
        k = archive.data.importmap
        if k == key:
            continue
        for d in archive.direct:
            if d.data.importmap == key or d.data.importmap in found:
                found[k] = True
                break
    return found

def _archives_impl(ctx):
    internal = ctx.attr.internal[GoArchive]
    external = ctx.attr.external[GoArchive]
    key = internal.data.importmap
    order = postorder([d for d in external.direct if d.data.importmap != key] + list(internal.direct))
    need = importers(order, key)
    if not need:
        return [FuzzTestArchivesInfo(internal = internal, external = external, relinked = [])]
    go = go_context(ctx)
    new = {}
    new[key] = go.archive(go, recompiled_source(ctx, internal, [d for d in internal.direct if d.data.importmap not in need], False))
    relinked = []
    for archive in order:
        k = archive.data.importmap
        if k not in need:
            continue
        new[k] = go.archive(go, recompiled_source(ctx, archive, [new.get(d.data.importmap, d) for d in archive.direct], False))
        relinked.append(archive.data.importpath)
    external = go.archive(go, recompiled_source(ctx, external, [new.get(d.data.importmap, d) for d in external.direct], False))
    return [FuzzTestArchivesInfo(internal = new[key], external = external, relinked = relinked)]

go_fuzz_test_archives = rule(
    implementation = _archives_impl,
    doc = """The fuzzing binary's internal and external test libraries, with the deps that import
the package under test compiled again against the internal one (FuzzTestArchivesInfo).""",
    attrs = dict({
        "internal": attr.label(
            mandatory = True,
            providers = [GoArchive],
            doc = "The go_library of the package under test with its internal test files.",
        ),
        "external": attr.label(
            mandatory = True,
            providers = [GoArchive],
            doc = "The go_library of the external test files; its deps include internal.",
        ),
        "_go_context_data": attr.label(default = "@io_bazel_rules_go//:go_context_data"),
    }, **CGO_ATTRS),
    toolchains = ["@io_bazel_rules_go//go:toolchain"] + CGO_TOOLCHAINS,
    fragments = CGO_FRAGMENTS,
)

def _archive_impl(ctx):
    archives = ctx.attr.archives[FuzzTestArchivesInfo]
    archive = archives.internal if ctx.attr.which == "internal" else archives.external
    return info_providers(archive.source) + [archive]

go_fuzz_test_archive = rule(
    implementation = _archive_impl,
    doc = "One of go_fuzz_test_archives' two test libraries, as a dependency of the fuzzing binary.",
    attrs = {
        "archives": attr.label(
            mandatory = True,
            providers = [FuzzTestArchivesInfo],
            doc = "The go_fuzz_test_archives target.",
        ),
        "which": attr.string(
            mandatory = True,
            values = ["internal", "external"],
            doc = "Which of the two.",
        ),
    },
)
