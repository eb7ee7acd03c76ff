//go:build unix

package typed

// BenchmarkHarness measures what typed arguments cost per execution: the
// work typed.Fuzz's fuzz function does for one input (decode the []byte
// into the arguments, call the function through reflect) against a
// hand-written []byte harness of the same target that decodes the same
// encoding by hand and calls the function directly. Both get the same
// inputs (valid encodings of varied values, like a corpus's) and do the
// same work on the decoded values; what testing.F.Fuzz does around them
// (its own reflect call of the []byte function) is the same for both and
// left out. The two run in alternating blocks of executions and are timed
// in process CPU time (getrusage, GC included), so that a loaded machine
// slows both alike: the benchmark reports each one's CPU ns per execution
// and typed's execs/s as a fraction of the hand-written harness's.
// bench/README.md ("Typed arguments (issue 25)") reports it:
//
//	go test -run='^$' -bench=Harness -count=5 ./typed

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchReq is the small target's argument.
type benchReq struct {
	Port   uint16
	Mode   string
	Tags   []string
	Strict bool
}

// benchOp is one operation of the sequence target.
type benchOp struct {
	Kind uint8
	Path string
	Size int32
}

var benchSink int

// serve is the small target: a few branches over the request.
func serve(r benchReq) int {
	n := int(r.Port)
	if r.Strict && strings.HasPrefix(r.Mode, "tls") {
		n++
	}
	for _, t := range r.Tags {
		n += len(t)
	}
	return n
}

// apply is the sequence target: a little state over the operations.
func apply(ops []benchOp) int {
	open := 0
	for _, op := range ops {
		switch op.Kind % 3 {
		case 0:
			open++
		case 1:
			open += int(op.Size) & 7
		default:
			open -= len(op.Path)
		}
	}
	return open
}

// benchInputs returns n valid encodings of random values of the argument
// types: what a corpus holds.
func benchInputs(tb testing.TB, n int, value func(r *rand.Rand) any) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([][]byte, n)
	for i := range out {
		b, err := Encode(value(r))
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = b
	}
	return out
}

func randString(r *rand.Rand) string {
	return strings.Repeat("ab/", r.IntN(4)) + "x"[:r.IntN(2)]
}

func randReq(r *rand.Rand) any {
	q := benchReq{Port: uint16(r.Uint32()), Mode: []string{"plain", "tls", "tls1.3", ""}[r.IntN(4)], Strict: r.IntN(2) == 0}
	for range r.IntN(4) {
		q.Tags = append(q.Tags, randString(r))
	}
	return q
}

func randOps(r *rand.Rand) any {
	var ops []benchOp
	for range r.IntN(8) {
		ops = append(ops, benchOp{Kind: uint8(r.IntN(4)), Path: randString(r), Size: int32(r.IntN(1 << 12))})
	}
	return ops
}

// byHand decodes the encoding (docs/typed.md) of the benchmark's argument
// types, as a hand-written []byte harness would. It handles the valid
// encodings benchInputs makes, not every byte string.
type byHand struct{ b []byte }

func (d *byHand) uvarint() uint64 {
	x, n := binary.Uvarint(d.b)
	d.b = d.b[n:]
	return x
}

func (d *byHand) str() string {
	n := d.uvarint()
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *byHand) req() benchReq {
	var q benchReq
	q.Port = binary.LittleEndian.Uint16(d.b)
	d.b = d.b[2:]
	q.Mode = d.str()
	if n := d.uvarint(); n > 0 {
		q.Tags = make([]string, n-1)
		for i := range q.Tags {
			q.Tags[i] = d.str()
		}
	}
	q.Strict = d.b[0]&1 == 1
	d.b = d.b[1:]
	return q
}

func (d *byHand) ops() []benchOp {
	n := d.uvarint()
	if n == 0 {
		return nil
	}
	ops := make([]benchOp, n-1)
	for i := range ops {
		ops[i].Kind = d.b[0]
		d.b = d.b[1:]
		ops[i].Path = d.str()
		ops[i].Size = int32(binary.LittleEndian.Uint32(d.b))
		d.b = d.b[4:]
	}
	return ops
}

// typedRun is what typed.Fuzz's fuzz function does with one input.
func typedRun(h *harness, t *testing.T, data []byte) {
	h.call(reflect.ValueOf(t), data)
}

// benchTargets are the benchmark's targets: the typed fuzz function and
// the hand-written []byte one, and the inputs.
func benchTargets(tb testing.TB) []struct {
	name   string
	typed  any
	byHand func(t *testing.T, data []byte)
	inputs [][]byte
} {
	return []struct {
		name   string
		typed  any
		byHand func(t *testing.T, data []byte)
		inputs [][]byte
	}{
		{"small", func(t *testing.T, q benchReq) { benchSink += serve(q) },
			func(t *testing.T, data []byte) {
				d := byHand{data[1:]}
				benchSink += serve(d.req())
			}, benchInputs(tb, 256, randReq)},
		{"ops", func(t *testing.T, ops []benchOp) { benchSink += apply(ops) },
			func(t *testing.T, data []byte) {
				d := byHand{data[1:]}
				benchSink += apply(d.ops())
			}, benchInputs(tb, 256, randOps)},
	}
}

// TestByHandAgrees checks that the hand-written decoders build the values
// typed decodes, so that both harnesses do the same work.
func TestByHandAgrees(t *testing.T) {
	for _, in := range benchInputs(t, 256, randReq) {
		var want benchReq
		if err := Decode(in, &want); err != nil {
			t.Fatal(err)
		}
		if got := (&byHand{in[1:]}).req(); !reflect.DeepEqual(got, want) {
			t.Fatalf("by hand %+v, typed %+v", got, want)
		}
	}
	for _, in := range benchInputs(t, 256, randOps) {
		var want []benchOp
		if err := Decode(in, &want); err != nil {
			t.Fatal(err)
		}
		if got := (&byHand{in[1:]}).ops(); !reflect.DeepEqual(got, want) {
			t.Fatalf("by hand %+v, typed %+v", got, want)
		}
	}
}

func BenchmarkHarness(b *testing.B) {
	t := &testing.T{}
	for _, bt := range benchTargets(b) {
		h, err := newHarness(bt.typed)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bt.name, func(b *testing.B) {
			const block = 512
			var typedCPU, handCPU time.Duration
			i := 0
			for b.Loop() {
				if i%block == 0 {
					typedCPU += cpuTime(b, func() {
						for j := range block {
							typedRun(h, t, bt.inputs[(i+j)%len(bt.inputs)])
						}
					})
					handCPU += cpuTime(b, func() {
						for j := range block {
							bt.byHand(t, bt.inputs[(i+j)%len(bt.inputs)])
						}
					})
				}
				i++
			}
			n := float64((i + block - 1) / block * block)
			b.ReportMetric(float64(typedCPU.Nanoseconds())/n, "typed-cpu-ns/exec")
			b.ReportMetric(float64(handCPU.Nanoseconds())/n, "byhand-cpu-ns/exec")
			b.ReportMetric(float64(handCPU)/float64(typedCPU), "typed/byhand-execs/s")
		})
	}
}

// BenchmarkMutate measures what fuzzbox's engine pays per typed mutation
// (harness.Mutate: decode into a tree, one to three changes, encode) on the
// same targets and inputs as BenchmarkHarness, in process CPU time: a cost
// a []byte harness's byte mutations do not have.
func BenchmarkMutate(b *testing.B) {
	for _, bt := range benchTargets(b) {
		h, err := newHarness(bt.typed)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bt.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, 4))
			start, i := rusage(b), 0
			for ; b.Loop(); i++ {
				h.Mutate(bt.inputs[i%len(bt.inputs)], r, nil, nil)
			}
			b.ReportMetric(float64((rusage(b)-start).Nanoseconds())/float64(i), "cpu-ns/mutation")
		})
	}
}

// BenchmarkMutateSameBase is BenchmarkMutate as the engine calls Mutate:
// many mutants of one base input (a fuzz call), then the next base.
func BenchmarkMutateSameBase(b *testing.B) {
	for _, bt := range benchTargets(b) {
		h, err := newHarness(bt.typed)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bt.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, 4))
			start, i := rusage(b), 0
			for ; b.Loop(); i++ {
				h.Mutate(bt.inputs[i/1000%len(bt.inputs)], r, nil, nil)
			}
			b.ReportMetric(float64((rusage(b)-start).Nanoseconds())/float64(i), "cpu-ns/mutation")
		})
	}
}

// cpuTime returns the process CPU time (user and system) fn takes.
func cpuTime(b *testing.B, fn func()) time.Duration {
	before := rusage(b)
	fn()
	return rusage(b) - before
}

func rusage(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
