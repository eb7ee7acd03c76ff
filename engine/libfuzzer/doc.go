// Package libfuzzer turns a Go fuzz test into a libFuzzer-compatible fuzz
// target: it defines LLVMFuzzerInitialize and LLVMFuzzerTestOneInput (in C,
// shim.go), so the archive "fuzzbox build -libfuzzer" builds from a test
// package links with clang -fsanitize=fuzzer into a binary that OSS-Fuzz and
// ClusterFuzzLite run, or with AFL++'s libFuzzer driver.
//
// It is linked into those binaries only: driver/build's libFuzzer mode adds
// an external test file whose FuzzboxMainStart calls MainStart, and the test
// main rewrite of "fuzzbox toolexec" calls that. Nothing else imports it. It
// imports only the standard library, cgo and corpus (deps_test.go).
//
// The binary is a c-archive: the C engine owns main. On the first call from
// the engine, the package runs the binary again as a child process whose
// test main (main.main) runs with testing flags that make it a fuzzing
// coordinator: its CoordinateFuzzing hands over the fuzz function's argument
// types (and the seed corpus, the f.Add seeds and testdata/fuzz/FuzzX read
// from the current directory), which the child writes to a file. This
// process then runs its test main as a fuzzing worker, whose RunFuzzWorker
// hands over the function that runs one input through testing (so t.Fatal,
// t.Error and panics fail the input, as with go test): the fuzz test's code
// before f.Fuzz runs once here, as in each of go test -fuzz's processes.
// The engine's thread posts each input to a goroutine that runs it
// (handoff.go), so that testing's goroutine for the input runs on that
// goroutine's thread instead of waking another one. Each input is decoded
// with corpus.DecodeLibFuzzer (the fuzzbox-libfuzzer-v1
// encoding) and run through that function; a failing input prints testing's
// report and aborts, which the engine records as a crash. An input that runs
// for nine tenths of libFuzzer's -timeout gets every goroutine's stack
// printed (hang.go): libFuzzer's own report has only its thread's C stack.
//
// Coverage and comparison guidance come from the Go toolchain: the target is
// compiled with -d=libfuzzer (edge counters in the __sancov_cntrs section)
// and the "libfuzzer" build tag, under which the runtime registers the
// counters with __sanitizer_cov_8bit_counters_init and forwards the
// compiler's comparison hooks to __sanitizer_cov_trace_cmp* and
// __sanitizer_weak_hook_strcmp (runtime/libfuzzer.go); fuzzbox build
// compiles the runtime with the integer comparisons going through a filter
// (driver/build/cmpfilter.go) that skips those whose value-profile features
// the input has already set, per a copy of them that shim.go keeps and
// clears before each input. For an engine that
// does not define the counter callbacks (AFL++), shim.go defines them
// weakly and adds the counters to AFL++'s map after each input.
//
// Environment: FUZZBOX_LIBFUZZER_SEEDS=DIR makes the binary write its seed
// corpus, encoded, into DIR and exit instead of fuzzing (driver/build uses it
// for FuzzX_seed_corpus.zip); FUZZBOX_LIBFUZZER_SETUP_ONLY=1 makes it set up
// and exit (driver/build runs it so away from the package directory, to warn
// of a fuzz test that opens files relative to it);
// FUZZBOX_LIBFUZZER_CMPFILTER=0 turns the comparison filter off. The fuzz test a binary runs is the one its link
// step named (the C symbol fuzzbox_libfuzzer_target); without one, the
// binary's base name.
package libfuzzer
