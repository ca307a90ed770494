package boxes

import (
	"strconv"
	"testing"
)

// The runtime's boxing against an Arena's, over the values of a small
// dynamic object (strings, large integers, floats, short arrays).
var benchStrings = func() []string {
	s := make([]string, 64)
	for i := range s {
		s[i] = "value-" + strconv.Itoa(i)
	}
	return s
}()

var benchSink []any

func BenchmarkBoxRuntime(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		out := benchSink[:0]
		for i, s := range benchStrings {
			e := []any{s}
			out = append(out, any(s), any(int64(1000+i)), any(float64(i)+0.5), any(e))
		}
		benchSink = out
	}
}

func BenchmarkBoxArena(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var a Arena
		const left = 4096
		out := benchSink[:0]
		for i, s := range benchStrings {
			e := a.Elems(1, left)
			e[0] = a.String(s, left)
			out = append(out, a.String(s, left), a.Int(int64(1000+i), left), a.Float(float64(i)+0.5, left), a.Slice(e, left))
		}
		benchSink = out
	}
}
