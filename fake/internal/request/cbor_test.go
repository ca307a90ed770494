package request

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
)

// The CBOR of a JSON document reads back (through the client's
// transcoder) as the same document, and uses kube-apiserver's forms.
func TestJSONToCBORRoundTrip(t *testing.T) {
	js := []byte(`{"kind":"Widget","spec":{"n":-7,"big":9007199254740993,"half":1.5,"single":0.1875,"double":0.1,"tiny":5.960464477539063e-08,"s":"héllo \"q\"","nil":null,"empty":{},"list":[true,false,[],1e300]}}`)
	b, err := JSONToCBOR(js)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0xd9, 0xd9, 0xf7}) {
		t.Fatalf("no self-described tag: % x", b[:3])
	}
	back, err := cborwire.ToJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	if err := json.Unmarshal(js, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(back, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\n got %s\nwant %s", back, js)
	}
	// 1.5 is a half, 0.1875 a half too, 0.1 needs a double; keys are
	// byte strings.
	for _, frag := range [][]byte{{0xf9, 0x3e, 0x00}, {0xf9, 0x32, 0x00}, {0xfb, 0x3f, 0xb9, 0x99, 0x99}, {0x44, 'k', 'i', 'n', 'd'}, {0xf9, 0x00, 0x01}} {
		if !bytes.Contains(b, frag) {
			t.Errorf("CBOR lacks % x: % x", frag, b)
		}
	}
	if bytes.Contains(b, []byte{0x64, 'k', 'i', 'n', 'd'}) {
		t.Error("a key is a text string; kube-apiserver writes byte strings")
	}
}

func TestExactHalf(t *testing.T) {
	for _, tc := range []struct {
		f  float32
		h  uint16
		ok bool
	}{{0, 0, true}, {1, 0x3c00, true}, {-2, 0xc000, true}, {65504, 0x7bff, true}, {65520, 0, false}, {0.1, 0, false}, {5.9604645e-08, 0x0001, true}, {1.0 / 3, 0, false}} {
		h, ok := exactHalf(tc.f)
		if ok != tc.ok || (ok && h != tc.h) {
			t.Errorf("exactHalf(%v) = %#x, %v; want %#x, %v", tc.f, h, ok, tc.h, tc.ok)
		}
	}
}

// Whatever JSON a body or a stored object holds, its CBOR never panics
// the encoder and reads back as the same document.
func FuzzJSONToCBOR(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1.5,-0.0,1e300,"x",null,true]`, `{"big":18446744073709551615,"neg":-9223372036854775808}`, `"\ud83d\ude00"`, `{"a":{"b":[{}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, js []byte) {
		var want any
		if json.Unmarshal(js, &want) != nil {
			return
		}
		b, err := JSONToCBOR(js)
		if err != nil {
			return // beyond what the encoder takes (depth, numbers): an error, not a panic
		}
		back, err := cborwire.ToJSON(b)
		if err != nil {
			t.Fatalf("CBOR of %s does not read back: %v", js, err)
		}
		var got any
		if err := json.Unmarshal(back, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip:\n got %s\nwant %s", back, js)
		}
	})
}
