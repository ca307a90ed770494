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
// sighting; so do its maps within other items).
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
	d.memo = &jsonMemo{short1: 1, short2: 2} // fixed seeds: no slot shared by chance
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
	if kept != 4 {
		t.Fatalf("%d maps kept, want 4 (the two items seen more than once and their inner maps)", kept)
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

// A map repeated inside items that differ elsewhere (a managedFields
// entry naming its object's owner) is copied from the memo from its
// third sighting, and every item's JSON stays its own.
func TestTranscodeJSONMemoSharedSubtrees(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	spec := []string{".", "f:replicas", "f:image", "f:template"}
	var items [][]byte
	for i := range 8 {
		owner := bstr(`k:{"uid":"` + string(rune('a'+i)) + `"}`)
		meta := item(h(majorMap, 1), bstr("f:ownerReferences"), h(majorMap, 1), owner, h(majorMap, 0))
		inner := memoEntry(spec, r.Perm(len(spec)))[len(item(h(majorMap, 1), bstr("f:spec"))):]
		if i%2 == 0 {
			items = append(items, item(h(majorMap, 2), bstr("f:metadata"), meta, bstr("f:spec"), inner))
		} else {
			items = append(items, item(h(majorMap, 2), bstr("f:spec"), inner, bstr("f:metadata"), meta))
		}
	}
	in := h(majorArray, uint64(len(items)))
	for _, it := range items {
		in = append(in, it...)
	}
	d := NewDecoder(in, nil)
	d.memo = &jsonMemo{short1: 1, short2: 2} // fixed seeds: no slot shared by chance
	n, _ := d.OpenArray("list")
	for i := 0; d.NextElem(i, n); i++ {
		got, ok := d.TranscodeJSONMemo()
		want, err := ToJSON(items[i])
		if !ok || err != nil || !bytes.Equal(got, want) {
			t.Fatalf("item %d: %s (%v), want %s (%v)", i, got, d.Err(), want, err)
		}
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if want := `{".":{},"f:image":{},"f:replicas":{},"f:template":{}}`; string(d.memo.buf) != want {
		t.Fatalf("memo holds %s, want only the repeated map %s", d.memo.buf, want)
	}
}

// A member made of a key and an empty map gets the key bytesKey gives
// its bytes whichever of itemKey's paths reads it (a one-byte head, a
// two-byte head, a longer one): a member keyed two ways would miss its
// twins. The key of a map of one member is its member's key, mixed.
func TestMemoMemberKeyOfEveryLength(t *testing.T) {
	m := &jsonMemo{short1: 0x1234567890abcdef, short2: 0xfedcba0987654321}
	for l := 0; l <= 300; l++ {
		member := append(bstr("f:"+string(bytes.Repeat([]byte{'x'}, l))), 0xa0)
		in := append(h(majorMap, 1), member...)
		in = append(in, make([]byte, 8)...) // room past the item, as in a list
		got, end, ok := m.itemKey(in, 0, len(in), 0)
		if !ok || end != len(in)-8 {
			t.Fatalf("key of %d: ok %v, end %d of %d", len(member), ok, end, len(in)-8)
		}
		if want := (memoKey{}).plus(m.bytesKey(member)).mixed('m'<<32 | 1); got != want {
			t.Errorf("member of %d bytes: itemKey %x, bytesKey %x", len(member), got, want)
		}
	}
}
