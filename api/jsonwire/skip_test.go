package jsonwire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var skipInputs = []string{
	`{}`, `[]`, `{ }`, `[ ]`, `0`, `-0.5e+10`, `"a\"b\\c\u00e9"`, `true`, `false`, `null`,
	`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"k:{\"type\":\"Ready\"}":{}}`,
	`[1, [2, {"a" : [true, false, null]}], "x"]`,
	`{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":}`, `[01]`, `tru`, `nul`, `"\x"`, "\"a\x01\"", `"\u12G4"`,
	`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	`{"a":[1,2}`, `{"a":"b"]`, `[1 2]`, `-`, `1.`, `1e`, `"unterminated`, "\"\xff\"",
}

// checkSkip checks that Skip (fast, falling back) and the token reader
// agree on where a value ends and on the error.
func checkSkip(t *testing.T, in string) {
	fast, slow := NewDecoder([]byte(in), nil), NewDecoder([]byte(in), nil)
	fast.Skip()
	slow.skipSlow()
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	if fast.pos != slow.pos || errText(fast.err) != errText(slow.err) {
		t.Fatalf("%q: Skip ends at %d (%v), the token reader at %d (%v)", in, fast.pos, fast.err, slow.pos, slow.err)
	}
	d := NewDecoder([]byte(in), nil)
	raw, compact := d.RawCompact()
	if d.err != nil {
		return
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err == nil && compact && !bytes.Equal(buf.Bytes(), raw) {
		t.Fatalf("%q: RawCompact says compact, json.Compact gives %q", in, buf.Bytes())
	}
}

func TestSkip(t *testing.T) {
	for _, in := range skipInputs {
		checkSkip(t, in)
		checkSkip(t, " "+in+" ")
		checkSkip(t, strings.ReplaceAll(in, ",", " , "))
	}
}

func TestSkipBeyondTrackedDepth(t *testing.T) {
	deep := strings.Repeat("[", skipMaxDepth+10) + strings.Repeat("]", skipMaxDepth+10)
	d := NewDecoder([]byte(deep), nil)
	d.Skip()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	tooDeep := strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1)
	d = NewDecoder([]byte(tooDeep), nil)
	d.Skip()
	if d.Err() == nil {
		t.Fatal("no error for nesting beyond DefaultMaxDepth")
	}
}

func FuzzSkip(f *testing.F) {
	for _, in := range skipInputs {
		f.Add(in)
	}
	f.Fuzz(checkSkip)
}
