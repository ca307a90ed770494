package wire

import (
	"fmt"
	"testing"
)

// A Decoder that decoded a few objects holds a few KiB of tables, not the
// 200 KiB its tables took from the first string on (a fixed cost every
// informer paid, ~20 KiB per object of an informer of ten).
func TestTablesStartSmall(t *testing.T) {
	d := Decoder{ReadOnly: true}
	for i := range 10 { // ten objects' worth of strings and spans
		for _, s := range []string{"default", "app.kubernetes.io/name", "widget", "Ready", "True"} {
			d.String([]byte(s))
			d.StringValue([]byte(s))
		}
		d.String(fmt.Appendf(nil, "widget-%05d", i))
		d.SharedJSON(fmt.Appendf(nil, `{"name":"widget-%05d"}`, i))
	}
	if got := d.tableBytes(); got > 8<<10 {
		t.Errorf("tables of a Decoder of ten objects: %d bytes, want at most 8 KiB", got)
	}
}

// tableBytes is the memory of the Decoder's fixed-layout tables.
func (d *Decoder) tableBytes() int {
	n := 16*len(d.strings.slots) + 4*len(d.strings.ghosts) + 16*len(d.boxes.slots) + 4*len(d.boxes.ghosts)
	if d.json != nil {
		n += 8*len(d.json.seen.bs) + 8*len(d.json.seen.as) + 16*len(d.json.seen.vals) + 4*len(d.json.seen.ghosts)
	}
	return n
}

// A few unique strings passing through do not grow the string table;
// repeats it loses for want of room do, and are then kept.
func TestStringTableGrowsOnlyForLostRepeats(t *testing.T) {
	var d Decoder
	for i := range 1000 { // fewer than missesPerSlot a slot
		d.String(fmt.Appendf(nil, "unique-%d", i))
	}
	if n := len(d.strings.slots); n != 2*firstSets {
		t.Fatalf("1,000 unique strings grew the table to %d slots", n)
	}
	// 3,000 strings, each repeated: far more than 128 slots hold.
	repeated := make([][]byte, 3000)
	for i := range repeated {
		repeated[i] = fmt.Appendf(nil, "label-value-%d", i)
	}
	for range 20 {
		for _, b := range repeated {
			d.String(b)
		}
	}
	if n := len(d.strings.slots); n < 4096 || n > internSlots {
		t.Fatalf("3,000 repeated strings: table of %d slots, want 4096-%d", n, internSlots)
	}
	// Interned strings come back as the same string; most of them must.
	hits := 0
	for _, b := range repeated {
		a := d.String(b)
		if data(a) == data(d.String(b)) && data(a) == data(d.String(b)) {
			hits++
		}
	}
	if hits < len(repeated)*9/10 {
		t.Errorf("%d of %d repeated strings interned after the table grew", hits, len(repeated))
	}
}

// The seen table grows with the spans it takes, up to seenSlots, so that
// a span that repeats every few hundred objects is still shared.
func TestSeenTableGrowsWithSpans(t *testing.T) {
	d := Decoder{ReadOnly: true}
	for i := range 50_000 {
		sharedValueOf(&d, fmt.Appendf(nil, `{"uid":"%d"}`, i), i)
	}
	if n := len(d.json.seen.bs); n != seenSlots {
		t.Fatalf("seen table of %d slots after 50,000 spans, want %d", n, seenSlots)
	}
	// A label set every 300 objects among five unique spans per object.
	shared := 0
	for i := range 3000 {
		for j := range 5 {
			sharedValueOf(&d, fmt.Appendf(nil, `{"object":%d,"part":%d}`, i, j), i)
		}
		span := fmt.Appendf(nil, `{"app":"app-%d"}`, i%300)
		if v, ok := sharedValueOf(&d, span, i%300); ok {
			if v.(int) != i%300 {
				t.Fatalf("span %s: shared value %v, want %d", span, v, i%300)
			}
			shared++
		}
	}
	// A table this large keeps keys alone (see maxValueSets): a span is
	// shared from its third sighting on, with the value of its second;
	// some go while the shared table learns their period (see below).
	if d.json.seen.as != nil || d.json.seen.vals != nil {
		t.Errorf("a seen table of %d slots keeps first-sighting values", len(d.json.seen.bs))
	}
	if want := 3000 - 600; shared < want*8/10 {
		t.Errorf("%d of %d later sightings shared", shared, want)
	}
}

// sharedValueOf returns the value shared for span, or stores v for it
// and reports false, as a decoder does.
func sharedValueOf(d *Decoder, span []byte, v any) (any, bool) {
	got, k, ok := d.SharedJSON(span)
	if ok {
		return got, true
	}
	if k != (JSONKey{}) {
		d.ShareJSON(k, v)
	}
	return nil, false
}

// Growing keeps every string the table held.
func TestStringTableGrowKeepsEntries(t *testing.T) {
	var d Decoder
	for i := range 2 * firstSets {
		d.String(fmt.Appendf(nil, "s-%d", i))
	}
	var held []string
	for _, s := range d.strings.slots {
		if s != "" {
			held = append(held, s)
		}
	}
	d.strings.grow()
	for _, s := range held {
		if got := d.String([]byte(s)); data(got) != data(s) {
			t.Errorf("%q lost when the table grew", s)
		}
	}
}

// Values seen exactly twice (a time two objects hold) do not pile up in
// the shared table, and values used again and again stay shared.
func TestSharedTableSweepsValuesNotUsedAgain(t *testing.T) {
	d := Decoder{ReadOnly: true}
	share := func(span []byte, v int) bool {
		got, k, ok := d.SharedJSON(span)
		if ok {
			if got.(int) != v {
				t.Fatalf("span %s: shared value %v, want %d", span, got, v)
			}
			return true
		}
		if k != (JSONKey{}) {
			d.ShareJSON(k, v)
		}
		return false
	}
	hits := 0
	const objects = 20_000
	for i := range objects {
		// Each object's time is the next one's too: seen twice, stored
		// at its second sighting, never used.
		share(fmt.Appendf(nil, `"t-%d"`, i), i)
		share(fmt.Appendf(nil, `"t-%d"`, i+1), i+1)
		if share(fmt.Appendf(nil, `{"app":"app-%d"}`, i%100), i%100) && i >= objects/2 {
			hits++
		}
	}
	if n := len(d.json.shared.m); n > 1024 {
		t.Errorf("%d values held after %d objects, want at most 1024", n, objects)
	}
	if want := objects / 2; hits < want*99/100 {
		t.Errorf("%d of the last %d label sets shared", hits, want)
	}
}

// A span is shared from its second sighting on with the value decoded at
// its first (a label set repeating once in a thousand objects costs one
// map, not two); a value is handed out only for its own span; and
// values whose span never comes back leave the table as other spans
// pass, which holds at most one value a slot.
func TestSeenTableSharesFirstSighting(t *testing.T) {
	d := Decoder{ReadOnly: true}
	labels := []byte(`{"app":"web","tier":"frontend"}`)
	first := &[]string{"first"}
	if _, ok := sharedValueOf(&d, labels, first); ok {
		t.Fatal("a span seen for the first time came back shared")
	}
	if _, ok := sharedValueOf(&d, []byte(`{"app":"web","tier":"backend"}`), &[]string{"other"}); ok {
		t.Fatal("a different span got a shared value")
	}
	for i := range 3 {
		v, ok := sharedValueOf(&d, labels, &[]string{"later"})
		if !ok || v != any(first) {
			t.Fatalf("sighting %d: %v, %v; want the first sighting's value", i+2, v, ok)
		}
	}

	// Spans seen once: the table keeps at most one value a slot, and the
	// first of them is gone once many others have passed.
	once := &[]string{"once"}
	sharedValueOf(&d, []byte(`{"uid":"once"}`), once)
	for i := range 100_000 {
		sharedValueOf(&d, fmt.Appendf(nil, `{"uid":"%d"}`, i), i)
	}
	held := 0
	for _, v := range d.json.seen.vals {
		if v != nil {
			held++
		}
		if v == any(once) {
			t.Error("a value seen once is still held after 100,000 other spans")
		}
	}
	if n := len(d.json.seen.bs); n > seenSlots || held > n {
		t.Errorf("seen table of %d slots holding %d values, want at most %d", n, held, seenSlots)
	}
	if v, ok := sharedValueOf(&d, labels, nil); !ok || v != any(first) {
		t.Error("a shared value was lost to spans seen once")
	}
}

// A Copied Decoder (whose objects are copied and dropped) holds no value
// for a span seen once, and shares a repeated span from its third
// sighting on, with the value of its second.
func TestCopiedDecoderHoldsNoFirstSightings(t *testing.T) {
	d := Decoder{ReadOnly: true, Copied: true}
	span := []byte(`{"app":"web"}`)
	values := []any{&[]int{1}, &[]int{2}, &[]int{3}, &[]int{4}}
	var got []any
	for _, v := range values {
		if shared, ok := sharedValueOf(&d, span, v); ok {
			got = append(got, shared)
		} else {
			got = append(got, v)
		}
		if d.json.seen.vals != nil {
			t.Fatalf("the seen table of a Copied decoder holds values: %d slots", len(d.json.seen.vals))
		}
	}
	if got[0] != values[0] || got[1] != values[1] || got[2] != values[1] || got[3] != values[1] {
		t.Errorf("values %v, want the first, then the second's three times", got)
	}
}
