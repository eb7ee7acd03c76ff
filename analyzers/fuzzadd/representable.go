package fuzzadd

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"golang.org/x/tools/go/analysis"
)

// representable reports whether the constant tv can be converted to the basic
// type t without loss, so that "t(value)" is a valid fix.
func representable(pass *analysis.Pass, tv types.TypeAndValue, t types.Type) bool {
	b, ok := t.(*types.Basic)
	if !ok {
		return false
	}
	v := tv.Value
	info := b.Info()
	switch {
	case info&types.IsBoolean != 0:
		return v.Kind() == constant.Bool
	case info&types.IsString != 0:
		return v.Kind() == constant.String
	case info&types.IsInteger != 0:
		return fitsInt(pass, v, b)
	case b.Kind() == types.Float32:
		f := constant.ToFloat(v)
		x, _ := constant.Float64Val(f)
		return f.Kind() == constant.Float && math.Abs(x) <= math.MaxFloat32
	case b.Kind() == types.Float64:
		f := constant.ToFloat(v)
		x, _ := constant.Float64Val(f)
		return f.Kind() == constant.Float && !math.IsInf(x, 0)
	}
	return false
}

func fitsInt(pass *analysis.Pass, v constant.Value, b *types.Basic) bool {
	i := constant.ToInt(v)
	if i.Kind() != constant.Int {
		return false
	}
	bits := uint(8 * pass.TypesSizes.Sizeof(b))
	if b.Info()&types.IsUnsigned != 0 {
		max := constant.Shift(constant.MakeInt64(1), token.SHL, bits)
		return constant.Sign(i) >= 0 && constant.Compare(i, token.LSS, max)
	}
	lim := constant.Shift(constant.MakeInt64(1), token.SHL, bits-1)
	return constant.Compare(i, token.LSS, lim) && constant.Compare(i, token.GEQ, constant.UnaryOp(token.SUB, lim, 0))
}
