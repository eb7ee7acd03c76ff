package fuzzutil

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"golang.org/x/tools/go/analysis"
)

// Representable reports whether the constant tv can be converted to the
// basic type t without loss, so that "t(value)" is a valid fix.
func Representable(pass *analysis.Pass, tv types.TypeAndValue, t types.Type) bool {
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
	case info&types.IsComplex != 0:
		return fitsComplex(v, b.Kind() == types.Complex64)
	}
	return false
}

// fitsComplex reports whether v converts to complex128, or to complex64 if
// small is set.
func fitsComplex(v constant.Value, small bool) bool {
	c := constant.ToComplex(v)
	if c.Kind() != constant.Complex {
		return false
	}
	re, _ := constant.Float64Val(constant.Real(c))
	im, _ := constant.Float64Val(constant.Imag(c))
	if small {
		return math.Abs(re) <= math.MaxFloat32 && math.Abs(im) <= math.MaxFloat32
	}
	return !math.IsInf(re, 0) && !math.IsInf(im, 0)
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

// Untyped reports whether the constant expression e is untyped in the source
// (a literal, an untyped named constant, or an operation on those).
func Untyped(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		k, ok := info.Uses[e].(*types.Const)
		if !ok {
			return false
		}
		b, ok := k.Type().(*types.Basic)
		return ok && b.Info()&types.IsUntyped != 0
	case *ast.UnaryExpr:
		return Untyped(info, e.X)
	case *ast.BinaryExpr:
		if e.Op == token.SHL || e.Op == token.SHR {
			return Untyped(info, e.X)
		}
		return Untyped(info, e.X) && Untyped(info, e.Y)
	}
	return false
}
