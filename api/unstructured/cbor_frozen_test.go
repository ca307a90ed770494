package unstructured

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/wire"
)

// checkFreezeCBOR freezes the object in data through DecodeCBOR and
// Freeze, and straight through a CBORFreezer, and checks that both
// agree: both fail, or both thaw to the same object with the same
// header.
func checkFreezeCBOR(t *testing.T, z *CBORFreezer, data []byte) {
	t.Helper()
	var u Unstructured
	wantErr := cborwire.Decode(data, &u, nil)
	d := cborwire.NewDecoder(data, nil)
	f, err := z.Freeze(d)
	if err == nil {
		err = d.End()
	}
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("FreezeCBOR error %v, DecodeCBOR error %v", err, wantErr)
	}
	if err != nil {
		if !errors.Is(err, wire.ErrMalformed) {
			t.Fatalf("error %v does not match wire.ErrMalformed", err)
		}
		return
	}
	want, _, ok := freeze(&u, nil, nil) // the encoding without references to repeated strings, which FreezeCBOR does not write
	if !ok {
		t.Fatalf("Freeze refused %v", u.Object)
	}
	if diff := cmp.Diff(want.Thaw().Object, f.Thaw().Object); diff != "" {
		t.Fatalf("thawed objects differ (-DecodeCBOR +FreezeCBOR):\n%s", diff)
	}
	if f.Name() != want.Name() || f.ResourceVersion() != want.ResourceVersion() || f.UID() != want.UID() {
		t.Fatalf("header %q %q %q, want %q %q %q", f.Name(), f.ResourceVersion(), f.UID(), want.Name(), want.ResourceVersion(), want.UID())
	}
	if f.Size() != want.Size() {
		t.Fatalf("size %d, Freeze's %d", f.Size(), want.Size())
	}
}

// cborSeeds are CBOR objects of every kind of value, in the forms a
// server may send (indefinite lengths, tags, byte-string keys), and
// broken ones.
func cborSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, js := range []string{
		`{"apiVersion":"v1","kind":"K","metadata":{"name":"n","resourceVersion":"7","uid":"u-1","labels":{"a":"b"}},"spec":{"i":[1,-2,300,9223372036854775807,-9223372036854775808,18446744073709551615],"f":1.5,"s":"é","b":[true,false,null],"e":{},"a":[]}}`,
		`{"metadata":{"name":7}}`, `{"metadata":[]}`, `{}`, `null`, `[]`, `"s"`,
	} {
		cb, err := cborwire.FromJSON([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, cb)
	}
	names, _ := filepath.Glob(filepath.Join(fixtures, "cbor", "widget*.cbor.body"))
	for _, n := range names {
		rel, _ := filepath.Rel(fixtures, n)
		seeds = append(seeds, readFixture(t, rel))
	}
	return append(seeds,
		// an indefinite map holding an indefinite array, with tags
		[]byte{0xd9, 0xd9, 0xf7, 0xbf, 0x41, 'a', 0x9f, 0x01, 0xc1, 0x02, 0xff, 0x48, 'm', 'e', 't', 'a', 'd', 'a', 't', 'a', 0xbf, 0x44, 'n', 'a', 'm', 'e', 0x41, 'x', 0xff, 0xff},
		[]byte{0xa2, 0x41, 'a', 0x01, 0x41, 'a', 0x02},              // a duplicate key
		[]byte{0xbf, 0x41, 'a', 0x01, 0x41, 'a', 0x02, 0xff},        // one in an indefinite map
		[]byte{0xa1, 0x41, 'a', 0xf9, 0x7c, 0x00},                   // an infinity
		[]byte{0xa1, 0x61, 0xff, 0x01},                              // a key of invalid UTF-8
		[]byte{0xa1, 0x01, 0x01},                                    // an integer key
		[]byte{0xa1, 0x41, 'a', 0x9b, 0, 0, 0, 1, 0, 0, 0, 0, 0x01}, // a huge count
		[]byte(strings.Repeat("\xa1\x41a", 20000)),                  // too deep
	)
}

func TestFreezeCBORMatchesDecodeAndFreeze(t *testing.T) {
	var z CBORFreezer // one freezer: scratch kept between objects must not leak
	for i, in := range cborSeeds(t) {
		t.Run(string(rune('a'+i%26)), func(t *testing.T) { checkFreezeCBOR(t, &z, in) })
	}
}

// A map of more than 8 keys (the duplicate check's hash table) with a
// duplicate among them is refused; one without is kept.
func TestFreezeCBORManyKeys(t *testing.T) {
	var z CBORFreezer
	for _, dup := range []bool{false, true} {
		b := []byte{0xb8, 20}
		for i := range 20 {
			k := byte('a' + i)
			if dup && i == 19 {
				k = 'c'
			}
			b = append(b, 0x41, k, 0x01)
		}
		checkFreezeCBOR(t, &z, b)
	}
}

// A duplicate key is named in the error, as the other CBOR decoders
// name it, in a small map (compared pairwise) and a large one (hashed).
func TestFreezeCBORNamesTheDuplicateKey(t *testing.T) {
	var z CBORFreezer
	large := []byte{0xb8, 20}
	for i := range 20 {
		large = append(large, 0x41, byte('a'+i%19), 0x01) // the 20th key is "a" again
	}
	for name, b := range map[string][]byte{
		"small": {0xa2, 0x41, 'a', 0x01, 0x41, 'a', 0x02},
		"large": large,
	} {
		_, err := z.Freeze(cborwire.NewDecoder(b, nil))
		if !errors.Is(err, wire.ErrMalformed) || !strings.Contains(err.Error(), `duplicate key "a"`) {
			t.Errorf("%s: %v, want an error matching ErrMalformed naming \"a\"", name, err)
		}
	}
}

func FuzzFreezeCBOR(f *testing.F) {
	for _, s := range cborSeeds(f) {
		f.Add(s)
	}
	var z CBORFreezer
	f.Fuzz(func(t *testing.T, in []byte) { checkFreezeCBOR(t, &z, in) })
}

// TestCBORFreezerExactSize: a frozen object read from CBOR allocates no
// more than its size, as Freeze's does: capacity slack kept alive in a
// cache put small objects in the next size class (a 128-byte object in
// 160 bytes).
func TestCBORFreezerExactSize(t *testing.T) {
	const size = 128 // a size class of Go's allocator
	var obj map[string]any
	for n := range size {
		o := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": strings.Repeat("n", n), "resourceVersion": "7", "uid": "u"}}
		if f, _, _ := Freeze(&Unstructured{Object: o}, nil); f.Size() == size {
			obj = o
			break
		}
	}
	if obj == nil {
		t.Fatalf("no object of %d frozen bytes", size)
	}
	in, err := cborwire.AppendValue(nil, obj)
	if err != nil {
		t.Fatal(err)
	}
	var z CBORFreezer
	d := cborwire.NewDecoder(in, nil)
	freeze := func() {
		d.Reset(in)
		f, err := z.Freeze(d)
		if err != nil || f.Size() != size {
			t.Fatalf("size %d, error %v", f.Size(), err)
		}
	}
	freeze() // z's and d's scratch space
	const runs = 2000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		freeze()
	}
	runtime.ReadMemStats(&after)
	// The Frozen's bytes are the one allocation left; the average is
	// off by at most a span's worth over the runs.
	if got := float64(after.TotalAlloc-before.TotalAlloc) / runs; got > size+8 {
		t.Errorf("a %d-byte frozen object allocated %.0f bytes", size, got)
	}
}
