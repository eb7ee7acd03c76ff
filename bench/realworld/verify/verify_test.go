//go:build verify

// Package verify proves that every target's bug exists at the version go.mod
// pins: each test runs the input from the upstream report (or one derived from
// it) through the same API the target fuzzes and checks that it fails the way
// the target's package comment says. The inputs are here, behind a build tag
// and outside the target packages, so that no engine is handed them: the
// benchmark never builds this package.
//
//	go test -tags=verify ./verify
package verify

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"fuzzbox.dev/bench/realworld/xpathquery"
	"github.com/VictoriaMetrics/metricsql"
	"github.com/antchfx/xpath"
	"github.com/asticode/go-astisub"
	"github.com/buger/jsonparser"
	"github.com/dlclark/regexp2"
	"github.com/expr-lang/expr"
	"github.com/flosch/pongo2/v6"
	"github.com/gobwas/glob"
	"github.com/grafov/m3u8"
	graphql "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/example/starwars"
	"github.com/hashicorp/hcl"
	"github.com/itchyny/gojq"
	"github.com/miekg/dns"
	"github.com/open-policy-agent/opa/ast"
	"github.com/robfig/cron/v3"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
	"github.com/tidwall/gjson"
	"golang.org/x/image/tiff"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/language"
	"gopkg.in/ini.v1"
	"howett.net/plist"
	"mvdan.cc/sh/v3/syntax"
)

// wantPanic runs fn and checks that it panics with a stack that contains
// frame.
func wantPanic(t *testing.T, frame string, fn func()) {
	t.Helper()
	var stack string
	func() {
		defer func() {
			if r := recover(); r != nil {
				stack = string(debug.Stack())
				t.Logf("panic: %v", r)
			}
		}()
		fn()
	}()
	if stack == "" {
		t.Fatalf("no panic")
	}
	if !strings.Contains(stack, frame) {
		t.Fatalf("panic without %s in its stack:\n%s", frame, stack)
	}
}

// hangEnv names the test whose hanging call runs in a child process.
const hangEnv = "VERIFY_HANG"

// wantHang checks that fn does not return within 2 s. It runs fn in a child
// process (this test binary running only test, with hangEnv set) and kills it,
// so that a loop that also allocates cannot take the tests down with it. A
// loop that doubles a buffer may also reach an allocation the kernel refuses
// within the 2 s on a fast machine: the runtime's "out of memory" fatal error
// means the call did not return either.
func wantHang(t *testing.T, test string, fn func()) {
	t.Helper()
	if os.Getenv(hangEnv) == test {
		fn()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), hangEnv+"="+test, "GOMEMLIMIT=512MiB")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil && strings.Contains(stderr.String(), "out of memory") {
			t.Log("the call ran out of memory without returning")
			return
		}
		t.Fatalf("the call returned (child: %v)\n%s", err, stderr.String())
	case <-time.After(2 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Log("the call was still running after 2s")
	}
}

func TestJSONGet(t *testing.T) {
	wantPanic(t, "jsonparser.searchKeys", func() { jsonparser.Get([]byte("["), "[") })
}

func TestJSONDelete(t *testing.T) {
	wantPanic(t, "jsonparser.Delete", func() { jsonparser.Delete([]byte(`"0":"0":`), "0") })
}

func TestGJSONGet(t *testing.T) {
	s := `0.#[[{}]].@valid:"000`
	wantPanic(t, "gjson.squash", func() { gjson.Get(s, s) })
}

func TestLangTag(t *testing.T) {
	wantPanic(t, "findTypeForKey", func() { language.Parse("en-u-abc-rg") })
}

// TestLangTagResizeRange is another bug of v0.3.2 fixed in v0.3.5 (not the
// target's): the input of golang/go#42536.
func TestLangTagResizeRange(t *testing.T) {
	wantPanic(t, "resizeRange", func() { language.Parse("00-t-0o") })
}

func TestUTF16(t *testing.T) {
	wantHang(t, "TestUTF16", func() {
		unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder().String("a")
	})
}

func TestHZGB2312(t *testing.T) {
	// A lone trailing '~' after something: a stale count, a panic.
	wantPanic(t, "transform.String", func() { simplifiedchinese.HZGB2312.NewDecoder().String("~{<:~}~") })
	// Only a lone '~': no progress, a hang.
	wantHang(t, "TestHZGB2312", func() { simplifiedchinese.HZGB2312.NewDecoder().String("~") })
}

func TestDNSRR(t *testing.T) {
	// A comment inside parentheses that fills the buffer to 2047 bytes, a
	// newline, another comment.
	s := "a TXT ( ;" + strings.Repeat("x", 2046) + "\n;"
	wantPanic(t, "(*zlexer).Next", func() { dns.NewRR(s) })
}

// TestDNSRRGenerate is the other bug of v1.1.15 fixed in v1.1.21 (not the
// target's): the input of miekg/dns#1019, a range of 5 billion steps with no
// template.
func TestDNSRRGenerate(t *testing.T) {
	wantHang(t, "TestDNSRRGenerate", func() { dns.NewRR("$GENERATE 0-5414137360") })
}

// palettedTIFF is the tiffpalette target's seed: a 4×4 paletted image with
// four colors, as tiff.Encode writes it, and the offset of its ColorMap IFD
// entry (tag 320, type SHORT, 768 values).
func palettedTIFF(t *testing.T) (b []byte, colorMap int) {
	pal := color.Palette{color.Black, color.White, color.Gray{Y: 0x80}, color.Gray{Y: 0x40}}
	m := image.NewPaletted(image.Rect(0, 0, 4, 4), pal)
	for i := range m.Pix {
		m.Pix[i] = uint8(i % len(pal))
	}
	var buf bytes.Buffer
	if err := tiff.Encode(&buf, m, nil); err != nil {
		t.Fatal(err)
	}
	b = buf.Bytes()
	i := bytes.Index(b, []byte{0x40, 0x01, 0x03, 0x00, 0x00, 0x03, 0x00, 0x00})
	if i < 0 {
		t.Fatal("no ColorMap entry in the encoded seed")
	}
	return b, i
}

// readPixels reads every pixel's color, as the target does.
func readPixels(img image.Image) {
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.At(x, y).RGBA()
		}
	}
}

func TestTIFFPalette(t *testing.T) {
	// The ColorMap says 768 values, 256 colors; make it 3 values, one
	// color: pixels 1, 2 and 3 now index past it.
	b, i := palettedTIFF(t)
	b[i+4], b[i+5] = 3, 0
	img, err := tiff.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	wantPanic(t, "(*Paletted).At", func() { readPixels(img) })
}

func TestTIFFPaletteMissing(t *testing.T) {
	// No ColorMap at all (tag 320 becomes 321): an empty palette, a nil
	// color, a nil dereference in the caller.
	b, i := palettedTIFF(t)
	b[i] = 0x41
	img, err := tiff.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	wantPanic(t, "verify.readPixels", func() { readPixels(img) })
}

func TestShParse(t *testing.T) {
	// The input of syntax/testdata/fuzz/FuzzParsePrint/6d0dc226922dc40c,
	// added by the fix of mvdan/sh#1098: a backquote, an escaped $, an
	// escaped backslash.
	src := "`\\$\\\\000"
	wantPanic(t, "(*Parser).endLit", func() {
		syntax.NewParser().Parse(strings.NewReader(src), "")
	})
}

func TestShParseAssign(t *testing.T) {
	// Found by fuzzbox on the benchmark (a backquote, an assignment, an
	// escaped $); fixed by the same commit as mvdan/sh#1098.
	src := "`l=\\$"
	wantPanic(t, "(*Parser).getAssign", func() {
		syntax.NewParser().Parse(strings.NewReader(src), "")
	})
}

func TestJSParse(t *testing.T) {
	// From the test the fix added: "throw" and a newline.
	wantPanic(t, "ThrowStmt", func() {
		ast, err := js.Parse(parse.NewInputString("throw\n"), js.Options{})
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		_ = ast.String()
	})
}

func TestINILoad(t *testing.T) {
	// From the test the fix added: a value naming a key that is not there.
	cfg, err := ini.Load([]byte("[foo]\nbar = %(missing)s\n"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	wantPanic(t, "(*Key).transformValue", func() {
		_ = cfg.Section("foo").Key("bar").String()
	})
}

func TestHCLParse(t *testing.T) {
	// The upstream report's input (hashicorp/hcl#194).
	wantPanic(t, "hcl/json/scanner.(*Scanner).unread", func() {
		var out interface{}
		_ = hcl.Unmarshal([]byte("{\"\\0"), &out)
	})
}

func TestHCLParseOctal(t *testing.T) {
	// The other bug (hashicorp/hcl#129): a block key with \400.
	wantPanic(t, "hcl/token.Token.Value", func() {
		var out interface{}
		_ = hcl.Unmarshal([]byte("t\"\\400n\"{}"), &out)
	})
}

func TestGlobMatch(t *testing.T) {
	// The upstream report's pattern (gobwas/glob#59), and a shorter one.
	for _, c := range [][2]string{{"/{a{*.json{", "/a/b/c/d/e/foo.json"}, {"{a{*b{", "acb"}} {
		g, err := glob.Compile(c[0], '/')
		if err != nil {
			t.Fatalf("Compile(%q): %v", c[0], err)
		}
		wantPanic(t, "match.Row.matchAll", func() { _ = g.Match(c[1]) })
	}
}

func TestCronParse(t *testing.T) {
	// The upstream report's input (robfig/cron#554).
	wantPanic(t, "cron/v3.Parser.Parse", func() { _, _ = cron.ParseStandard("TZ=0") })
}

func TestRegoParse(t *testing.T) {
	// What the fix guards against (open-policy-agent/opa#2715): a call of
	// eq, then of assign, without operands, read as a rule definition.
	// With a call as eq's one operand, the rule parser for functions
	// dereferences the missing right-hand side, and with a reference of two
	// terms the rule parser for partial objects (both found by fuzzbox; the
	// same check of both operands fixes them).
	for src, fn := range map[string]string{
		"(d)eq()":     "ast.ParseCompleteDocRuleFromEqExpr",
		"(d)assign()": "ast.ParseCompleteDocRuleFromEqExpr",
		"(d)eq(f(x))": "ast.ParseRuleFromCallEqExpr",
		"(d)eq(p[x])": "ast.ParsePartialObjectDocRuleFromEqExpr",
	} {
		if _, _, err := ast.ParseStatements("", src); err != nil {
			t.Fatalf("ParseStatements(%q): %v", src, err)
		}
		wantPanic(t, fn, func() {
			ast.CompileModules(map[string]string{"": src})
		})
	}
}

func TestJQRun(t *testing.T) {
	// The input of itchyny/gojq#297: path() around iterating a literal
	// array; the first result is the error, the next Next panics.
	q, err := gojq.Parse("path([][])")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	iter := code.Run(nil)
	v, ok := iter.Next()
	if _, isErr := v.(error); !ok || !isErr {
		t.Fatalf("first result: %v, %v; want an invalid path error", v, ok)
	}
	wantPanic(t, "gojq.(*env).Next", func() {
		for {
			if _, ok := iter.Next(); !ok {
				break
			}
		}
	})
}

// starwarsSchema is the graphqlexec target's schema: the module's Star Wars
// example with its resolver.
func starwarsSchema() *graphql.Schema {
	return graphql.MustParseSchema(starwars.Schema, &starwars.Resolver{}, graphql.MaxDepth(3))
}

func TestGraphQLExec(t *testing.T) {
	// The upstream report's input (graph-gophers/graphql-go#497): a String
	// variable whose default is -"", which validates; converting the
	// default panics.
	schema := starwarsSchema()
	q := `query ($x: String = -"") { search(text: $x) { __typename } }`
	if errs := schema.Validate(q); len(errs) > 0 {
		t.Fatalf("Validate: %v", errs)
	}
	wantPanic(t, "(*PrimitiveValue).Deserialize", func() {
		schema.Exec(context.Background(), q, "", nil)
	})
}

func TestGraphQLExecInt(t *testing.T) {
	// Derived from the fix (graph-gophers/graphql-go#515, which makes
	// validation return false where strconv fails): a hexadecimal literal,
	// an Int token of text/scanner, for an Int argument.
	schema := starwarsSchema()
	wantPanic(t, "validation.validateBasicLit", func() {
		schema.Validate(`{hero{friendsConnection(first:0x1){totalCount}}}`)
	})
}

func TestGraphQLLexerUnquote(t *testing.T) {
	// The open lexer bug (in every release up to v1.11.0): a description
	// string whose octal escape text/scanner accepts and strconv.Unquote
	// rejects.
	schema := starwarsSchema()
	wantPanic(t, "(*Lexer).consumeStringComment", func() {
		schema.Validate(`query($"\400"`)
	})
}

func TestGraphQLOverlapDeserialize(t *testing.T) {
	// Open (in every release up to v1.11.0): the overlapping-fields check
	// converts the literals of two selections of one field with
	// Deserialize, before validateBasicLit rejects them.
	schema := starwarsSchema()
	wantPanic(t, "(*PrimitiveValue).Deserialize", func() {
		schema.Validate(`{hero{friendsConnection(first:6_6){totalCount} friendsConnection(first:6_6){totalCount}}}`)
	})
}

func TestM3U8Parse(t *testing.T) {
	// grafov/m3u8#166 and PR #178: an #EXT-X-MAP tag, then a URI before any
	// #EXTINF.
	wantPanic(t, "m3u8.decodeLineOfMediaPlaylist", func() {
		_, _, _ = m3u8.Decode(*bytes.NewBufferString("#EXT-X-MAP:\nx"), false)
	})
}

func TestVTTParse(t *testing.T) {
	// asticode/go-astisub#142: a cue's timing line with nothing after the
	// arrow.
	wantPanic(t, "astisub.ReadFromWebVTT", func() {
		_, _ = astisub.ReadFromWebVTT(strings.NewReader("WEBVTT\n\n00:01.000 -->\nHello\n"))
	})
}

// renderPongo2 parses and renders src with an empty context.
func renderPongo2(t *testing.T, src string) {
	tpl, err := pongo2.FromString(src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	_, _ = tpl.Execute(pongo2.Context{})
}

func TestPongoRender(t *testing.T) {
	// flosch/pongo2 commit 7d761e3: the crasher its fuzz test added.
	wantPanic(t, "pongo2/v6.(*term).Evaluate", func() { renderPongo2(t, "{{0%0}}") })
	wantPanic(t, "pongo2/v6.(*term).Evaluate", func() { renderPongo2(t, "{{ a / b }}") })
}

func TestPongoRenderCycle(t *testing.T) {
	// flosch/pongo2 commit 10ebed0: the crasher its fuzz test added.
	wantPanic(t, "pongo2/v6.(*tagCycleNode).Execute", func() { renderPongo2(t, "{%cycle%}") })
}

func TestExprFilter(t *testing.T) {
	// expr-lang/expr#857: three filter calls, one on the result of the
	// other; the optimizer merges the inner two, then asserts the merged
	// predicate's type. Nested, and as a pipeline over the target's
	// environment's kind of data.
	for _, src := range []string{
		`filter(filter(filter([1, 2, 3], # > 0), # > 1), # > 2)`,
		`items | filter(.qty > 0) | filter(.price < 100) | filter(.sku != "")`,
	} {
		env := map[string]any{"items": []any{map[string]any{"sku": "A-100", "price": 9.5, "qty": 2}}}
		wantPanic(t, "optimizer.(*fold).Visit", func() { _, _ = expr.Compile(src, expr.Env(env)) })
	}
	// Two filter calls compile and run.
	program, err := expr.Compile(`filter(filter([1, 2, 3], # > 0), # > 1)`)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	if _, err := expr.Run(program, nil); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

func TestRegexMatch(t *testing.T) {
	// The first two patterns of dlclark/regexp2#32 (found by fuzzing), with
	// the report's text: an octal escape that eats the "(" of "(?(".
	for _, pattern := range []string{`(()\7(?())`, `(\2(?(0))`} {
		re, err := regexp2.Compile(pattern, regexp2.ECMAScript)
		if err != nil {
			t.Fatalf("Compile(%q): %v", pattern, err)
		}
		wantPanic(t, "regexp2.(*Match).addMatch", func() { _, _ = re.FindStringMatch("000000000") })
	}
}

func TestXPathQuery(t *testing.T) {
	// antchfx/htmlquery#31's query and the ones the fix's test adds
	// (antchfx/xpath#129): an undeclared variable inside a larger
	// expression compiles (the fix's "//a[$x]" makes Compile recover from a
	// panic of its own at this version), and evaluating it dereferences the
	// nil query.
	root, err := xpathquery.Parse("<a><b x='1'>t</b></a>")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"$test/@attr", "$var + 1", "//b[@x > $min]"} {
		expr, err := xpath.Compile(src)
		if err != nil {
			t.Fatalf("Compile(%q): %v", src, err)
		}
		wantPanic(t, "antchfx/xpath.", func() {
			v := expr.Evaluate(xpathquery.NewNavigator(root))
			if it, ok := v.(*xpath.NodeIterator); ok {
				for it.MoveNext() {
				}
			}
		})
	}
}

// evalXPath compiles src and evaluates it over a small document, reading
// every node of a node-set result, as the xpathquery target does.
func evalXPath(t *testing.T, src string) {
	t.Helper()
	root, err := xpathquery.Parse("<r><a>abc</a><n>2</n></r>")
	if err != nil {
		t.Fatal(err)
	}
	expr, err := xpath.Compile(src)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	v := expr.Evaluate(xpathquery.NewNavigator(root))
	if it, ok := v.(*xpath.NodeIterator); ok {
		for it.MoveNext() {
		}
	}
}

func TestXPathQueryParseFloat(t *testing.T) {
	// antchfx/xpath#126's first example, its operands swapped, and a
	// node-set of text that is not a number compared with a number.
	for _, src := range []string{"'abc' = 1", "1 < 'x'", "//a > 1"} {
		wantPanic(t, "antchfx/xpath.cmp", func() { evalXPath(t, src) })
	}
}

func TestXPathQueryBoolean(t *testing.T) {
	// Fixed in v1.3.9: a boolean compared with a number or a string.
	for src, fn := range map[string]string{"1<2<3": "xpath.ltFunc", "(1=1) = 'a'": "xpath.eqFunc"} {
		wantPanic(t, fn, func() { evalXPath(t, src) })
	}
}

func TestPlistDecode(t *testing.T) {
	// DHowett/go-plist#79: the pull request's reproducer, and a quoted
	// empty GNUstep integer in a dictionary.
	for _, src := range []string{`(plist versionGetValue<*B"">`, `{ n = <*I"">; }`} {
		wantPanic(t, "(*textPlistParser).parseGNUStepValue", func() {
			var v interface{}
			_, _ = plist.Unmarshal([]byte(src), &v)
		})
	}
}

func TestMetricsQLParse(t *testing.T) {
	// metricsql commit 07bd0d9: the query its test adds, the same
	// template called with a plain metric name, and the shortest input
	// (found by fuzzbox), a __name__ filter without a value and no template.
	for _, src := range []string{
		`with (f(__name__) = {__name__}) f({a="b" or c="d"})`,
		`with (f(__name__) = {__name__}) f(x)`,
		`{__name__}`,
	} {
		wantPanic(t, "metricsql.getMetricNameFromLabelFilterss", func() {
			expr, err := metricsql.Parse(src)
			if err == nil {
				_ = expr.AppendString(nil)
			}
		})
	}
}
