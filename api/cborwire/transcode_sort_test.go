package cborwire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// Keys equal in their first 16 bytes, keys that are prefixes of others
// and keys holding zero bytes sort as encoding/json sorts them: the
// sort compares the first 16 bytes as words before the whole keys.
func TestToJSONSortsKeysSharingLongPrefixes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("\x00ab")
	for round := range 200 {
		n := 1 + r.IntN(30)
		m := map[string]any{}
		for len(m) < n {
			k := []byte("f:0123456789abcd") // 16 bytes every key may share
			k = k[:r.IntN(len(k)+1)]
			for range r.IntN(6) {
				k = append(k, alphabet[r.IntN(len(alphabet))])
			}
			m[string(k)] = int64(len(m))
		}
		// Reverse-sorted keys: every map needs sorting.
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sortDesc(keys)
		in := h(majorMap, uint64(len(keys)))
		for _, k := range keys {
			in = append(in, bstr(k)...)
			in = appendHead(in, majorUint, uint64(m[k].(int64)))
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ToJSON(in)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: ToJSON = %q, want %q", round, got, want)
		}
		// The first key again (it sorts last) is a duplicate.
		dup := append(h(majorMap, uint64(len(keys)+1)), in[len(h(majorMap, uint64(len(keys)))):]...)
		dup = append(append(dup, bstr(keys[0])...), 0x01)
		if _, err := ToJSON(dup); err == nil {
			t.Fatalf("round %d: a duplicate key %q was not an error", round, keys[0])
		}
	}
}

func sortDesc(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j-1] < s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}

// A map of more members than a sort word can index sorts as well.
func TestToJSONSortsHugeMaps(t *testing.T) {
	const n = indexMask + 100
	m := make(map[string]any, n)
	in := h(majorMap, n)
	for i := n - 1; i >= 0; i-- {
		k := string(rune('a'+i%3)) + "x" + string(rune('0'+i%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i/100%10)) + string(rune('0'+i/1000%10)) + string(rune('0'+i/10000%10))
		m[k] = int64(i)
		in = append(in, bstr(k)...)
		in = appendHead(in, majorUint, uint64(i))
	}
	want, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ToJSON(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Errorf("ToJSON of %d members differs from encoding/json's at byte %d: %q vs %q", n, i, got[max(i-40, 0):min(i+40, len(got))], want[max(i-40, 0):min(i+40, len(want))])
	}
}
