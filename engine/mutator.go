package engine

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
)

// mutator changes input values in place. Each mutate call changes one or
// more values (several arguments at a time, unlike native Go fuzzing) and
// stacks a few operations on each. It is used by one worker goroutine.
type mutator struct {
	r      *rand.Rand
	maxLen int // maximum []byte/string length
	// resizeLen is the maximum length a resize substitution may ask for:
	// resizeFloor, or the length control's limit once it is above.
	resizeLen int
	// guideLen, when above maxLen, is the limit of substitutions from
	// comparisons, which are no blind growth (growthLimit).
	guideLen int
	// stall is how far the length control's limit has risen since the
	// corpus last grew (ipc.FuzzArgs.Stall): growthLimit's slack.
	stall  int
	dict   [][]byte // tokens to insert: -dict, auto-dictionary, comparison operands
	splice [][]any  // other corpus entries to cross over with
	cmp    []cmpSub // comparison-guided substitutions for the current base input

	// cmpMutant reports whether the last mutate applied a substitution
	// that replaced or resized a whole argument.
	cmpMutant bool

	// pickBySite's state: the sites of cmp (made on first use), and
	// buffers: site to group number, each substitution's group, the
	// groups of sites not in baseSites.
	baseSites map[int64]bool
	siteAt    map[int64]int
	siteOf    []int32
	newSites  []int32
}

func newMutator(seed uint64, maxLen int) *mutator {
	return &mutator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), maxLen: max(maxLen, 0)}
}

var (
	interesting8  = []int64{-128, -1, 0, 1, 16, 32, 64, 100, 127}
	interesting16 = []int64{-32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767, 65535}
	interesting32 = []int64{-2147483648, -100663046, -32769, 32768, 65536, 100663045, 2147483647, 4294967295}
	interesting64 = []int64{math.MinInt64, -1 << 32, 1 << 32, math.MaxInt64}
)

// mutate changes vals in place.
func (m *mutator) mutate(vals []any) {
	m.cmpMutant = false
	if len(vals) == 0 {
		return
	}
	if len(m.cmp) > 0 && m.r.IntN(4) == 0 {
		if m.applyCmp(vals) {
			return
		}
	}
	n := 1
	if len(vals) > 1 && m.r.IntN(3) == 0 {
		n = 1 + m.r.IntN(len(vals))
	}
	for range n {
		i := m.r.IntN(len(vals))
		vals[i] = m.mutateValue(vals, i)
	}
}

// traceMutant reports whether the worker traces the mutant mutate just
// made, to fix it up with substitutions from its own comparisons: every
// 32nd execution (execs counts them), and one in 8 mutants whose
// substitution replaced or resized a whole argument. Such a step often
// breaks a condition that depends on the value it changed (a slot moved to
// the constant it was compared with changes the length its record must
// have), and the mutant's own trace holds the fix. Substitutions inside a
// []byte/string value are not traced more: tracing every 8th of them cost
// a quarter of the CPU per execution on bench/targets/nobug.
func (m *mutator) traceMutant(execs int64) bool {
	return execs&31 == 31 || m.cmpMutant && m.r.IntN(8) == 0
}

func (m *mutator) mutateValue(vals []any, i int) any {
	switch v := vals[i].(type) {
	case []byte:
		return m.mutateBytes(v, i)
	case string:
		return string(m.mutateBytes([]byte(v), i))
	case bool:
		return !v
	case float32:
		return float32(m.mutateFloat(float64(v)))
	case float64:
		return m.mutateFloat(v)
	}
	k, b := numBits(vals[i])
	size, signed := intShape(k)
	return fromBits(k, m.mutateInt(b, size, signed))
}

// intShape returns the width in bytes and signedness of an integer kind.
func intShape(k byte) (int, bool) {
	switch k {
	case kInt8:
		return 1, true
	case kUint8:
		return 1, false
	case kInt16:
		return 2, true
	case kUint16:
		return 2, false
	case kInt32:
		return 4, true
	case kUint32:
		return 4, false
	case kInt, kInt64:
		return 8, true
	}
	return 8, false
}

func (m *mutator) mutateInt(v uint64, size int, signed bool) uint64 {
	mask := uint64(math.MaxUint64) >> (64 - 8*size)
	switch m.r.IntN(10) {
	case 0, 1: // small step, like native
		d := uint64(1 + m.r.IntN(100))
		if m.r.IntN(2) == 0 {
			v += d
		} else {
			v -= d
		}
	case 2: // large step
		d := m.r.Uint64() & (mask >> uint(m.r.IntN(8*size)))
		if m.r.IntN(2) == 0 {
			v += d
		} else {
			v -= d
		}
	case 3:
		v ^= 1 << uint(m.r.IntN(8*size))
	case 4:
		v = m.interesting(size)
	case 5: // byte swap
		v = bits.ReverseBytes64(v) >> (64 - 8*size)
	case 6:
		v = -v
	case 7:
		if t, ok := m.dictInt(size); ok {
			v = t
			break
		}
		v = m.r.Uint64()
	case 8:
		v = m.r.Uint64()
	default: // shift
		if m.r.IntN(2) == 0 {
			v <<= uint(1 + m.r.IntN(8))
		} else {
			v >>= uint(1 + m.r.IntN(8))
		}
	}
	v &= mask
	if signed && size < 8 && v&(1<<(8*size-1)) != 0 {
		v |= ^mask // sign-extend so fromBits' conversion keeps the value
	}
	return v
}

// interestingBySize holds, for integer widths 1, 2, 4 and 8, the
// interesting values that fit: built once, not per mutation.
var interestingBySize = func() map[int][]int64 {
	p2 := append(append([]int64(nil), interesting8...), interesting16...)
	p4 := append(append([]int64(nil), p2...), interesting32...)
	p8 := append(append([]int64(nil), p4...), interesting64...)
	return map[int][]int64{1: interesting8, 2: p2, 4: p4, 8: p8}
}()

func (m *mutator) interesting(size int) uint64 {
	pool := interestingBySize[size]
	if pool == nil {
		pool = interestingBySize[8]
	}
	return uint64(pool[m.r.IntN(len(pool))])
}

// dictInt returns a dictionary token of exactly size bytes read as a
// little-endian integer.
func (m *mutator) dictInt(size int) (uint64, bool) {
	if len(m.dict) == 0 {
		return 0, false
	}
	t := m.dict[m.r.IntN(len(m.dict))]
	if len(t) != size {
		return 0, false
	}
	var b [8]byte
	copy(b[:], t)
	return binary.LittleEndian.Uint64(b[:]), true
}

func (m *mutator) mutateFloat(v float64) float64 {
	switch m.r.IntN(8) {
	case 0:
		return v + float64(m.r.IntN(201)-100)
	case 1:
		return v * float64(m.r.IntN(201)-100)
	case 2:
		return v / float64(m.r.IntN(100)+1)
	case 3:
		specials := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
			math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32}
		return specials[m.r.IntN(len(specials))]
	case 4:
		return math.Float64frombits(math.Float64bits(v) ^ 1<<uint(m.r.IntN(64)))
	case 5:
		return math.Trunc(v)
	case 6:
		return -v
	}
	return float64(int64(m.r.Uint64())) / float64(1+m.r.IntN(1000))
}

// mutateBytes stacks 1 to 4 byte-level operations on b. idx is the position
// of the value, used to pick splice partners.
func (m *mutator) mutateBytes(b []byte, idx int) []byte {
	n := 1 << m.r.IntN(3)
	for range n {
		b = m.byteOp(b, idx)
	}
	if len(b) > m.maxLen {
		b = b[:m.maxLen]
	}
	return b
}

func (m *mutator) byteOp(b []byte, idx int) []byte {
	if len(b) == 0 {
		return m.insertBytes(b)
	}
	switch m.r.IntN(17) {
	case 0:
		return m.removeBytes(b)
	case 1, 2:
		return m.insertBytes(b)
	case 3:
		return m.duplicateBytes(b)
	case 4:
		return m.copyBytes(b)
	case 5:
		b[m.r.IntN(len(b))] ^= 1 << uint(m.r.IntN(8))
	case 6:
		b[m.r.IntN(len(b))] = byte(m.r.Uint32())
	case 7:
		i, j := m.r.IntN(len(b)), m.r.IntN(len(b))
		b[i], b[j] = b[j], b[i]
	case 8:
		return m.arithmetic(b)
	case 9:
		return m.overwriteInteresting(b)
	case 10, 11:
		return m.insertToken(b)
	case 12:
		return m.spliceBytes(b, idx)
	case 13:
		return m.shuffle(b)
	case 14:
		b[m.r.IntN(len(b))] = printable[m.r.IntN(len(printable))]
	case 15:
		return m.asciiInteger(b)
	default:
		return m.overwriteToken(b)
	}
	return b
}

// asciiInteger changes a decimal number written in b (the first run of
// digits from a random place on), as libFuzzer's ChangeASCIIInteger does: one
// more or less, halved, doubled or a random value below its square, written
// back in the same number of digits. Without digits it changes a byte to a
// digit.
func (m *mutator) asciiInteger(b []byte) []byte {
	i := m.r.IntN(len(b))
	for i < len(b) && !isDigit(b[i]) {
		i++
	}
	if i == len(b) {
		b[m.r.IntN(len(b))] = '0' + byte(m.r.IntN(10))
		return b
	}
	j := i
	var v uint64
	for j < len(b) && isDigit(b[j]) && j-i < 19 {
		v = v*10 + uint64(b[j]-'0')
		j++
	}
	switch m.r.IntN(5) {
	case 0:
		v++
	case 1:
		v--
	case 2:
		v /= 2
	case 3:
		v *= 2
	default:
		if v > 0 && v < 1<<32 {
			v = m.r.Uint64N(v * v)
		} else {
			v = m.r.Uint64()
		}
	}
	for k := j - 1; k >= i; k-- {
		b[k] = '0' + byte(v%10)
		v /= 10
	}
	return b
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

const printable = " \t\n!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// chunk returns a random length biased towards small values, at most max.
func (m *mutator) chunk(max int) int {
	if max <= 1 {
		return max
	}
	switch m.r.IntN(3) {
	case 0:
		return 1 + m.r.IntN(max)
	case 1:
		return 1 + m.r.IntN(min(max, 8))
	}
	return 1 + m.r.IntN(min(max, 32))
}

func (m *mutator) removeBytes(b []byte) []byte {
	n := m.chunk(len(b))
	i := m.r.IntN(len(b) - n + 1)
	return append(b[:i], b[i+n:]...)
}

func (m *mutator) insertBytes(b []byte) []byte {
	if len(b) >= m.maxLen {
		return b
	}
	n := min(m.chunk(64), m.maxLen-len(b))
	i := m.r.IntN(len(b) + 1)
	ins := make([]byte, n)
	switch m.r.IntN(3) {
	case 0:
		for k := range ins {
			ins[k] = byte(m.r.Uint32())
		}
	case 1:
		for k := range ins {
			ins[k] = printable[m.r.IntN(len(printable))]
		}
	default:
		c := byte(m.r.Uint32())
		for k := range ins {
			ins[k] = c
		}
	}
	return insertAt(b, i, ins)
}

func insertAt(b []byte, i int, ins []byte) []byte {
	out := make([]byte, 0, len(b)+len(ins))
	out = append(out, b[:i]...)
	out = append(out, ins...)
	return append(out, b[i:]...)
}

func (m *mutator) duplicateBytes(b []byte) []byte {
	n := min(m.chunk(len(b)), m.maxLen-len(b))
	if n <= 0 {
		return b
	}
	src := m.r.IntN(len(b) - n + 1)
	return insertAt(b, m.r.IntN(len(b)+1), append([]byte(nil), b[src:src+n]...))
}

func (m *mutator) copyBytes(b []byte) []byte {
	n := m.chunk(len(b))
	src, dst := m.r.IntN(len(b)-n+1), m.r.IntN(len(b)-n+1)
	copy(b[dst:dst+n], b[src:src+n])
	return b
}

func (m *mutator) shuffle(b []byte) []byte {
	n := m.chunk(min(len(b), 8))
	i := m.r.IntN(len(b) - n + 1)
	s := b[i : i+n]
	m.r.Shuffle(len(s), func(x, y int) { s[x], s[y] = s[y], s[x] })
	return b
}

// arithmetic adds a small delta to a 1, 2, 4 or 8-byte integer in b, in
// either byte order.
func (m *mutator) arithmetic(b []byte) []byte {
	size := 1 << m.r.IntN(4)
	if size > len(b) {
		size = 1
	}
	i := m.r.IntN(len(b) - size + 1)
	v := readInt(b[i:], size, m.r.IntN(2) == 0)
	d := uint64(1 + m.r.IntN(35))
	if m.r.IntN(2) == 0 {
		v += d
	} else {
		v -= d
	}
	writeInt(b[i:], size, m.r.IntN(2) == 0, v)
	return b
}

func (m *mutator) overwriteInteresting(b []byte) []byte {
	size := 1 << m.r.IntN(4)
	if size > len(b) {
		size = 1
	}
	i := m.r.IntN(len(b) - size + 1)
	writeInt(b[i:], size, m.r.IntN(2) == 0, m.interesting(size))
	return b
}

func (m *mutator) token() []byte {
	if len(m.dict) == 0 {
		return nil
	}
	return m.dict[m.r.IntN(len(m.dict))]
}

func (m *mutator) insertToken(b []byte) []byte {
	t := m.token()
	if t == nil || len(b)+len(t) > m.maxLen {
		return m.insertBytes(b)
	}
	return insertAt(b, m.r.IntN(len(b)+1), t)
}

func (m *mutator) overwriteToken(b []byte) []byte {
	t := m.token()
	if t == nil || len(t) > len(b) {
		return m.insertToken(b)
	}
	copy(b[m.r.IntN(len(b)-len(t)+1):], t)
	return b
}

// spliceBytes crosses b over with the same argument of another corpus
// entry: a prefix of one followed by a suffix of the other, or a chunk of
// the other inserted.
func (m *mutator) spliceBytes(b []byte, idx int) []byte {
	if len(m.splice) == 0 {
		return m.duplicateBytes(b)
	}
	other := m.splice[m.r.IntN(len(m.splice))]
	if idx >= len(other) {
		return b
	}
	var o []byte
	switch v := other[idx].(type) {
	case []byte:
		o = v
	case string:
		o = []byte(v)
	}
	if len(o) == 0 {
		return b
	}
	if m.r.IntN(2) == 0 {
		cut := m.r.IntN(len(b) + 1)
		ocut := m.r.IntN(len(o) + 1)
		out := append(append([]byte(nil), b[:cut]...), o[ocut:]...)
		return out
	}
	n := m.chunk(len(o))
	s := m.r.IntN(len(o) - n + 1)
	return insertAt(b, m.r.IntN(len(b)+1), append([]byte(nil), o[s:s+n]...))
}

func readInt(b []byte, size int, big bool) uint64 {
	var v uint64
	for k := 0; k < size; k++ {
		if big {
			v = v<<8 | uint64(b[k])
		} else {
			v |= uint64(b[k]) << (8 * k)
		}
	}
	return v
}

func writeInt(b []byte, size int, big bool, v uint64) {
	for k := 0; k < size; k++ {
		if big {
			b[size-1-k] = byte(v >> (8 * k))
		} else {
			b[k] = byte(v >> (8 * k))
		}
	}
}
