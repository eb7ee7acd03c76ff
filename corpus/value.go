package corpus

import (
	"fmt"
	"go/token"
	"math"
	"strconv"
)

// A literal is the argument of a value line as the toolchain sees it.
type literal struct {
	kind token.Token // INT, FLOAT, IMAG, CHAR, STRING, or IDENT for true and false
	text string      // source text; "-" prefixed when negated; "+Inf", "-Inf", "NaN" for the float names
}

// convert turns the argument of a conversion to typ into a value, accepting
// exactly what the toolchain accepts for each type.
func convert(typ string, lit literal) (any, error) {
	switch typ {
	case "[]byte", "string":
		if lit.kind != token.STRING {
			return nil, fmt.Errorf("%s needs a string literal", typ)
		}
		s, err := strconv.Unquote(lit.text)
		if err != nil {
			return nil, fmt.Errorf("malformed string literal")
		}
		if typ == "string" {
			return s, nil
		}
		return []byte(s), nil
	case "bool":
		if lit.kind != token.IDENT {
			return nil, fmt.Errorf("bool needs true or false")
		}
		return lit.text == "true", nil
	case "byte", "rune":
		return convertChar(typ, lit)
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		if lit.kind != token.INT {
			return nil, fmt.Errorf("%s needs an integer literal", typ)
		}
		return convertInt(typ, lit.text)
	case "float32", "float64":
		return convertFloat(typ, lit)
	case "float32-bits", "float64-bits":
		return convertBits(typ, lit)
	}
	return nil, fmt.Errorf("unsupported type %s", typ)
}

// convertChar accepts an integer or a character literal for byte and rune.
func convertChar(typ string, lit literal) (any, error) {
	if lit.kind == token.INT {
		if typ == "byte" {
			return convertInt("uint8", lit.text)
		}
		return convertInt("int32", lit.text)
	}
	if lit.kind != token.CHAR || len(lit.text) < 2 || lit.text[0] != '\'' {
		return nil, fmt.Errorf("%s needs a character or integer literal", typ)
	}
	r, _, _, err := strconv.UnquoteChar(lit.text[1:len(lit.text)-1], '\'')
	if err != nil {
		return nil, fmt.Errorf("malformed character literal")
	}
	if typ == "rune" {
		return r, nil
	}
	if r >= 256 {
		return nil, fmt.Errorf("character %s does not fit in a byte", lit.text)
	}
	return byte(r), nil
}

// convertInt parses text (any Go integer base) as an integer of type typ.
func convertInt(typ, text string) (any, error) {
	var bits int
	switch typ {
	case "int", "int64", "uint", "uint64":
		bits = 64 // int and uint values are read as 64 bits, as the toolchain does
	case "int8", "uint8":
		bits = 8
	case "int16", "uint16":
		bits = 16
	case "int32", "uint32":
		bits = 32
	}
	if typ[0] == 'u' {
		u, err := strconv.ParseUint(text, 0, bits)
		if err != nil {
			return nil, numError(typ, text, err)
		}
		return sizedUint(typ, u), nil
	}
	i, err := strconv.ParseInt(text, 0, bits)
	if err != nil {
		return nil, numError(typ, text, err)
	}
	return sizedInt(typ, i), nil
}

func sizedInt(typ string, i int64) any {
	switch typ {
	case "int":
		return int(i)
	case "int8":
		return int8(i)
	case "int16":
		return int16(i)
	case "int32":
		return int32(i)
	}
	return i
}

func sizedUint(typ string, u uint64) any {
	switch typ {
	case "uint":
		return uint(u)
	case "uint8":
		return uint8(u)
	case "uint16":
		return uint16(u)
	case "uint32":
		return uint32(u)
	}
	return u
}

func numError(typ, text string, err error) error {
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return fmt.Errorf("%s out of range for %s", text, typ)
	}
	return fmt.Errorf("%s is not a valid %s", text, typ)
}

func convertFloat(typ string, lit literal) (any, error) {
	if lit.kind != token.FLOAT && lit.kind != token.INT {
		return nil, fmt.Errorf("%s needs a float or integer literal", typ)
	}
	if typ == "float32" {
		f, err := strconv.ParseFloat(lit.text, 32)
		if err != nil {
			return nil, numError(typ, lit.text, err)
		}
		return float32(f), nil
	}
	f, err := strconv.ParseFloat(lit.text, 64)
	if err != nil {
		return nil, numError(typ, lit.text, err)
	}
	return f, nil
}

// convertBits reads math.Float32frombits and math.Float64frombits arguments.
// The toolchain also lets a float literal through to the bits parser for
// float64 (where it always fails), so only INT can succeed either way.
func convertBits(typ string, lit literal) (any, error) {
	if lit.kind != token.INT {
		return nil, fmt.Errorf("math.Float%sfrombits needs an integer literal", typ[5:7])
	}
	if typ == "float32-bits" {
		u, err := strconv.ParseUint(lit.text, 0, 32)
		if err != nil {
			return nil, numError("uint32", lit.text, err)
		}
		return math.Float32frombits(uint32(u)), nil
	}
	u, err := strconv.ParseUint(lit.text, 0, 64)
	if err != nil {
		return nil, numError("uint64", lit.text, err)
	}
	return math.Float64frombits(u), nil
}
