package cborwire

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// memoEntry is a managedFields-like map of the leaves keys, nested under
// "f:spec", its keys written in the order perm gives.
func memoEntry(keys []string, perm []int) []byte {
	in := item(h(majorMap, 1), bstr("f:spec"), h(majorMap, uint64(len(keys))))
	for _, i := range perm {
		in = append(in, bstr(keys[i])...)
		in = append(in, 0xa0)
	}
	return in
}

// An item equal to one transcoded earlier in the decode, its keys in
// another order, gives the same JSON (from the memo, from its third
// sighting), and each call returns bytes the caller may copy.
func TestTranscodeJSONMemoWhateverTheKeyOrder(t *testing.T) {
	keys := []string{"f:a", "f:replicas", `k:{"uid":"1234"}`, "f:image", "f:long-name-of-a-field-past-sixteen-bytes"}
	r := rand.New(rand.NewPCG(3, 4))
	var items [][]byte
	for range 6 {
		items = append(items, memoEntry(keys, r.Perm(len(keys))))
	}
	other := memoEntry(keys[:4], []int{3, 2, 1, 0})
	items = append(items, other, items[0], other, other)
	in := h(majorArray, uint64(len(items)))
	for _, it := range items {
		in = append(in, it...)
	}
	d := NewDecoder(in, nil)
	n, ok := d.OpenArray("list")
	if !ok {
		t.Fatal(d.Err())
	}
	for i := 0; d.NextElem(i, n); i++ {
		got, ok := d.TranscodeJSONMemo()
		if !ok {
			t.Fatalf("item %d: %v", i, d.Err())
		}
		want, err := ToJSON(items[i])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("item %d: %s, want %s", i, got, want)
		}
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, s := range d.memo.slots {
		if s.end > 0 {
			kept++
		}
	}
	if kept != 2 {
		t.Fatalf("%d items kept, want 2 (the two seen more than once)", kept)
	}
}

// A malformed item after its well-formed twins (a duplicate key in place
// of another, a text string that is not UTF-8, a truncated end) is an
// error as it is without the memo.
func TestTranscodeJSONMemoRefusesBadTwins(t *testing.T) {
	good := item(h(majorMap, 2), bstr("f:a"), h(majorMap, 0), bstr("f:b"), []byte{0x61, 'x'})
	bad := [][]byte{
		item(h(majorMap, 2), bstr("f:a"), h(majorMap, 0), bstr("f:a"), []byte{0x61, 'x'}),
		item(h(majorMap, 2), bstr("f:a"), h(majorMap, 0), bstr("f:b"), []byte{0x61, 0xff}),
		good[:len(good)-1],
	}
	for i, b := range bad {
		in := item(h(majorArray, 4), good, good, good, b)
		d := NewDecoder(in, nil)
		n, _ := d.OpenArray("list")
		for j := 0; d.NextElem(j, n); j++ {
			d.TranscodeJSONMemo()
		}
		if d.End() == nil {
			t.Errorf("bad twin %d: no error", i)
		}
	}
}

// The memo holds the transcodings of one decode: Reset empties it.
func TestTranscodeJSONMemoResets(t *testing.T) {
	good := item(h(majorMap, 2), bstr("f:a"), h(majorMap, 0), bstr("f:b"), h(majorMap, 0))
	d := NewDecoder(item(h(majorArray, 2), good, good), nil)
	n, _ := d.OpenArray("list")
	for j := 0; d.NextElem(j, n); j++ {
		d.TranscodeJSONMemo()
	}
	if d.End() != nil || d.memo == nil || len(d.memo.buf) == 0 {
		t.Fatalf("nothing kept: %v", d.End())
	}
	d.Reset(good)
	if len(d.memo.buf) != 0 || d.memo.slots != ([memoSlots]memoSlot{}) {
		t.Fatal("Reset kept the memo")
	}
}
