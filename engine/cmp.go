package engine

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/fuzzbox/fuzzbox/engine/instrument"
)

// Comparison guidance. The worker runs a base input once with comparison
// tracing on (engine/instrument records the operands of every unequal
// integer and string comparison), finds where each operand comes from in
// the input, and derives substitutions that put the other operand there:
// for a 4-byte magic number compared against a little-endian read of the
// input, the substitution writes the magic at the offset it was read from.
// The mutator applies one substitution in a quarter of its mutations.

// cmpSub is one substitution for the current base input.
type cmpSub struct {
	arg  int    // index of the value to change
	at   int    // byte offset in a []byte/string value; atResize, or another negative number to replace a whole value
	from []byte // bytes expected at at (for []byte/string values)
	to   []byte // replacement bytes
	ival any    // replacement for a whole value (at < 0 but not atResize)

	// With at == atResize, a []byte/string value of lenFrom bytes becomes
	// lenTo bytes long: truncated, or grown by repeating its last byte.
	lenFrom, lenTo int

	// insert puts to at at, before from, instead of replacing from (for
	// []byte/string values; see applyCmp).
	insert bool

	// site is the comparison the substitution comes from: an integer
	// comparison's site (IntCmp.Site), or a string comparison's plus
	// strSite. The fix-up draws sites, not substitutions.
	site int64
}

// strSite is added to a string comparison's site in cmpSub.site, apart
// from the integer comparisons' sites.
const strSite = 1 << 32

// atResize in cmpSub.at marks a resize: a traced len(x) compared with
// another length asks for x to have that length.
const atResize = -2

// maxResizeLen bounds the length a resize substitution asks for; larger
// operands are not lengths.
const maxResizeLen = 1 << 16

// resizeFloor is the length a resize substitution may ask for before the
// length control's limit is larger: libFuzzer's default -max_len. A
// length compared with a bound far above the corpus's inputs (a
// uint16-sized buffer's len(s) > 65535) is a path to take once the
// inputs have grown, not at once: agnivade/levenshtein's own fuzz test
// resized both strings to 65536 bytes within seconds, an input of
// 4 G steps that stopped every fuzzing run at its 10-s timeout.
const resizeFloor = 4096

// maxLenSiteHits is how often a comparison site may occur in one trace
// for its operands to be taken as lengths: a loop's i < len(s) (or a
// parser's bound check) compares len(s) with every position, and each
// would become a truncation. On the grammar benchmark target, 4 made the
// median time to the bug about 4 times longer (truncated inputs are new
// error paths that fill the corpus); 1 did not.
const maxLenSiteHits = 1

const maxCmpSubs = 4096

// cmpTrace collects the comparisons of one traced execution.
type cmpTrace struct {
	ints []instrument.IntCmp
	strs [][2]string
	fold []bool
	site []uint32 // of each string comparison

	idx []inputIndex // of each argument, rebuilt by each appendSubstitutions
}

func (t *cmpTrace) reset() {
	t.ints, t.strs, t.fold, t.site = t.ints[:0], t.strs[:0], t.fold[:0], t.site[:0]
}

func (t *cmpTrace) onInt(c instrument.IntCmp) { t.ints = append(t.ints, c) }

func (t *cmpTrace) onStr(c *instrument.StrCmp) {
	la, lb := min(int(c.LenA), len(c.A)), min(int(c.LenB), len(c.B))
	t.strs = append(t.strs, [2]string{string(c.A[:la]), string(c.B[:lb])})
	t.fold = append(t.fold, c.Fold)
	t.site = append(t.site, c.Site)
}

// validCmpSize reports whether size is an operand width the hooks record;
// other widths would make empty or oversized encodings.
func validCmpSize(size uint8) bool {
	return size == 1 || size == 2 || size == 4 || size == 8
}

// tokens returns the operands seen, for the dictionary: integer constants of
// 2 bytes or more as little-endian bytes, and string operands (both: the
// input's side of one is often what another argument needs, a key of the
// document named in a path).
func (t *cmpTrace) tokens() [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	add := func(b []byte) {
		if len(b) > 0 && !seen[string(b)] && len(out) < 256 {
			seen[string(b)] = true
			out = append(out, b)
		}
	}
	for _, c := range t.ints {
		// The constant is A, the compiler's first argument
		// (cmd/compile/internal/walk/compare.go); B came from the input.
		// Small constants (loop bounds, lengths, -1) make poor tokens.
		if validCmpSize(c.Size) && c.Size >= 2 && c.Const && c.A >= 0x100 && c.A < ^uint64(0)-0xff {
			add(enc(c.A, int(c.Size), false))
		}
	}
	for _, s := range t.strs {
		add([]byte(s[0]))
		add([]byte(s[1]))
	}
	return out
}

// substitutions derives the substitutions for vals from the trace.
func (t *cmpTrace) substitutions(vals []any) []cmpSub {
	return t.appendSubstitutions(nil, vals)
}

// appendSubstitutions is substitutions appending to subs, whose storage a
// caller that uses the result only until its next call reuses: a traced
// mutant's fix-up derives thousands to use two.
func (t *cmpTrace) appendSubstitutions(subs []cmpSub, vals []any) []cmpSub {
	subs = subs[:0]
	var site int64
	add := func(s cmpSub) {
		if len(subs) < maxCmpSubs {
			s.site = site
			subs = append(subs, s)
		}
	}
	lens := t.lenSubs(vals, add)
	idx := t.index(vals)
	for _, c := range t.ints {
		if len(subs) >= maxCmpSubs {
			return subs // full: every later one would be dropped
		}
		if !validCmpSize(c.Size) {
			continue
		}
		site = int64(c.Site)
		intSubs(vals, idx, c.A, c.B, int(c.Size), add)
		intSubs(vals, idx, c.B, c.A, int(c.Size), add)
		lens(c)
	}
	for i, s := range t.strs {
		if len(subs) >= maxCmpSubs {
			return subs
		}
		site = strSite
		if i < len(t.site) {
			site += int64(t.site[i])
		}
		fold := i < len(t.fold) && t.fold[i]
		strSubs(vals, s[0], s[1], fold, add)
		strSubs(vals, s[1], s[0], fold, add)
		decimalSubs(vals, s[0], s[1], add)
		decimalSubs(vals, s[1], s[0], add)
	}
	return subs
}

// lenSubs returns a function that adds, for one integer comparison, the
// resize substitutions it asks for: an operand equal to the length of a
// []byte/string argument, compared with another plausible length, resizes
// that argument to the other operand (and ±1, for < and >). A length
// computed from another argument (a record width derived from a slot
// number) is met without knowing how it was computed. Sites that occur more
// than maxLenSiteHits times give none; each argument gets each new length
// once.
func (t *cmpTrace) lenSubs(vals []any, add func(cmpSub)) func(instrument.IntCmp) {
	var hits map[uint32]int
	var done map[[2]int]bool
	return func(c instrument.IntCmp) {
		if c.Size < 2 || !hasBytesArg(vals) {
			return
		}
		if hits == nil {
			hits, done = map[uint32]int{}, map[[2]int]bool{}
			for _, c := range t.ints {
				hits[c.Site]++
			}
		}
		if hits[c.Site] > maxLenSiteHits {
			return
		}
		resizeSubs(vals, c.A, c.B, int(c.Size), done, add)
		resizeSubs(vals, c.B, c.A, int(c.Size), done, add)
	}
}

func hasBytesArg(vals []any) bool {
	for _, v := range vals {
		switch v.(type) {
		case []byte, string:
			return true
		}
	}
	return false
}

// resizeSubs adds the substitutions that resize each []byte/string value of
// length a to b, b+1 and b-1, skipping lengths done already.
func resizeSubs(vals []any, a, b uint64, size int, done map[[2]int]bool, add func(cmpSub)) {
	mask := uint64(1)<<(8*size) - 1 // all ones for 8 bytes: the shift gives 0
	want := int64(signExtend(b&mask, size))
	if want < 0 || want > maxResizeLen {
		return
	}
	for i, v := range vals {
		n := byteLen(v)
		switch v.(type) {
		case []byte, string:
		default:
			continue
		}
		if uint64(n)&mask != a&mask || uint64(n) > mask {
			continue
		}
		for _, to := range []int64{want, want + 1, want - 1} {
			if to < 0 || to > maxResizeLen || to == int64(n) || done[[2]int{i, int(to)}] {
				continue
			}
			done[[2]int{i, int(to)}] = true
			add(cmpSub{arg: i, at: atResize, lenFrom: n, lenTo: int(to)})
		}
	}
}

// decimalSubs carries a string comparison over to integer arguments: when
// a is the decimal form of an integer argument's value (strconv.Itoa(n) ==
// "1234") and b is decimal too, the argument becomes b's value.
func decimalSubs(vals []any, a, b string, add func(cmpSub)) {
	av, aok := parseDecimal(a)
	bv, bok := parseDecimal(b)
	if !aok || !bok {
		return
	}
	for i, v := range vals {
		switch v.(type) {
		case []byte, string, bool, float32, float64:
			continue
		}
		wholeIntSubs(i, v, av, bv, 8, add)
	}
}

// parseDecimal parses s as a signed or unsigned decimal integer and
// returns its bits.
func parseDecimal(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 20 {
		return 0, false
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return uint64(v), true
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// intSubs adds substitutions that replace operand a by b (and b±1) where a
// appears in vals: as an integer value, or inside []byte/string values in
// either byte order or as decimal or hex text.
func intSubs(vals []any, idx []inputIndex, a, b uint64, size int, add func(cmpSub)) {
	for i, v := range vals {
		switch v := v.(type) {
		case []byte:
			byteIntSubs(i, v, &idx[i], a, b, size, add)
		case string:
			byteIntSubs(i, readOnlyBytes(v), &idx[i], a, b, size, add)
		case bool, float32, float64:
		default:
			wholeIntSubs(i, v, a, b, size, add)
		}
	}
}

// wholeIntSubs adds the substitutions that replace the integer value v of
// argument i by b (and b±1) when it equals a.
func wholeIntSubs(i int, v any, a, b uint64, size int, add func(cmpSub)) {
	k, bits := numBits(v)
	vs, _ := intShape(k)
	mask := uint64(1)<<(8*min(size, vs)) - 1 // all ones for 8 bytes: the shift gives 0
	if bits&mask == a&mask {
		for _, d := range []uint64{0, 1, ^uint64(0)} {
			add(cmpSub{arg: i, at: -1, ival: fromBits(k, signExtend(b+d, size))})
		}
	}
}

// signExtend widens a size-byte operand so that signed kinds keep its value.
func signExtend(v uint64, size int) uint64 {
	if size >= 8 {
		return v
	}
	shift := uint(64 - 8*size)
	return uint64(int64(v<<shift) >> shift)
}

// byteIntSubs adds the substitutions that put r where a occurs in b. It
// runs for every traced comparison and every []byte/string argument, and a
// comparison's operand is rarely in the input: it searches with encodings
// on the stack and allocates only for an occurrence.
func byteIntSubs(arg int, b []byte, x *inputIndex, a, r uint64, size int, add func(cmpSub)) {
	var ats [8]int
	if size == 1 {
		// A byte compared with another (a parser's character tests): put
		// the other byte where this one occurs, its first 8 places.
		from, to := oneByte[byte(a)], oneByte[byte(r)]
		for _, at := range x.at[byte(a)][:x.n[byte(a)]] {
			add(cmpSub{arg: arg, at: int(at), from: from, to: to})
		}
	}
	var buf [8]byte
	if size >= 2 {
		for _, big := range []bool{false, true} {
			writeInt(buf[:], size, big, a)
			if !x.has(buf[:size]) || !bytes.Contains(b, buf[:size]) {
				continue
			}
			from, to := enc(a, size, big), enc(r, size, big)
			for _, at := range indexAll(ats[:0], b, from) {
				add(cmpSub{arg: arg, at: at, from: from, to: to})
			}
		}
	}
	var text [20]byte
	signed := int64(signExtend(r, size))
	for _, base := range []int{10, 16} {
		probe := byteText[base/16][a%256] // a < 256: formatted once, shared
		if a >= 256 {
			probe = strconv.AppendUint(text[:0], a, base)
		}
		if len(probe) < 2 && size > 1 || !x.has(probe) || !bytes.Contains(b, probe) {
			continue
		}
		// Not from := probe: the substitutions keep from, and text would
		// escape to the heap on every call.
		from := byteText[base/16][a%256]
		if a >= 256 {
			from = bytes.Clone(probe)
		}
		toU, toS := numText(r, base), numText(uint64(signed), base)
		if signed < 0 {
			toS = strconv.AppendInt(nil, signed, base)
		}
		for _, at := range indexAll(ats[:0], b, from) {
			add(cmpSub{arg: arg, at: at, from: from, to: toU})
			add(cmpSub{arg: arg, at: at, from: from, to: toS})
		}
	}
}

// inputIndex records which bytes and pairs of adjacent bytes occur in one
// argument: an operand's encoding is searched for only when its first two
// bytes occur, which for most of a trace's comparisons they do not. It
// also keeps each byte value's first 8 places: a tokenizer compares each
// byte with a dozen characters, and each comparison asks for them.
type inputIndex struct {
	ones  [256 / 64]uint64
	pairs [1 << 16 / 64]uint64
	n     [256]uint8     // places of each byte value kept in at, 8 at most
	at    [256][8]uint32 // the first n places of each byte value
}

func (x *inputIndex) build(b []byte) {
	clear(x.ones[:])
	clear(x.pairs[:])
	clear(x.n[:])
	for i, c := range b {
		x.ones[c/64] |= 1 << (c % 64)
		if x.n[c] < 8 {
			x.at[c][x.n[c]] = uint32(i)
			x.n[c]++
		}
		if i+1 < len(b) {
			p := uint16(c)<<8 | uint16(b[i+1])
			x.pairs[p/64] |= 1 << (p % 64)
		}
	}
}

// has reports whether p may occur in the argument: false only if its
// first byte, or its first two, do not.
func (x *inputIndex) has(p []byte) bool {
	switch {
	case len(p) == 0:
		return true
	case len(p) == 1:
		return x.ones[p[0]/64]&(1<<(p[0]%64)) != 0
	}
	q := uint16(p[0])<<8 | uint16(p[1])
	return x.pairs[q/64]&(1<<(q%64)) != 0
}

// index builds t.idx for the []byte and string arguments of vals.
func (t *cmpTrace) index(vals []any) []inputIndex {
	if cap(t.idx) < len(vals) {
		t.idx = make([]inputIndex, len(vals))
	}
	t.idx = t.idx[:len(vals)]
	for i, v := range vals {
		switch v := v.(type) {
		case []byte:
			t.idx[i].build(v)
		case string:
			t.idx[i].build(readOnlyBytes(v))
		}
	}
	return t.idx
}

// byteText holds the decimal (byteText[0]) and hex (byteText[1]) text of
// every byte value, as strconv formats them. Substitutions never modify
// their from.
var byteText = func() (t [2][256][]byte) {
	for c := range 256 {
		t[0][c] = strconv.AppendUint(nil, uint64(c), 10)
		t[1][c] = strconv.AppendUint(nil, uint64(c), 16)
	}
	return t
}()

// numText is v's text in base (10 or 16), shared for values below 256.
func numText(v uint64, base int) []byte {
	if v < 256 {
		return byteText[base/16][v]
	}
	return strconv.AppendUint(nil, v, base)
}

// oneByte holds every one-byte slice, shared by the substitutions of 1-byte
// comparisons (a tokenizer gives thousands per trace). Substitutions never
// modify their from and to.
var oneByte = func() (t [256][]byte) {
	for c := range t {
		t[c] = []byte{byte(c)}
	}
	return t
}()

// readOnlyBytes returns the bytes of s without a copy. The caller must not
// modify them or keep them: byteIntSubs only searches them.
func readOnlyBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

func strSubs(vals []any, a, b string, fold bool, add func(cmpSub)) {
	for i, v := range vals {
		var s []byte
		switch v := v.(type) {
		case []byte:
			s = v
		case string:
			if v == a || (fold && strings.EqualFold(v, a)) {
				add(cmpSub{arg: i, at: -1, ival: b})
			}
			s = []byte(v)
		default:
			continue
		}
		if a == "" {
			continue
		}
		found := strOccurrences(s, a, fold, func(at, n int) {
			add(cmpSub{arg: i, at: at, from: bytes.Clone(s[at : at+n]), to: []byte(b)})
		})
		if !found && len(s) < len(a) && strings.HasPrefix(a, string(s)) {
			// The input is a prefix of the operand: complete it.
			add(cmpSub{arg: i, at: 0, from: bytes.Clone(s), to: []byte(a)})
		}
	}
}

// strOccurrences calls at for the first few occurrences of a in s, exact
// ones or, with fold and none exact, case-insensitive ones, and reports
// whether there was any. n is the occurrence's length in s, which for a
// case-insensitive one can differ from len(a) (the Kelvin sign is 3 bytes
// and matches "k").
func strOccurrences(s []byte, a string, fold bool, at func(at, n int)) bool {
	var buf [8]int
	ats := indexAll(buf[:0], s, []byte(a))
	for _, i := range ats {
		at(i, len(a))
	}
	if len(ats) > 0 || !fold {
		return len(ats) > 0
	}
	spans := indexFold(s, a)
	for _, sp := range spans {
		at(sp.at, sp.n)
	}
	return len(spans) > 0
}

// span is a match in an input: n bytes at offset at.
type span struct{ at, n int }

// maxFoldSteps bounds the rune comparisons of one indexFold call, which
// tries every offset of an input of up to megabytes.
const maxFoldSteps = 1 << 22

// indexFold returns the first few case-insensitive occurrences of a in s,
// with rune-by-rune folding as strings.EqualFold does it. It searches s
// itself rather than a lowered copy: lowering changes byte lengths (invalid
// UTF-8 becomes the 3-byte U+FFFD, the Kelvin sign becomes "k"), so offsets
// into a copy do not point into s.
func indexFold(s []byte, a string) []span {
	if a == "" {
		return nil // it would match everywhere
	}
	var out []span
	steps := 0
	first, quick := a[0], asciiFoldsInASCII(a[0])
	for at := 0; at < len(s) && len(out) < 8 && steps < maxFoldSteps; at++ {
		if quick && asciiLower(s[at]) != asciiLower(first) {
			continue // a cheap test rules out most offsets
		}
		if n, ok := foldPrefix(s[at:], a, &steps); ok {
			out = append(out, span{at, n})
		}
	}
	return out
}

// asciiFoldsInASCII reports whether c is an ASCII character whose case
// variants are all ASCII: every one but k and s (the Kelvin sign and the
// long s fold with them).
func asciiFoldsInASCII(c byte) bool {
	return c < utf8.RuneSelf && c|0x20 != 'k' && c|0x20 != 's'
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// foldPrefix reports whether s starts with a case-insensitive match of a,
// and the match's length in s. It counts the runes it compares in *steps.
func foldPrefix(s []byte, a string, steps *int) (int, bool) {
	n := 0
	for len(a) > 0 {
		*steps++
		if n >= len(s) {
			return 0, false
		}
		ra, wa := utf8.DecodeRuneInString(a)
		rs, ws := utf8.DecodeRune(s[n:])
		switch {
		case invalid(ra, wa):
			// An invalid byte of the operand matches only itself
			// (EqualFold would take any invalid byte for any other),
			// even where the input's next byte makes it a valid rune.
			if a[0] != s[n] {
				return 0, false
			}
			ws = 1
		case invalid(rs, ws) || !sameFoldRune(ra, rs):
			return 0, false
		}
		a, n = a[wa:], n+ws
	}
	return n, true
}

// invalid reports whether a decoded rune stands for an invalid byte.
func invalid(r rune, w int) bool { return r == utf8.RuneError && w == 1 }

// sameFoldRune reports whether two runes are equal under simple case
// folding, as strings.EqualFold compares them.
func sameFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return 'A' <= a && a <= 'Z' && a+'a'-'A' == b || 'A' <= b && b <= 'Z' && b+'a'-'A' == a
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// applyCmp applies one random substitution to vals, reporting whether it
// could. A one-byte substitution inside a []byte or string value inserts
// the other operand where the compared byte was, instead of replacing it,
// one time in insertCmpOneIn, as libFuzzer applies the words of its table
// of recent compares (inserted or overwritten at the position hint): a
// parser that compared the 'a' of "#.a|x" with '{' and then '"' needs both
// inserted before the 'a' ("#.{\"a|x"), not written over it. Longer
// operands (keywords, magic numbers, checksums) are only replaced: on
// bench/targets/coupled, inserting them too took 2.9 M executions to the
// bug in both of two runs, 0.1-2.7 M in four runs without (a keyword
// inserted into a record whose length was already right breaks it).
func (m *mutator) applyCmp(vals []any) bool {
	s := m.cmp[m.r.IntN(len(m.cmp))]
	s.insert = s.at >= 0 && len(s.to) == 1 && m.r.IntN(insertCmpOneIn) == 0
	ok := m.applyBounded(vals, s)
	m.cmpMutant = ok && s.at < 0 // a whole value replaced, or resized
	return ok
}

// applyBounded is applySub within the mutator's length limit: a
// substitution that would make its value longer than maxLen or guideLen
// (resizeLen for a resize) is undone.
func (m *mutator) applyBounded(vals []any, s cmpSub) bool {
	if s.arg < 0 || s.arg >= len(vals) {
		return false
	}
	limit := max(m.maxLen, m.guideLen)
	if s.at == atResize {
		// A length the code compared is no blind growth: length
		// control does not hold it back (bench/targets/coupled's record
		// must be 64 bytes long where the seeds are 20 at most).
		limit = max(limit, m.resizeLen)
		if s.lenTo > limit {
			return false // refused before the value is built
		}
	}
	old := vals[s.arg]
	if !applySub(vals, s) {
		return false
	}
	if byteLen(vals[s.arg]) > limit {
		vals[s.arg] = old
		return false
	}
	return true
}

// byteLen is the length of a []byte or string value, 0 for other types.
func byteLen(v any) int {
	switch v := v.(type) {
	case []byte:
		return len(v)
	case string:
		return len(v)
	}
	return 0
}

// applySub applies s to vals, reporting whether it could: the argument
// must exist, a whole-value replacement must have the argument's type, and
// the bytes s replaces must be at s.at (a substitution derived from another
// input does not apply).
func applySub(vals []any, s cmpSub) bool {
	if s.arg < 0 || s.arg >= len(vals) {
		return false
	}
	if s.at == atResize {
		return resizeValue(vals, s)
	}
	if s.at < 0 {
		if reflect.TypeOf(s.ival) != reflect.TypeOf(vals[s.arg]) {
			return false
		}
		vals[s.arg] = s.ival
		return true
	}
	switch v := vals[s.arg].(type) {
	case []byte:
		out, ok := replaceAt(v, s)
		if ok {
			vals[s.arg] = out
		}
		return ok
	case string:
		out, ok := replaceAt([]byte(v), s)
		if ok {
			vals[s.arg] = string(out)
		}
		return ok
	}
	return false
}

// resizeValue applies a resize substitution: the value must be a []byte or
// string of s.lenFrom bytes, and s.lenTo at most maxResizeLen.
func resizeValue(vals []any, s cmpSub) bool {
	if s.lenTo < 0 || s.lenTo > maxResizeLen || byteLen(vals[s.arg]) != s.lenFrom {
		return false
	}
	switch v := vals[s.arg].(type) {
	case []byte:
		vals[s.arg] = resized(v, s.lenTo)
	case string:
		vals[s.arg] = string(resized([]byte(v), s.lenTo))
	default:
		return false
	}
	return true
}

// resized returns a copy of b that is n bytes long: b's first n bytes, or b
// followed by copies of its last byte ('A' for an empty b).
func resized(b []byte, n int) []byte {
	out := make([]byte, n)
	k := copy(out, b)
	pad := byte('A')
	if len(b) > 0 {
		pad = b[len(b)-1]
	}
	for i := k; i < n; i++ {
		out[i] = pad
	}
	return out
}

// insertCmpOneIn is how rarely applyCmp inserts rather than replaces.
const insertCmpOneIn = 3

// replaceAt returns a copy of b with s.from at s.at replaced by s.to (or,
// with s.insert, s.to inserted before it), or false when b does not hold
// s.from there.
func replaceAt(b []byte, s cmpSub) ([]byte, bool) {
	if s.at > len(b) || len(s.from) > len(b)-s.at || !bytes.Equal(b[s.at:s.at+len(s.from)], s.from) {
		return nil, false
	}
	rest := b[s.at+len(s.from):]
	if s.insert {
		rest = b[s.at:]
	}
	out := make([]byte, 0, s.at+len(s.to)+len(rest))
	out = append(out, b[:s.at]...)
	out = append(out, s.to...)
	return append(out, rest...), true
}

func enc(v uint64, size int, big bool) []byte {
	b := make([]byte, size)
	writeInt(b, size, big, v)
	return b
}

// indexAll returns, in out's storage, the offsets of the first few (8)
// occurrences of sub in b (none for an empty sub, which would occur
// everywhere). Callers pass a slice of an array on their stack: nothing is
// allocated.
func indexAll(out []int, b, sub []byte) []int {
	if len(sub) == 0 {
		return out
	}
	out = out[:0]
	for off := 0; len(out) < 8 && off < len(b); {
		i := bytes.Index(b[off:], sub)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + 1
	}
	return out
}

// fixUpCandidate returns a copy of vals with one random substitution of
// subs applied (within the length limit), or false when the one drawn does
// not apply. subs must not be empty. It is the pure part of the worker's
// fix-up of a traced mutant.
func (m *mutator) fixUpCandidate(vals []any, subs []cmpSub) ([]any, bool) {
	cand := cloneValues(vals)
	return cand, m.applyBounded(cand, subs[m.pickBySite(subs)])
}

// pickBySite returns the index of a random substitution of subs (not
// empty), drawn by comparison site, then among the site's substitutions:
//   - A traced mutant that failed a check often also formatted an error:
//     fmt's loop compares every byte of the format with '%' and gives
//     dozens of substitutions from one site, which drawn uniformly would
//     outvote the one check that failed.
//   - Three times in four it draws among the sites that the base input's
//     trace did not have (m.cmp's), when there are any: the checks the
//     mutation newly reached; the base's own were offered by m.cmp already.
//
// It groups subs on each call (the fix-up draws twice per traced mutant),
// reusing the mutator's buffers.
func (m *mutator) pickBySite(subs []cmpSub) int {
	if m.baseSites == nil {
		m.baseSites = map[int64]bool{}
		for _, s := range m.cmp {
			m.baseSites[s.site] = true
		}
	}
	if m.siteAt == nil {
		m.siteAt = map[int64]int{}
	}
	clear(m.siteAt)
	m.siteOf, m.newSites = m.siteOf[:0], m.newSites[:0]
	for _, s := range subs {
		k, ok := m.siteAt[s.site]
		if !ok {
			k = len(m.siteAt)
			m.siteAt[s.site] = k
			if !m.baseSites[s.site] {
				m.newSites = append(m.newSites, int32(k))
			}
		}
		m.siteOf = append(m.siteOf, int32(k))
	}
	want := int32(m.r.IntN(len(m.siteAt)))
	if len(m.newSites) > 0 && m.r.IntN(4) != 0 {
		want = m.newSites[m.r.IntN(len(m.newSites))]
	}
	// One of the site's substitutions, by reservoir sampling.
	pick, seen := 0, 0
	for i, k := range m.siteOf {
		if k == want {
			seen++
			if m.r.IntN(seen) == 0 {
				pick = i
			}
		}
	}
	return pick
}
