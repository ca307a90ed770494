package randfill

import (
	"math"
	"math/rand/v2"
	"reflect"
	"time"
)

// Filler fills values through reflection.
type Filler struct {
	Rand *rand.Rand
	// MaxDepth bounds the nesting of pointers, slices and maps; deeper
	// ones are left nil. Zero means 6.
	MaxDepth int
	// Custom makes the values of types that reflection cannot fill
	// (unexported fields, invariants such as a Quantity's): given the
	// Filler, it returns a value of the map key's type.
	Custom map[reflect.Type]func(*Filler) reflect.Value
	// NaN lets floats be NaN or infinite, which encoding/json refuses.
	NaN bool
}

// Strings are the strings Fill picks from (besides random ASCII): ones
// encoding/json escapes in each of its ways.
func Strings() []string {
	return []string{
		"", "a", "name-1", "<b>&amp;</b>", "\u2028\u2029", "\xff\xfe", "é\u00e9😀", "\"\\/\b\f\n\r\t",
		"\x00\x01\x1f\x7f", "a\xc3", "kube-system", "app.kubernetes.io/name", " spaced out ",
	}
}

// Floats are the floats Fill picks from (besides random ones).
func Floats() []float64 {
	return []float64{
		0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1.5e21, 123456789.125,
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, math.SmallestNonzeroFloat32, 3.4e38, 1e-45,
	}
}

// Fill sets the value p points to.
func (f *Filler) Fill(p any) {
	v := reflect.ValueOf(p).Elem()
	f.value(v, 0)
}

func (f *Filler) maxDepth() int {
	if f.MaxDepth == 0 {
		return 6
	}
	return f.MaxDepth
}

// String returns a string from Strings or random ASCII.
func (f *Filler) String() string {
	s := Strings()
	if n := f.Rand.IntN(len(s) + 4); n < len(s) {
		return s[n]
	}
	b := make([]byte, f.Rand.IntN(12))
	for i := range b {
		b[i] = byte(0x20 + f.Rand.IntN(0x5f))
	}
	return string(b)
}

// Float returns a float from Floats, a random one, or (with NaN) NaN or
// an infinity.
func (f *Filler) Float() float64 {
	fs := Floats()
	n := f.Rand.IntN(len(fs) + 6)
	switch {
	case n < len(fs):
		x := fs[n]
		if f.Rand.IntN(2) == 0 {
			x = -x
		}
		return x
	case f.NaN && n == len(fs):
		return math.NaN()
	case f.NaN && n == len(fs)+1:
		return math.Inf(1 - 2*f.Rand.IntN(2))
	}
	return (f.Rand.Float64() - 0.5) * math.Pow(10, float64(f.Rand.IntN(40)-20))
}

// Any returns a value as Unstructured holds them.
func (f *Filler) Any(depth int) any {
	n := f.Rand.IntN(8)
	if depth >= f.maxDepth() {
		n %= 5
	}
	switch n {
	case 0:
		return nil
	case 1:
		return f.String()
	case 2:
		return f.Rand.Int64() >> f.Rand.IntN(64)
	case 3:
		return f.Float()
	case 4:
		return f.Rand.IntN(2) == 0
	case 5, 6:
		m := map[string]any{}
		for range f.Rand.IntN(4) {
			m[f.String()] = f.Any(depth + 1)
		}
		return m
	}
	s := make([]any, f.Rand.IntN(4))
	for i := range s {
		s[i] = f.Any(depth + 1)
	}
	return s
}

func (f *Filler) value(v reflect.Value, depth int) {
	if mk, ok := f.Custom[v.Type()]; ok {
		v.Set(mk(f))
		return
	}
	if v.Type() == reflect.TypeFor[time.Time]() {
		t := time.Unix(f.Rand.Int64N(1<<33), f.Rand.Int64N(2)*f.Rand.Int64N(1e9)).UTC()
		v.Set(reflect.ValueOf(t))
		return
	}
	deep := depth >= f.maxDepth()
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(f.Rand.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := f.Rand.Int64() >> f.Rand.IntN(64)
		if f.Rand.IntN(2) == 0 {
			x = -x
		}
		if f.Rand.IntN(4) == 0 {
			x = 0
		}
		v.SetInt(x) // truncated to the kind's size
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x := f.Rand.Uint64() >> f.Rand.IntN(65)
		v.SetUint(x)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(f.Float())
	case reflect.String:
		v.SetString(f.String())
	case reflect.Pointer:
		if deep || f.Rand.IntN(4) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		f.value(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch n := f.Rand.IntN(6); {
		case n == 0 || deep:
			v.SetZero()
		case n == 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				f.value(s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			f.value(v.Index(i), depth+1)
		}
	case reflect.Map:
		switch n := f.Rand.IntN(6); {
		case n == 0 || deep:
			v.SetZero()
		default:
			m := reflect.MakeMap(v.Type())
			for range n - 1 {
				k := reflect.New(v.Type().Key()).Elem()
				f.value(k, depth+1)
				e := reflect.New(v.Type().Elem()).Elem()
				f.value(e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Interface:
		if v.NumMethod() == 0 {
			if x := f.Any(depth); x != nil {
				v.Set(reflect.ValueOf(x))
				return
			}
		}
		v.SetZero()
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.value(v.Field(i), depth)
			}
		}
	}
}
