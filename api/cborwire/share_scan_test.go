package cborwire

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kubewire/kubewire/api/wire"
)

// The keys of shared items are computed by a scan that does not check
// string contents; input a plain decode refuses is refused through a
// ReadOnly table too, even when its twin with a byte-string key or
// value (which decodes, U+FFFD replacing the bad bytes) was shared
// before.
func TestReadOnlyRefusesWhatPlainRefuses(t *testing.T) {
	bad := "\xff\xfe"
	text := func(s string) []byte { return append(h(majorText, uint64(len(s))), s...) }
	nested := func(key []byte) []byte {
		return item(h(majorMap, 2), bstr("name"), bstr("o"),
			bstr("spec"), h(majorMap, 1), key, h(majorMap, 1), bstr("x"), h(majorUint, 1))
	}
	scalar := func(val []byte) []byte {
		return item(h(majorMap, 2), bstr("name"), bstr("o"),
			bstr("spec"), h(majorMap, 1), bstr("k"), val)
	}
	for _, tc := range []struct {
		name      string
		good, bad []byte
	}{
		{"map key", nested(bstr(bad)), nested(text(bad))},
		{"string value", scalar(bstr(bad)), scalar(text(bad))},
		{"NaN", scalar([]byte{0xfb, 0, 0, 0, 0, 0, 0, 0, 0}), scalar([]byte{0xfb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := &wire.Decoder{ReadOnly: true}
			for range 3 { // kept from the second sighting on
				d := NewDecoder(tc.good, table)
				d.AnyObject()
				if err := d.End(); err != nil {
					t.Fatalf("the good twin: %v", err)
				}
			}
			d := NewDecoder(tc.bad, table)
			d.AnyObject()
			if err := d.End(); err == nil || !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("read-only decode of bad input: error %v, want malformed", err)
			}
		})
	}
}

// Nesting that defeats the scan (every level holds more than
// maxReusedItem bytes, so every level scans again) keeps the bytes
// scanned within the budget, linear in the input, and decodes.
func TestScanWorkIsBounded(t *testing.T) {
	const depth, width = 3000, maxReusedItem + 10
	var in []byte
	for range depth {
		in = append(in, h(majorArray, 1)...)
	}
	// Elements past every level's limit: each level's scan fails there.
	in = append(in, h(majorArray, width)...)
	in = append(in, make([]byte, width)...) // zeros: integers
	d := NewDecoder(in, &wire.Decoder{ReadOnly: true})
	d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if limit := scanBudget*len(in) + 2*maxReusedItem; d.scanWork > limit {
		t.Errorf("scanned %d bytes of a %d-byte input, more than %d", d.scanWork, len(in), limit)
	}
	if d.scanWork == 0 {
		t.Error("nothing was scanned: the test does not reach the scan")
	}
}

// A list too large to share whole (its scan stops at maxReusedItem)
// keeps the records of the objects its scan finished: the decode of
// those objects asks for their items' keys without scanning them again,
// gets the keys a fresh scan gives, and objects past the limit are
// scanned when asked for.
func TestTooLargeScanKeepsFinishedItems(t *testing.T) {
	const objects = 2000 // about 50 KiB: past maxReusedItem
	var in []byte
	in = append(in, h(majorArray, objects)...)
	var starts []int // of each object's inner map
	for i := range objects {
		in = append(in, h(majorMap, 2)...)
		in = append(in, bstr("name")...)
		in = append(in, bstr(fmt.Sprintf("o-%05d", i))...)
		in = append(in, bstr("labels")...)
		starts = append(starts, len(in))
		in = append(in, item(h(majorMap, 1), bstr("app"), bstr("x"))...)
	}
	if len(in) <= maxReusedItem {
		t.Fatalf("input of %d bytes does not pass the limit", len(in))
	}
	table := &wire.Decoder{ReadOnly: true}
	d := NewDecoder(in, table)
	if _, _, ok := d.scannedKey(0); ok {
		t.Fatal("the whole list was scanned: it should pass maxReusedItem")
	}
	after := d.scanWork
	fresh := func(at int) wire.JSONKey {
		f := NewDecoder(in, table)
		f.pos = at // as a decode asks: for the item it is at
		k, _, ok := f.scannedKey(at)
		if !ok {
			t.Fatalf("fresh scan at %d failed", at)
		}
		return k
	}
	early := starts[10]
	d.pos = early
	k, end, ok := d.scannedKey(early)
	if !ok || k != fresh(early) || end != early+len(item(h(majorMap, 1), bstr("app"), bstr("x"))) {
		t.Fatalf("finished item at %d: key %v end %d ok %v, want the fresh scan's", early, k, end, ok)
	}
	if d.scanWork != after {
		t.Errorf("an item the list's scan finished was scanned again (%d -> %d bytes)", after, d.scanWork)
	}
	late := starts[objects-1]
	d.pos = late
	if k, _, ok := d.scannedKey(late); !ok || k != fresh(late) {
		t.Fatalf("item past the limit: key %v ok %v, want the fresh scan's", k, ok)
	}
	if d.scanWork == after {
		t.Error("an item past the list's scan was not scanned")
	}
}

// A read-only decode's first scan of a list (records for every map up
// to maxReusedItem) sizes its records once from the input instead of
// growing them from nothing, which allocated about twice their final
// size on every decode of a list.
func TestListScanSizesItsRecordsOnce(t *testing.T) {
	const objects = 400 // 2 maps in about 180 bytes each: past maxReusedItem
	var in []byte
	in = append(in, h(majorArray, objects)...)
	for i := range objects {
		in = append(in, h(majorMap, 2)...)
		in = append(in, bstr("name")...)
		in = append(in, bstr(fmt.Sprintf("o-%0150d", i))...)
		in = append(in, bstr("labels")...)
		in = append(in, item(h(majorMap, 1), bstr("app"), bstr("x"))...)
	}
	table := &wire.Decoder{ReadOnly: true}
	allocs := testing.AllocsPerRun(20, func() {
		d := Decoder{buf: in, Table: table}
		d.scannedKey(0)
	})
	if allocs > 1 {
		t.Errorf("a list's scan allocated %v times, want its records once", allocs)
	}
}
