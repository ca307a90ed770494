package api_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
)

// kube-apiserver's CBOR (CBORServingAndStorage on) and its JSON for the
// same state of the same custom resources decode to equal values:
// objects and lists as Unstructured, and metadata and Status through the
// generated decoders; plain and read-only alike.
func TestCBORFixturesDecodeAsJSON(t *testing.T) {
	pairs := []struct{ cbor, json string }{
		{"cbor/widget-rich.cbor", "cbor/widget-rich.json"},
		{"cbor/widgets.cbor", "cbor/widgets.json"},
	}
	for _, p := range pairs {
		t.Run(p.cbor, func(t *testing.T) {
			cb, js := load(t, p.cbor).Body, load(t, p.json).Body
			if string(cb[:3]) != "\xd9\xd9\xf7" {
				t.Fatalf("fixture does not start with the self-described tag: % x", cb[:3])
			}
			var fromJSON, fromCBOR unstructured.UnstructuredList
			if err := jsonwire.Decode(js, &fromJSON, nil); err != nil {
				// An object, not a list.
				var uj, uc unstructured.Unstructured
				if err := jsonwire.Decode(js, &uj, nil); err != nil {
					t.Fatal(err)
				}
				for _, table := range []*wire.Decoder{nil, {ReadOnly: true}} {
					uc = unstructured.Unstructured{}
					if err := cborwire.Decode(cb, &uc, table); err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(uj.Object, uc.Object); d != "" {
						t.Fatalf("CBOR decodes differently (-json +cbor):\n%s", d)
					}
					var mj, mc metav1.ObjectMeta
					if err := jsonwire.Decode(mustJSON(t, uj.Object["metadata"]), &mj, nil); err != nil {
						t.Fatal(err)
					}
					if err := cborwire.Decode(metadataCBOR(t, cb), &mc, table); err != nil {
						t.Fatal(err)
					}
					if d := cmp.Diff(mj, mc); d != "" {
						t.Fatalf("ObjectMeta decodes differently (-json +cbor):\n%s", d)
					}
				}
				return
			}
			for _, table := range []*wire.Decoder{nil, {ReadOnly: true}} {
				fromCBOR = unstructured.UnstructuredList{}
				if err := cborwire.Decode(cb, &fromCBOR, table); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(fromJSON, fromCBOR); d != "" {
					t.Fatalf("CBOR list decodes differently (-json +cbor):\n%s", d)
				}
			}
		})
	}
}

// A Status in CBOR (the body of a 404) reads as the JSON one would.
func TestCBORStatus(t *testing.T) {
	var st metav1.Status
	if err := cborwire.Decode(load(t, "cbor/notfound.cbor").Body, &st, nil); err != nil {
		t.Fatal(err)
	}
	if st.Code != 404 || st.Reason != metav1.StatusReasonNotFound || st.Details == nil || st.Details.Name != "nope" || st.Kind != "Status" {
		t.Errorf("Status = %+v", st)
	}
}

// metadataCBOR returns the CBOR of the "metadata" entry of the object cb.
func metadataCBOR(t *testing.T, cb []byte) []byte {
	t.Helper()
	d := cborwire.NewDecoder(cb, nil)
	n, ok := d.OpenMap("object")
	for i := 0; ok && d.NextKey(i, n); i++ {
		if string(d.Key()) == "metadata" {
			return d.Raw()
		}
		d.Skip()
	}
	t.Fatalf("no metadata: %v", d.Err())
	return nil
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := jsonwire.Encode(&anyValue{v})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type anyValue struct{ v any }

func (a *anyValue) EncodeJSON(e *jsonwire.Encoder) error { e.Any(a.v); return e.Err() }
