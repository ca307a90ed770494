package client

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// The streamed lists refuse what List refuses for a typed resource, whose
// kind is checked: a key given twice (JSON keeps the last, and null
// leaves the value before it, as encoding/json does) and a TypeMeta given
// twice in a protobuf envelope (merged, as a protobuf message is) were
// accepted by the stream with the apiVersion List refused.
func TestListStreamKindAgreesWithList(t *testing.T) {
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	res := For[*corev1.ConfigMap](c)
	req := &request{method: "GET", path: "/api/v1/configmaps"}
	body, _, _ := configMapsPB(t)
	u, err := codec.DecodeEnvelope(body)
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		contentType string
		body        []byte
	}
	for name, tc := range map[string]answer{
		"json apiVersion then null": {"application/json", []byte(`{"kind":"ConfigMapList","apiVersion":"v2","apiVersion":null,"items":[]}`)},
		"json kind then null":       {"application/json", []byte(`{"kind":"ConfigMapList","kind":null,"apiVersion":"v1","items":[]}`)},
		"json kind then another":    {"application/json", []byte(`{"kind":"PodList","kind":"ConfigMapList","apiVersion":"v1","items":[]}`)},
		"protobuf two TypeMetas": {codec.MediaTypeProtobuf, pbAnswer(typeMetaPB("v2", "ConfigMapList"),
			pbBytes(1, pbBytes(2, []byte("ConfigMapList"))), pbBytes(2, u.Raw))},
		"protobuf TypeMeta then kind": {codec.MediaTypeProtobuf, pbAnswer(pbBytes(1, pbBytes(1, []byte("v1"))),
			pbBytes(1, pbBytes(2, []byte("ConfigMapList"))), pbBytes(2, u.Raw))},
	} {
		t.Run(name, func(t *testing.T) {
			list, lerr := res.decodeList(&response{contentType: tc.contentType, body: tc.body}, nil)
			if lerr == nil {
				lerr = res.checkKind(list.APIVersion, list.Kind, true)
			}
			var n int
			each := func(*corev1.ConfigMap) error { n++; return nil }
			var serr error
			if tc.contentType == codec.MediaTypeProtobuf {
				_, serr = res.streamProtoList(bytes.NewReader(tc.body), -1, nil, each)
			} else {
				_, serr = res.streamJSONList(req, bytes.NewReader(tc.body), ListOptions{}, each)
			}
			if (lerr == nil) != (serr == nil) {
				t.Fatalf("List: %v; the stream: %v", lerr, serr)
			}
			if lerr == nil && n != len(list.Items) {
				t.Fatalf("the stream handed over %d items, List %d", n, len(list.Items))
			}
		})
	}
}

// A streamed list whose kind comes before its items, as kube-apiserver
// writes it, is refused before any item of the wrong kind is handed
// over, as the protobuf stream refuses it; before, the JSON and CBOR
// streams handed every item over and refused the list at its end.
func TestListStreamWrongKindHandsNothingOver(t *testing.T) {
	c, err := New(Config{Host: "http://unused.invalid", QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	req := &request{method: "GET", path: "/api/v1/configmaps"}
	typed := For[*corev1.ConfigMap](c)
	jsonBody := `{"kind":"SecretList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}`
	var n int
	_, err = typed.streamJSONList(req, strings.NewReader(jsonBody), ListOptions{}, func(*corev1.ConfigMap) error { n++; return nil })
	if !errors.Is(err, ErrMalformed) || n != 0 || !strings.Contains(err.Error(), "SecretList") {
		t.Errorf("JSON: handed over %d items, then %v; want none, then ErrMalformed naming SecretList", n, err)
	}

	cbor := load(t, "cbor/widgets.cbor").Body
	wrong := Dynamic(c, widgets)
	wrong.info.kind = "Gadget" // as DynamicFor knows it
	var names []string
	_, err = wrong.streamCBORList(req, bytes.NewReader(cbor), ListOptions{}, func(u *unstructured.Unstructured) error {
		names = append(names, u.GetName())
		return nil
	})
	if !errors.Is(err, ErrMalformed) || len(names) != 0 {
		t.Errorf("CBOR: handed over %v, then %v; want none, then ErrMalformed", names, err)
	}
}
