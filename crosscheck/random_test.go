package crosscheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

type upstreamMessage interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

type kubewireMessage interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

type messagePair struct {
	name     string
	upstream func() upstreamMessage
	kubewire func() kubewireMessage
}

// objectsPerType is how many random objects each type is checked with.
const objectsPerType = 20

// filler returns a randfill that produces values upstream can round-trip:
// its special types get valid content instead of random bytes.
func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.25).NumElements(0, 3).MaxDepth(7).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			switch c.Intn(4) {
			case 0:
				*q = *resource.NewMilliQuantity(c.Int63n(1_000_000), resource.DecimalSI)
			case 1:
				*q = *resource.NewQuantity(c.Int63n(1<<40), resource.BinarySI)
			case 2:
				*q = *resource.NewScaledQuantity(c.Int63n(1000), resource.Scale(c.Intn(10)-3))
			default:
				*q = resource.MustParse(fmt.Sprintf("%de%d", c.Intn(1000), c.Intn(6)))
			}
		},
		func(t *metav1.Time, c randfill.Continue) {
			*t = metav1.Unix(c.Int63n(4_000_000_000), 0)
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(metav1.Unix(c.Int63n(4_000_000_000), c.Int63n(1_000_000)*1000).Time)
		},
		func(r *runtime.RawExtension, c randfill.Continue) {
			if c.Intn(2) == 0 {
				r.Raw = []byte(fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"%d"}}`, c.Intn(100)))
			}
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.Raw = []byte(fmt.Sprintf(`{"f:metadata":{"f:labels":{"f:k%d":{}}}}`, c.Intn(100)))
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Intn(2) == 0 {
				*v = intstr.FromInt32(c.Int31())
			} else {
				*v = intstr.FromString(fmt.Sprintf("%d%%", c.Intn(100)))
			}
		},
		func(j *apiextensionsv1.JSON, c randfill.Continue) {
			j.Raw = []byte(fmt.Sprintf(`{"n":%d}`, c.Intn(100)))
		},
		func(j *apiextensionsv1.JSONSchemaPropsOrBool, c randfill.Continue) {
			if c.Intn(2) == 0 {
				j.Allows = c.Intn(2) == 0
				return
			}
			j.Allows = true
			j.Schema = &apiextensionsv1.JSONSchemaProps{Type: "string"}
		},
		func(j *apiextensionsv1.JSONSchemaPropsOrArray, c randfill.Continue) {
			if c.Intn(2) == 0 {
				j.Schema = &apiextensionsv1.JSONSchemaProps{Type: "integer"}
				return
			}
			j.JSONSchemas = []apiextensionsv1.JSONSchemaProps{{Type: "string"}, {Type: "boolean"}}
		},
		func(j *apiextensionsv1.JSONSchemaPropsOrStringArray, c randfill.Continue) {
			if c.Intn(2) == 0 {
				j.Schema = &apiextensionsv1.JSONSchemaProps{Type: "object"}
				return
			}
			j.Property = []string{"a", "b"}
		},
	)
}

// TestRandomObjectsMatchUpstream fills every upstream message type with
// random content, encodes it with the upstream code, and checks that
// kubewire decodes it to the same JSON and encodes it to the same bytes.
// This proves field numbers, wire types and JSON names for every type,
// including those no fixture covers.
func TestRandomObjectsMatchUpstream(t *testing.T) {
	for i, pair := range messagePairs() {
		t.Run(pair.name, func(t *testing.T) {
			fill := filler(int64(i) + 1)
			for n := 0; n < objectsPerType; n++ {
				up := pair.upstream()
				fill.Fill(up)
				checkPair(t, pair, up)
			}
		})
	}
}

func checkPair(t *testing.T, pair messagePair, filled upstreamMessage) {
	t.Helper()
	raw, err := filled.Marshal()
	if err != nil {
		t.Fatalf("upstream marshal: %v", err)
	}
	// Let upstream normalise its own value first (it drops what its
	// decoder drops, such as sub-second parts of Time).
	up := pair.upstream()
	if err := up.Unmarshal(raw); err != nil {
		t.Fatalf("upstream unmarshal: %v", err)
	}
	want, err := up.Marshal()
	if err != nil {
		t.Fatalf("upstream re-marshal: %v", err)
	}
	kw := pair.kubewire()
	if err := kw.Unmarshal(want); err != nil {
		t.Fatalf("kubewire unmarshal of upstream bytes: %v", err)
	}
	got, err := kw.Marshal()
	if err != nil {
		t.Fatalf("kubewire marshal: %v", err)
	}
	if !bytes.Equal(want, got) {
		t.Fatalf("protobuf re-encoding differs\nupstream: %x\nkubewire: %x\njson: %s", want, got, mustJSON(t, up))
	}
	upJSON, kwJSON := mustJSON(t, up), mustJSON(t, kw)
	if diff := cmp.Diff(normalizeJSON(t, upJSON), normalizeJSON(t, kwJSON)); diff != "" {
		t.Fatalf("JSON differs (-upstream +kubewire):\n%s", diff)
	}
	// And both decode that JSON to the same object. (JSON itself loses
	// some protobuf distinctions, such as empty versus absent bytes, so
	// the comparison is between the two JSON decodes.)
	upFromJSON, kwFromJSON := pair.upstream(), pair.kubewire()
	if err := json.Unmarshal(upJSON, upFromJSON); err != nil {
		t.Fatalf("upstream JSON decode: %v\n%s", err, upJSON)
	}
	if err := json.Unmarshal(upJSON, kwFromJSON); err != nil {
		t.Fatalf("kubewire JSON decode of upstream JSON: %v\n%s", err, upJSON)
	}
	upAgain, err := upFromJSON.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	kwAgain, err := kwFromJSON.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(upAgain, kwAgain) {
		t.Fatalf("JSON decode then protobuf encode differs\nupstream: %x\nkubewire: %x\njson: %s", upAgain, kwAgain, upJSON)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json marshal %T: %v", v, err)
	}
	return b
}

func normalizeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("json: %v", err)
	}
	return v
}
