"""Build-time rules: split a go_fuzz_test's sources and write its fuzzing test main.

rules_go compiles a test's internal and external packages and generates its test main
inside go_test, with private APIs. The fuzzing binary is built from public rules
instead: go_fuzz_test_split copies the sources into two groups that two go_library
targets compile, and go_fuzz_testmain writes a test main that starts the fuzzbox
engine (fuzzmain.MainStart), which a go_binary links. Both run
//rules/private/gentestmain.
"""

load("@io_bazel_rules_go//go:def.bzl", "GoArchive")
load(":providers.bzl", "GoFuzzInfo")

def _split_impl(ctx):
    internal, external, args = [], [], ctx.actions.args()
    # In the package's own output directory, not below it: rules_go refuses a //go:embed in a
    # source file in a subdirectory of another source's (the package's library is embedded).
    for src in ctx.files.srcs:
        internal.append(ctx.actions.declare_file("%s.internal.%s" % (ctx.label.name, src.basename)))
        external.append(ctx.actions.declare_file("%s.external.%s" % (ctx.label.name, src.basename)))
    if not internal:
        fail("%s: no sources" % ctx.label)
    args.add("-mode", "split")
    args.add("-internal", internal[0].path[:-len(ctx.files.srcs[0].basename)])
    args.add("-external", external[0].path[:-len(ctx.files.srcs[0].basename)])
    args.add_all(ctx.files.srcs)
    ctx.actions.run(
        executable = ctx.executable._gentestmain,
        arguments = [args],
        inputs = ctx.files.srcs,
        outputs = internal + external,
        mnemonic = "GoFuzzSplit",
        progress_message = "Splitting the tests of %s" % ctx.label,
    )
    return [
        DefaultInfo(files = depset(internal + external)),
        OutputGroupInfo(internal = depset(internal), external = depset(external)),
    ]

go_fuzz_test_split = rule(
    implementation = _split_impl,
    doc = """Copies a go_fuzz_test's sources into the package's own test files (output group
`internal`) and its external, `package x_test`, files (output group `external`). Each source
appears in both groups; in the group it does not belong to, its copy is a file that build
constraints exclude.""",
    attrs = {
        "srcs": attr.label_list(
            allow_files = [".go"],
            mandatory = True,
            doc = "The test's Go sources, as given to go_fuzz_test.",
        ),
        "_gentestmain": attr.label(
            default = Label("//rules/private/gentestmain"),
            executable = True,
            cfg = "exec",
            doc = "The tool that splits the sources and writes the test main.",
        ),
    },
)

def _testmain_impl(ctx):
    internal = ctx.attr.internal[GoArchive].data.importpath
    external = ctx.attr.external[GoArchive].data.importpath
    out = ctx.actions.declare_file(ctx.label.name + "/testmain.go")
    args = ctx.actions.args()
    args.add("-mode", "testmain")
    args.add("-importpath", internal)
    args.add("-ximportpath", external)
    args.add("-o", out)
    args.add_all(ctx.files.srcs)
    ctx.actions.run(
        executable = ctx.executable._gentestmain,
        arguments = [args],
        inputs = ctx.files.srcs,
        outputs = [out],
        mnemonic = "GoFuzzTestmain",
        progress_message = "Writing the fuzzing test main of %s" % ctx.label,
    )
    pkg = ctx.label.package
    if ctx.label.workspace_root:
        # external/repo -> ../repo, the repository's directory in runfiles.
        runfiles_dir = "../" + ctx.label.workspace_root.split("/", 1)[1]
        package_dir = runfiles_dir + ("/" + pkg if pkg else "")
    else:
        package_dir = pkg or "."
    return [
        DefaultInfo(files = depset([out])),
        GoFuzzInfo(importpath = internal, package_dir = package_dir, package = pkg or "."),
    ]

go_fuzz_testmain = rule(
    implementation = _testmain_impl,
    doc = """Writes the test main of a fuzzing binary: the go command's test main for the
given sources (tests, benchmarks, fuzz tests, examples, TestMain), calling
fuzzmain.MainStart instead of testing.MainStart with testing/internal/testdeps.
Returns GoFuzzInfo.""",
    attrs = {
        "srcs": attr.label_list(
            allow_files = [".go"],
            mandatory = True,
            doc = "The test's Go sources, as given to go_fuzz_test (scanned for Test, Fuzz, Benchmark and Example functions).",
        ),
        "internal": attr.label(
            mandatory = True,
            providers = [GoArchive],
            doc = "The go_library of the package under test with its own test files; its import path is the one the test main imports.",
        ),
        "external": attr.label(
            mandatory = True,
            providers = [GoArchive],
            doc = "The go_library of the external (`package x_test`) test files.",
        ),
        "_gentestmain": attr.label(
            default = Label("//rules/private/gentestmain"),
            executable = True,
            cfg = "exec",
            doc = "The tool that splits the sources and writes the test main.",
        ),
    },
)
