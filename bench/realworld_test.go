package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSignature(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":           "module x\n",
		"a/doc.go":         "// Package a.\n//\n// Signature: jsonparser\\.searchKeys\npackage a\n",
		"a/a_test.go":      "package a\nfunc FuzzA(f *testing.F) {}\n",
		"b/doc.go":         "// Signature: kind=(hang|oom)|out of memory\npackage b\n",
		"b/b_test.go":      "package b\nfunc FuzzB(f *testing.F) {}\n",
		"c/c_test.go":      "// Signature: in a test file, ignored\npackage c\nfunc FuzzC(f *testing.F) {}\n",
		"d/doc.go":         "// Signature: (\npackage d\n",
		"d/d_test.go":      "package d\nfunc FuzzD(f *testing.F) {}\n",
		"verify/v_test.go": "package verify\nfunc TestV(t *testing.T) {}\n",
	})
	ts, err := findTargets(root, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := ts[0], ts[1], ts[2]
	tests := []struct {
		t          target
		kind, text string
		want       bool
	}{
		{a, "panic", "panic: runtime error: slice bounds out of range [1:0]\ngithub.com/buger/jsonparser.searchKeys(...)", true},
		{a, "panic", "panic: runtime error\ngithub.com/buger/jsonparser.Delete(...)", false},
		{a, "crash", "==1== ERROR: libFuzzer: deadly signal", false},
		{b, "hang", "", true},
		{b, "fatal", "fatal error: runtime: out of memory", true},
		{b, "panic", "panic: index out of range", false},
		{c, "fail", "anything", true}, // no signature: any failure is the bug
	}
	for _, tt := range tests {
		if got := tt.t.isKnownBug(tt.kind, tt.text); got != tt.want {
			t.Errorf("%s.isKnownBug(%q, %q) = %v, want %v", tt.t.name, tt.kind, tt.text, got, tt.want)
		}
	}
	if _, err := findTargets(root, []string{"d"}); err == nil {
		t.Error("findTargets accepted a signature that is not a regular expression")
	}
	if _, err := findTargets(root, []string{"verify"}); err == nil {
		t.Error("findTargets took a package without a Fuzz function for a target")
	}
}

func TestOtherFailuresAndTable(t *testing.T) {
	results := []runResult{
		{Target: "a", Engine: engineFuzzbox, Found: true, Failed: true, TTF: 2, ExecsToFailure: 1000, ExecsPerSec: 500, FuzzS: 2, Kind: "panic"},
		{Target: "a", Engine: engineFuzzbox, Found: true, Failed: true, TTF: 4, ExecsToFailure: 3000, ExecsPerSec: 700, FuzzS: 4, Kind: "panic"},
		{Target: "a", Engine: engineGo118, Failed: true, TTF: 1, Kind: "crash", Message: "panic: other | bug", ExecsPerSec: 900, FuzzS: 1},
		{Target: "a", Engine: engineGo118, Found: true, Failed: true, TTF: 8, ExecsToFailure: 8000, ExecsPerSec: 1000, FuzzS: 8, Kind: "crash"},
	}
	f, g := summarize(results, "a", engineFuzzbox), summarize(results, "a", engineGo118)
	if f.found != 2 || f.medianTTF != 3 || f.medianExecs != 2000 || f.other != 0 {
		t.Errorf("fuzzbox summary = %+v, want 2 found, TTF 3, 2000 execs", f)
	}
	if g.found != 1 || g.other != 1 || g.medianTTF != 8 || !strings.Contains(g.otherMsg, "other") {
		t.Errorf("go118 summary = %+v, want 1 found, 1 other failure, TTF 8", g)
	}
	var buf bytes.Buffer
	cfg := config{set: "realworld", engines: []string{engineFuzzbox, engineGo118}, fuzztime: 30 * time.Second, parallel: 1, runs: 2}
	printTable(&buf, cfg, []target{{name: "a"}}, results)
	out := buf.String()
	for _, want := range []string{
		"fuzzbox found | libFuzzer (OSS-Fuzz build) found",
		"| a | 2/2 | 1/2 | 3.0s | 8.0s | 2000 | 8000 | 600 | 1000 | 0.38 | 0.60 |",
		"libFuzzer (OSS-Fuzz build): 1 (crash: panic: other / bug)",
		"known bugs found in total: fuzzbox 2, libFuzzer (OSS-Fuzz build) 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestInstancesTable: a table with N instances of one worker has the
// corpus-in-0.3-s columns, a dash where an engine did not measure it.
func TestInstancesTable(t *testing.T) {
	results := []runResult{
		{Target: "a", Engine: engineFuzzbox, Found: true, TTF: 1, Early: 200},
		{Target: "a", Engine: engineFuzzbox, Found: true, TTF: 2, Early: 100},
		{Target: "a", Engine: engineFuzzboxSync, Found: true, TTF: 3, Early: 120},
		{Target: "a", Engine: engineNative, Found: true, TTF: 4},
	}
	var buf bytes.Buffer
	cfg := config{set: "planted", engines: []string{engineFuzzbox, engineFuzzboxSync, engineNative}, fuzztime: time.Second, parallel: 2, runs: 2}
	printTable(&buf, cfg, []target{{name: "a"}}, results)
	out := buf.String()
	for _, want := range []string{"fuzzbox N×1 synced corpus in 0.3 s", "| 150 | 120 | — |", "Corpus in 0.3 s: the inputs"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestParseEngines(t *testing.T) {
	cfg, err := parseFlags([]string{"-set=realworld", "-engines=all"}, new(bytes.Buffer))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cfg.engines, ",") != "fuzzbox,native,go118" || cfg.parallel != 1 {
		t.Errorf("-engines=all: engines %v, parallel %d; want fuzzbox,native,go118 and 1", cfg.engines, cfg.parallel)
	}
	cfg, err = parseFlags([]string{"-libfuzzer"}, new(bytes.Buffer))
	if err != nil || strings.Join(cfg.engines, ",") != "fuzzbox,libfuzzer,go118" || cfg.set != "planted" {
		t.Errorf("-libfuzzer: %+v, %v", cfg, err)
	}
	for _, args := range [][]string{{"-engines=afl"}, {"-set=nope"}, {"-engines=,"}} {
		if _, err := parseFlags(args, new(bytes.Buffer)); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
}

// writeFiles writes files (path relative to root: contents) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRescore(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"bench/realworld/go.mod":      "module x\n",
		"bench/realworld/a/doc.go":    "// Signature: wanted\npackage a\n",
		"bench/realworld/a/a_test.go": "package a\nfunc FuzzA(f *testing.F) {}\n",
	})
	results := `{"set":"realworld","engines":["fuzzbox"],"fuzztime":"30s","parallel":1,"runs":[
{"target":"a","engine":"fuzzbox","run":1,"found":false,"failed":true,"kind":"panic","message":"panic: x","failure_text":"wanted.func1()","ttf_s":2},
{"target":"a","engine":"fuzzbox","run":2,"found":true,"failed":true,"kind":"panic","message":"panic: y","failure_text":"other()","ttf_s":3}]}`
	writeFiles(t, dir, map[string]string{"results.json": results})
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var buf bytes.Buffer
	if err := rescoreResults("results.json", &buf); err != nil {
		t.Fatal(err)
	}
	// Run 1 matches the signature now, run 2 no longer does.
	if !strings.Contains(buf.String(), "| a | 1/2 | 2.0s |") || !strings.Contains(buf.String(), "fuzzbox: 1 (panic: panic: y)") {
		t.Errorf("rescored table:\n%s", buf.String())
	}
}

// TestRealworldSignatures checks the signatures of bench/realworld against
// failure reports in the engines' formats.
func TestRealworldSignatures(t *testing.T) {
	ts, err := findTargets("realworld", nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]target{}
	for _, tg := range ts {
		if tg.signature == nil {
			t.Errorf("%s has no Signature line", tg.name)
		}
		byName[tg.name] = tg
	}
	const nilDeref = "panic: runtime error: invalid memory address or nil pointer dereference\n" +
		"panic({0x6dd3c0?, 0x8ed810?})\n\t/usr/local/go/src/runtime/panic.go:860 +0x13a\n"
	tests := []struct {
		target, kind, text string
		want               bool
	}{
		{"tiffpalette", "panic", "panic: runtime error: index out of range [1] with length 1\nimage.(*Paletted).At(...)", true},
		{"tiffpalette", "panic", nilDeref + "fuzzbox.dev/bench/realworld/tiffpalette.FuzzDecode.func1(0x0?)", true},
		{"tiffpalette", "crash", "panic: runtime error: invalid memory address or nil pointer dereference [recovered]\n" +
			"panic({0x55797c09a8a0?, 0x230fca4a21e0?})\nruntime/panic.go:860 +0x13a\n" +
			"fuzzbox.dev/bench/realworld/tiffpalette.FuzzDecode.func1()", true}, // go-118's trimmed paths
		{"tiffpalette", "panic", nilDeref + "golang.org/x/image/tiff.(*decoder).decode(...)\n\tx.go:1\nfuzzbox.dev/bench/realworld/tiffpalette.FuzzDecode.func1()", false},
		{"tiffpalette", "oom", "==1== ERROR: libFuzzer: out-of-memory (used: 2370Mb; limit: 2048Mb)", false},
		{"dnsrr", "panic", "panic: runtime error: index out of range [2048] with length 2048\n\ngoroutine 1\ngithub.com/miekg/dns.(*zlexer).Next(0x1)", true},
		{"dnsrr", "hang", "", false},
		{"langtag", "panic", "internal/language.Tag.findTypeForKey(...)", true},
		{"langtag", "panic", "internal/language.(*scanner).resizeRange(...)", false},
		{"utf16", "oom", "", true},
		{"utf16", "fatal", "fatal error: runtime: out of memory", true},
		{"hzgb2312", "hang", "", true},
		{"gjsonget", "panic", "github.com/tidwall/gjson.squash(...)", true},
		{"gjsonget", "panic", "github.com/tidwall/gjson.parseArray(...)", false},
		{"jqrun", "panic", "panic: runtime error: index out of range [-1]\n\ngoroutine 7\ngithub.com/itchyny/gojq.(*stack).pop(...)\n\tstack.go:56\ngithub.com/itchyny/gojq.(*env).Next(0xc0001)", true},
		{"jqrun", "panic", "panic: runtime error: index out of range [3] with length 3\ngithub.com/itchyny/gojq.(*env).Next(0xc0001)", false},
		{"jqrun", "panic", "panic: runtime error: index out of range [-1]\ngithub.com/itchyny/gojq.(*lexer).Lex(0xc0001)", false},
		{"graphqlexec", "panic", "panic: strconv.ParseFloat: parsing \"0x1\": invalid syntax\ngithub.com/graph-gophers/graphql-go/internal/validation.validateBasicLit(0xc0001)", true},
		{"graphqlexec", "panic", "panic: invalid syntax\ngithub.com/graph-gophers/graphql-go/types.(*PrimitiveValue).Deserialize(0xc0001)", true},
		{"graphqlexec", "panic", "panic: invalid syntax\ngithub.com/graph-gophers/graphql-go/internal/common.(*Lexer).CatchSyntaxError.func1()\ngithub.com/graph-gophers/graphql-go/internal/common.(*Lexer).consumeStringComment(0xc0001)", true},
		{"graphqlexec", "panic", "panic: runtime error: index out of range [1] with length 1\ngithub.com/graph-gophers/graphql-go/internal/query.parseSelection(0xc0001)", false},
		{"m3u8parse", "panic", nilDeref + "github.com/grafov/m3u8.decodeLineOfMediaPlaylist(0x183dbb886300, 0x183dbba442d0, 0x183dbba7b6b8, {0x76e620?, 0x0?}, 0x0)\n\treader.go:571 +0x1a33\ngithub.com/grafov/m3u8.decode(0x1)", true},
		{"m3u8parse", "crash", "panic: runtime error: invalid memory address or nil pointer dereference [recovered]\ngithub.com/grafov/m3u8.decodeLineOfMediaPlaylist()", true},
		{"m3u8parse", "panic", "panic: runtime error: index out of range [0] with length 0\ngithub.com/grafov/m3u8.(*MediaPlaylist).AppendSegment(0x1)\ngithub.com/grafov/m3u8.decodeLineOfMediaPlaylist(0x1)", false},
		{"vttparse", "panic", "panic: runtime error: index out of range [0] with length 0\n\ngoroutine 6\ngithub.com/asticode/go-astisub.ReadFromWebVTT({0x7f, 0x1})\n\twebvtt.go:281 +0x1", true},
		{"vttparse", "panic", "panic: runtime error: index out of range [1] with length 1\ngithub.com/asticode/go-astisub.ReadFromWebVTT({0x7f, 0x1})", false},
		{"pongorender", "panic", "panic: runtime error: integer divide by zero\n\ngoroutine 21 [running]:\ngithub.com/flosch/pongo2/v6.(*term).Evaluate(0x1b0e3c56c0c0, 0x1b0e3c5a2a80)\n\texpression.go:312 +0x43f", true},
		{"pongorender", "panic", "panic: runtime error: integer divide by zero\ngithub.com/flosch/pongo2/v6.(*tagCycleNode).Execute(0x1, 0x2, {0x3, 0x4})", true},
		{"pongorender", "panic", "panic: runtime error: integer divide by zero\ngithub.com/flosch/pongo2/v6.filterDivisibleby(0x1, 0x2)", false},
		{"pongorender", "panic", "panic: runtime error: comparing uncomparable type []string\ngithub.com/flosch/pongo2/v6.(*Value).EqualValueTo(0x1, 0x2)\ngithub.com/flosch/pongo2/v6.(*term).Evaluate(0x1)", false},
		{"exprfilter", "panic", "panic: interface conversion: ast.Node is *ast.BinaryNode, not *ast.PredicateNode\n\ngoroutine 7 [running]:\ngithub.com/expr-lang/expr/optimizer.(*fold).Visit(0x3a1c0e0, 0x3a1c100)\n\tfold.go:300 +0x1b25\ngithub.com/expr-lang/expr/ast.Walk(0x3a1c100, {0x7a0e40, 0x3a1c0e0})", true},
		{"exprfilter", "crash", "panic: interface conversion: ast.Node is *ast.BinaryNode, not *ast.PredicateNode [recovered]\ngithub.com/expr-lang/expr/optimizer.(*fold).Visit()", true},
		{"exprfilter", "panic", "panic: runtime error: index out of range [1] with length 1\ngithub.com/expr-lang/expr/optimizer.(*fold).Visit(0x1, 0x2)", false},
		{"exprfilter", "panic", "panic: interface conversion: ast.Node is *ast.BinaryNode, not *ast.PredicateNode\ngithub.com/expr-lang/expr/checker.(*Checker).visit(0x1, 0x2)", false},
		{"regexmatch", "panic", "panic: runtime error: index out of range [2] with length 2\n\ngoroutine 5 [running]:\ngithub.com/dlclark/regexp2.(*Match).addMatch(0x2b4e0, 0x2, 0x0, 0x0)\n\tmatch.go:170 +0x2d9\ngithub.com/dlclark/regexp2.(*runner).capture(0x1, 0x2, 0x2, 0x0)", true},
		{"regexmatch", "panic", "panic: runtime error: index out of range [-1]\ngithub.com/dlclark/regexp2.(*runner).trackPush1(...)\ngithub.com/dlclark/regexp2.(*runner).execute(0x1)", false},
		{"regexmatch", "panic", "panic: runtime error: index out of range [196625] with length 128\ngithub.com/dlclark/regexp2.(*runner).findFirstChar(0x1)", false},
		{"xpathquery", "panic", nilDeref + "github.com/antchfx/xpath.(*logicalQuery).Clone(0x359d3dd9ab10)\n\tquery.go:1 +0x1b\ngithub.com/antchfx/xpath.(*filterQuery).Clone(0x1)\ngithub.com/antchfx/xpath.(*Expr).Evaluate(0x1, {0x2, 0x3})", true},
		{"xpathquery", "crash", "panic: runtime error: invalid memory address or nil pointer dereference [recovered]\ngithub.com/antchfx/xpath.(*Expr).Select()", true},
		{"xpathquery", "panic", "panic: strconv.ParseFloat: parsing \"abc\": invalid syntax\n\tpanic.go:860 +0x13a\ngithub.com/antchfx/xpath.cmpNodeSetNumeric({0x1}, {0x2})\n\toperator.go:112 +0x685\ngithub.com/antchfx/xpath.gtFunc({0x1})", true},
		{"xpathquery", "panic", nilDeref + "github.com/antchfx/xpath.ltFunc({0x5c7380, 0x32c97a0225e8}, {0x579c80, 0x5ce728})\ngithub.com/antchfx/xpath.(*logicalQuery).Evaluate(0x1)", true},
		{"xpathquery", "panic", "panic: runtime error: index out of range [1] with length 1\ngithub.com/antchfx/xpath.(*Expr).Evaluate(0x1, {0x2, 0x3})", false},
		{"xpathquery", "panic", "panic: strconv.ParseFloat: parsing \"x\": invalid syntax\nfuzzbox.dev/bench/realworld/xpathquery.FuzzQuery.func1()", false},
		{"plistdecode", "panic", "panic: runtime error: index out of range [0] with length 0 [recovered]\n\ngoroutine 20 [running]:\npanic({0x5a5ea0?, 0x1?})\nhowett.net/plist.(*Decoder).Decode.func1()\npanic({0x5a5ea0?, 0x1?})\nhowett.net/plist.(*textPlistParser).parseDocument.func1()\npanic({0x5a5ea0?, 0x1?})\nhowett.net/plist.(*textPlistParser).parseGNUStepValue(0x139a53414e90)\n\ttext_parser.go:460 +0x4e0", true},
		{"plistdecode", "panic", "panic: runtime error: index out of range [3] with length 3\nhowett.net/plist.(*bplistParser).parseObjectAtOffset(0x1)", false},
		{"metricsqlparse", "panic", nilDeref + "github.com/VictoriaMetrics/metricsql.getMetricNameFromLabelFilterss({0x2df8a71b2180?, 0x4?, 0x5?})\n\tparser.go:2249 +0x49\ngithub.com/VictoriaMetrics/metricsql.appendLabelFilterss({0x0, 0x0, 0x0}, {0x1, 0x1, 0x1})", true},
		{"metricsqlparse", "panic", "panic: BUG: cannot parse duration \"99999999999999999999i\"\ngithub.com/VictoriaMetrics/metricsql.(*DurationExpr).Duration(0x1)", false},
	}
	for _, tt := range tests {
		if got := byName[tt.target].isKnownBug(tt.kind, tt.text); got != tt.want {
			t.Errorf("%s.isKnownBug(%q, %q) = %v, want %v", tt.target, tt.kind, tt.text, got, tt.want)
		}
	}
}
