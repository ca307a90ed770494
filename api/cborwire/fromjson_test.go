package cborwire

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

// treeFromJSON is how FromJSON worked before it transcoded in one pass:
// the JSON decoded into a tree of Go values, the tree encoded. The
// one-pass FromJSON must write the same bytes, and refuse what it
// refuses.
func treeFromJSON(js []byte) ([]byte, error) {
	d := jsonwire.NewDecoder(js, nil)
	v := d.Any()
	if err := d.End(); err != nil {
		return nil, err
	}
	return AppendValue(AppendSelfDescribed(nil), v)
}

// checkFromJSONAsTree fails unless FromJSON and treeFromJSON write the
// same bytes for js, or both refuse it with an error matching
// wire.ErrMalformed. It reports whether js was accepted.
func checkFromJSONAsTree(t *testing.T, js []byte) bool {
	t.Helper()
	want, errWant := treeFromJSON(js)
	got, errGot := FromJSON(js)
	switch {
	case errWant != nil && errGot != nil:
		if !errors.Is(errGot, wire.ErrMalformed) {
			t.Fatalf("FromJSON(%.200q): error %v does not match wire.ErrMalformed", js, errGot)
		}
		return false
	case errWant != nil || errGot != nil:
		t.Fatalf("FromJSON(%.200q): tree says %v, one pass says %v", js, errWant, errGot)
	case !bytes.Equal(got, want):
		t.Fatalf("FromJSON(%.200q):\n got %x\nwant %x", js, got, want)
	}
	return true
}

// fromJSONCases are inputs on every path of the transcoder: member
// order, duplicate keys, heads past one byte, escapes, invalid UTF-8,
// the edges of int64 and float64, and malformed JSON of each kind.
func fromJSONCases() []string {
	many := func(n int, item func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = item(i)
		}
		return strings.Join(parts, ",")
	}
	key := func(i int) string { return `"k` + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + `":` }
	return []string{
		`{}`, `[]`, `""`, `0`, `-0`, `true`, `false`, `null`, " \t\r\n{ } \n",
		`{"b":1,"a":2}`, `{"a":1,"b":2}`, `{"a":{"z":1,"y":[{"q":1,"p":2}]},"A":0}`,
		`{"a":1,"a":2}`, `{"b":1,"a":2,"b":3,"a":{"x":1}}`, `{"a":1,"\u0061":2}`,
		`{"\u00ff":1,"ÿ":2}`, `{"\xff":1,"\xfe":2}`, `{"a":1,"b":2,"a":3}`,
		`{"ab":1,"a":2,"abc":3,"":4,"b":5}`,
		`{` + many(23, func(i int) string { return key(i) + "1" }) + `}`,
		`{` + many(24, func(i int) string { return key(i) + "1" }) + `}`,
		`{` + many(300, func(i int) string { return key(299-i) + `"v"` }) + `}`,
		`{` + many(30, func(i int) string { return key(i%10) + "[1]" }) + `}`,
		`[` + many(23, func(int) string { return "1" }) + `]`,
		`[` + many(24, func(int) string { return "[]" }) + `]`,
		`[` + many(70000, func(int) string { return "0" }) + `]`,
		`"` + strings.Repeat("x", 23) + `"`, `"` + strings.Repeat("x", 24) + `"`, `"` + strings.Repeat("é", 40000) + `"`,
		`"\"\\\/\b\f\n\r\t"`, `"\u0000\u001f\u2028\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`,
		`"\ud83d\ud83d\ude00"`, `"\uD83D\uDE00"`, "\"a\xffb\xc3\"", "\"\xed\xa0\x80\"", `"<&>"`,
		`1`, `-1`, `23`, `24`, `255`, `256`, `65536`, `4294967296`, `-24`, `-25`,
		`9223372036854775807`, `9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`,
		`18446744073709551615`, `99999999999999999999`, `0.5`, `1.0`, `-0.0`, `1e2`, `1E+2`, `1e-2`,
		`1e308`, `1e309`, `-1e400`, `1e-400`, `4.9e-324`, `123456789.125`,
		// Malformed.
		``, ` `, `{`, `}`, `[`, `]`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `[1,]`, `[,1]`, `[1 2]`, `{"a":1 "b":2}`,
		`{a:1}`, `{"a" 1}`, `{1:1}`, `"abc`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"a\nb\"", `"\`, `tru`, `nul`, `falsey`,
		`-`, `01`, `1.`, `.5`, `1e`, `1e+`, `+1`, `--1`, `1 2`, `{} x`, "{}\x00", "\x00", `[1]]`, `NaN`, `Infinity`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10000) + "1" + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
		strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
		strings.Repeat("[", 10000),
	}
}

func TestFromJSONAsTree(t *testing.T) {
	accepted := 0
	for _, js := range fromJSONCases() {
		if checkFromJSONAsTree(t, []byte(js)) {
			accepted++
		}
	}
	if accepted < 60 {
		t.Errorf("only %d cases accepted: the comparison checks too little", accepted)
	}
}

// Every JSON body kube-apiserver gave the fixtures (objects, lists,
// watch events, tables, errors, discovery) converts as the tree did.
func TestFromJSONFixturesAsTree(t *testing.T) {
	accepted := 0
	err := filepath.WalkDir("../../testdata", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".body") && !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if checkFromJSONAsTree(t, b) {
			accepted++
		}
		// Each line of a watch stream is a JSON value too.
		for line := range bytes.SplitSeq(b, []byte("\n")) {
			if len(line) > 0 && len(line) < len(b) {
				checkFromJSONAsTree(t, line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if accepted < 50 {
		t.Errorf("only %d fixtures were JSON", accepted)
	}
}

// Malformed JSON from a user's MarshalJSON is an error, never a panic,
// and nothing of it is returned.
func TestFromJSONMalformed(t *testing.T) {
	for _, js := range []string{`{"a":1`, `{"a":[1,2}`, `{"a":"\ud8"}`, `[1e999]`, `{"a":1}{}`, "\"\x01\""} {
		got, err := FromJSON([]byte(js))
		if err == nil || got != nil || !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("FromJSON(%q) = %x, %v; want nil and an error matching wire.ErrMalformed", js, got, err)
		}
	}
}

// The one-pass FromJSON and the tree write the same bytes for any
// input, or both refuse it.
func FuzzFromJSON(f *testing.F) {
	for _, js := range fromJSONCases() {
		if len(js) < 4096 {
			f.Add([]byte(js))
		}
	}
	f.Fuzz(func(t *testing.T, js []byte) {
		checkFromJSONAsTree(t, js)
	})
}
