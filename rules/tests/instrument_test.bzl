"""Unit tests of instrument_deps and relinking: the dependency walks of go_fuzz_instrumented and
go_fuzz_test_archives, and the macro's argument check.

The argument check's failures run when a BUILD file loads; .ci/bazel.sh checks their exact messages. The
recompilation itself needs real Go archives: .ci/bazel.sh checks it on examples/bazel/magic and
examples/bazel/suite."""

load("@bazel_skylib//lib:unittest.bzl", "asserts", "unittest")
load("//rules/private:fuzz_test.bzl", "check_instrument_deps")
load("//rules/private:instrument.bzl", "postorder")
load("//rules/private:relink.bzl", "importers")

def _archive(importmap, direct = []):
    """A stand-in for a GoArchive: the two fields postorder reads."""
    return struct(data = struct(importmap = importmap), direct = direct)

def _importmaps(archives):
    return [x.data.importmap for x in archives]

def _postorder_test_impl(ctx):
    env = unittest.begin(ctx)
    d = _archive("d")
    b = _archive("b", [d])
    c = _archive("c", [d])
    a = _archive("a", [b, c])
    names = _importmaps

    # A diamond: every package after its dependencies, the shared one once.
    asserts.equals(env, ["d", "b", "c", "a"], names(postorder([a])))

    # Several roots sharing dependencies (the library's deps and the test's deps).
    asserts.equals(env, ["d", "b", "c"], names(postorder([b, c, d])))

    # A deeper chain below the diamond.
    e = _archive("e")
    d2 = _archive("d", [e])
    asserts.equals(env, ["e", "d", "b"], names(postorder([_archive("b", [d2])])))
    asserts.equals(env, [], names(postorder([])))
    return unittest.end(env)

postorder_test = unittest.make(_postorder_test_impl)

def _importers_test_impl(ctx):
    env = unittest.begin(ctx)

    # lib is the package under test; suite imports it, fixtures imports suite, util
    # imports neither, and other imports util only.
    util = _archive("util")
    lib = _archive("lib", [util])
    suite = _archive("suite", [lib, util])
    fixtures = _archive("fixtures", [suite])
    other = _archive("other", [util])
    order = postorder([fixtures, other, lib])
    asserts.equals(env, {"suite": True, "fixtures": True}, importers(order, "lib"))

    # Nothing imports it: nothing to compile again.
    asserts.equals(env, {}, importers(postorder([other, lib]), "lib"))
    return unittest.end(env)

importers_test = unittest.make(_importers_test_impl)

def _check_instrument_deps_test_impl(ctx):
    env = unittest.begin(ctx)
    for value, want in [
        (None, (False, [])),
        (False, (False, [])),
        ([], (False, [])),
        (True, (True, [])),
        (["//a/dep", ":other"], (False, ["//a/dep", ":other"])),
    ]:
        asserts.equals(env, want, check_instrument_deps("t", value, [":lib"], ["//a/dep"]), "check_instrument_deps(%r)" % (value,))
    return unittest.end(env)

check_instrument_deps_test = unittest.make(_check_instrument_deps_test_impl)

def instrument_test_suite(name):
    """Declares the tests of this file as one test suite.

    Args:
      name: name of the test_suite.
    """
    unittest.suite(name, postorder_test, importers_test, check_instrument_deps_test)
