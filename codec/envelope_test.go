package codec

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/wire"
)

func TestDecodeEnvelopeFixtures(t *testing.T) {
	tests := []struct {
		file, apiVersion, kind string
	}{
		{"objects/pods-web-1.pb.body", "v1", "Pod"},
		{"objects/configmaps-cm-1.pb.body", "v1", "ConfigMap"},
		{"objects/secrets-s1.pb.body", "v1", "Secret"},
		{"objects/services-web.pb.body", "v1", "Service"},
		{"objects/deployment-web.pb.body", "apps/v1", "Deployment"},
		{"objects/lease-leader.pb.body", "coordination.k8s.io/v1", "Lease"},
		{"objects/namespace-fixtures.pb.body", "v1", "Namespace"},
		{"objects/crd-widgets.pb.body", "apiextensions.k8s.io/v1", "CustomResourceDefinition"},
		{"lists/pods.pb.body", "v1", "PodList"},
		{"lists/pods-page1.pb.body", "v1", "PodList"},
		{"lists/configmaps.pb.body", "v1", "ConfigMapList"},
		{"meta/pods-partial.pb.body", "meta.k8s.io/v1", "PartialObjectMetadataList"},
		{"errors/notfound.pb.body", "v1", "Status"},
		{"errors/widget-protobuf-only-406.body", "v1", "Status"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body := readFixture(t, tt.file)
			u, err := DecodeEnvelope(body)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{u.APIVersion, u.Kind, u.ContentEncoding, u.ContentType}
			if diff := cmp.Diff([]string{tt.apiVersion, tt.kind, "", ""}, got); diff != "" {
				t.Errorf("apiVersion, kind, contentEncoding, contentType mismatch (-want +got):\n%s", diff)
			}
			if len(u.Raw) == 0 || !inside(u.Raw, body) {
				t.Errorf("Raw (%d bytes) does not alias the body", len(u.Raw))
			}
			// Encoding gives back the server's bytes exactly.
			if again := EncodeEnvelope(u.APIVersion, u.Kind, u.Raw); !bytes.Equal(again, body) {
				t.Errorf("EncodeEnvelope differs from the server's body:\n%x\n%x", again, body)
			}
		})
	}
}

func inside(sub, b []byte) bool {
	if len(sub) == 0 || len(b) == 0 {
		return false
	}
	s, lo := uintptr(unsafe.Pointer(&sub[0])), uintptr(unsafe.Pointer(&b[0]))
	return s >= lo && s+uintptr(len(sub)) <= lo+uintptr(len(b))
}

func TestDecodeEnvelopeInterns(t *testing.T) {
	var d wire.Decoder
	var a, b runtime.Unknown
	body := readFixture(t, "objects/pods-web-1.pb.body")
	if err := DecodeEnvelopeInto(&d, body, &a); err != nil {
		t.Fatal(err)
	}
	if err := DecodeEnvelopeInto(&d, bytes.Clone(body), &b); err != nil {
		t.Fatal(err)
	}
	if unsafe.StringData(a.Kind) != unsafe.StringData(b.Kind) {
		t.Error("kind strings decoded through one wire.Decoder are not shared")
	}
}

func TestDecodeEnvelopeErrors(t *testing.T) {
	gzipped := append([]byte(ProtobufMagic), (&runtime.Unknown{
		TypeMeta: runtime.TypeMeta{APIVersion: "v1", Kind: "Pod"}, Raw: []byte{1}, ContentEncoding: "gzip"}).AppendProto(nil)...)
	pod := readFixture(t, "objects/pods-web-1.pb.body")
	tests := []struct {
		name    string
		body    []byte
		wantErr string
		also    error
	}{
		{"empty", nil, `codec: protobuf envelope at byte 0: empty body, want the magic 6b387300 ("k8s\x00")`, nil},
		{"short", []byte("k8s"), `codec: protobuf envelope at byte 0: body is 3 bytes, shorter than the 4-byte magic 6b387300 ("k8s\x00")`, nil},
		{"json", readFixture(t, "objects/pods-web-1.json.body"),
			`codec: protobuf envelope at byte 0: body starts with 7b0a2020226b696e64223a2022506f64... ("{\n  \"kind\": \"Pod"...), not the magic 6b387300 ("k8s\x00"); it looks like JSON: was the response application/json?`, nil},
		{"html", []byte("<html><body>502 Bad Gateway</body></html>"),
			`codec: protobuf envelope at byte 0: body starts with 3c68746d6c3e3c626f64793e35303220... ("<html><body>502 "...), not the magic 6b387300 ("k8s\x00"); it looks like HTML or XML: is a proxy answering instead of the API server?`, nil},
		{"yaml", readFixture(t, "objects/pods-web-1.yaml.body"),
			`codec: protobuf envelope at byte 0: body starts with 61706956657273696f6e3a2076310a6b... ("apiVersion: v1\nk"...), not the magic 6b387300 ("k8s\x00"); it looks like YAML: was the response application/yaml?`, nil},
		{"binary", []byte{0xff, 0xfe, 0, 1}, `codec: protobuf envelope at byte 0: body starts with fffe0001, not the magic 6b387300 ("k8s\x00")`, nil},
		{"gzip", gzipped, `codec: protobuf envelope: unsupported contentEncoding "gzip" (kube-apiserver sends none): unsupported operation`, errors.ErrUnsupported},
		{"truncated", pod[:100], `codec: protobuf envelope at byte 15: invalid runtime.Unknown: malformed protobuf: Unknown field 2: unexpected EOF`, nil},
		{"bad tag", []byte("k8s\x00\xff"), `codec: protobuf envelope at byte 4: invalid runtime.Unknown: malformed protobuf: Unknown: unexpected EOF`, nil},
		{"wrong wire type", []byte("k8s\x00\x08\x01"), `codec: protobuf envelope at byte 4: invalid runtime.Unknown: malformed protobuf: Unknown field 1: invalid wire type for this field`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := DecodeEnvelope(tt.body)
			if err == nil {
				t.Fatalf("no error, got %+v", u)
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, ErrMalformed) || !errors.Is(err, wire.ErrMalformed) {
				t.Errorf("%v does not match ErrMalformed", err)
			}
			if tt.also != nil && !errors.Is(err, tt.also) {
				t.Errorf("%v does not match %v", err, tt.also)
			}
		})
	}
}

// rawObject is a stand-in for a generated type.
type rawObject struct{ raw []byte }

func (r *rawObject) Unmarshal(b []byte) error {
	if bytes.HasPrefix(b, []byte("bad")) {
		return &wire.FieldError{Message: "Pod", Field: 1, Reason: "test"}
	}
	r.raw = bytes.Clone(b)
	return nil
}

func (r *rawObject) Marshal() ([]byte, error) { return r.raw, nil }

func TestDecodeProtobuf(t *testing.T) {
	body := readFixture(t, "objects/configmaps-cm-1.pb.body")
	var obj rawObject
	if err := DecodeProtobuf(body, &obj); err != nil {
		t.Fatal(err)
	}
	again, err := EncodeProtobuf("v1", "ConfigMap", &obj)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, body) {
		t.Error("EncodeProtobuf(DecodeProtobuf(body)) != body")
	}

	jsonRaw := append([]byte(ProtobufMagic), (&runtime.Unknown{TypeMeta: runtime.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		Raw: []byte("{}"), ContentType: "application/json"}).AppendProto(nil)...)
	err = DecodeProtobuf(jsonRaw, &obj)
	if want := `codec: protobuf envelope: raw v1 Pod is "application/json", not protobuf: unsupported operation`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}

	err = DecodeProtobuf(EncodeEnvelope("v1", "Pod", []byte("bad")), &obj)
	if want := "codec: decode v1 Pod into *codec.rawObject: malformed protobuf: Pod field 1: test"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if !errors.Is(err, ErrMalformed) {
		t.Errorf("%v does not match ErrMalformed", err)
	}
}

func TestEncodeEnvelopeEmptyRaw(t *testing.T) {
	b := EncodeEnvelope("v1", "Status", nil)
	u, err := DecodeEnvelope(b)
	if err != nil {
		t.Fatal(err)
	}
	if u.Raw == nil || len(u.Raw) != 0 || !strings.HasPrefix(string(b), ProtobufMagic) {
		t.Errorf("got %+v", u)
	}
}
