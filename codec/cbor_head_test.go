package codec

import (
	"bytes"
	"errors"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
)

// An object under a tag other than the self-described one (a wrong magic
// number, a date or bignum tag) is malformed, as a body and as a watch
// event's object; the self-described tag, once or repeated, and no tag
// at all decode.
func TestCBORObjectHead(t *testing.T) {
	obj, err := cborwire.FromJSON([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`))
	if err != nil {
		t.Fatal(err)
	}
	untagged := obj[3:]
	for name, tc := range map[string]struct {
		body []byte
		ok   bool
	}{
		"self-described":       {obj, true},
		"untagged":             {untagged, true},
		"self-described twice": {append([]byte{0xd9, 0xd9, 0xf7}, obj...), true},
		"tag 55800":            {append([]byte{0xd9, 0xd9, 0xf8}, untagged...), false},
		"tag 1":                {append([]byte{0xc1}, untagged...), false},
		"tag 2 after 55799":    {append([]byte{0xd9, 0xd9, 0xf7, 0xc2}, untagged...), false},
	} {
		t.Run(name, func(t *testing.T) {
			var u unstructured.Unstructured
			err := DecodeCBOR(tc.body, &u)
			if tc.ok != (err == nil) || (err != nil && !errors.Is(err, ErrMalformed)) {
				t.Errorf("body: %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && u.GetName() != "a" {
				t.Errorf("decoded %v", u.Object)
			}
			// The same object in an ADDED event.
			ev := []byte{0xd9, 0xd9, 0xf7, 0xa2, 0x44, 't', 'y', 'p', 'e', 0x45, 'A', 'D', 'D', 'E', 'D', 0x46, 'o', 'b', 'j', 'e', 'c', 't'}
			ev = append(ev, tc.body...)
			w, err := NewWatchDecoder(MediaTypeCBORSequence, bytes.NewReader(ev), WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got unstructured.Unstructured
			_, err = w.NextObject(&got)
			if tc.ok != (err == nil) || (err != nil && !errors.Is(err, ErrMalformed)) {
				t.Errorf("watch event: %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
