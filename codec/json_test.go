package codec

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestYAMLMatchesJSON decodes the server's application/yaml and
// application/json answers for the same objects into the same values.
func TestYAMLMatchesJSON(t *testing.T) {
	for _, name := range []string{"pods-web-1", "configmaps-cm-1", "secrets-s1", "services-web"} {
		t.Run(name, func(t *testing.T) {
			var fromJSON, fromYAML map[string]any
			if err := Decode("application/json", readFixture(t, "objects/"+name+".json.body"), &fromJSON); err != nil {
				t.Fatal(err)
			}
			if err := Decode("application/yaml", readFixture(t, "objects/"+name+".yaml.body"), &fromYAML); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fromJSON, fromYAML); diff != "" {
				t.Errorf("YAML decodes differently (-json +yaml):\n%s", diff)
			}
			// And YAML -> JSON -> YAML -> JSON is stable.
			y, err := EncodeYAML(fromJSON)
			if err != nil {
				t.Fatal(err)
			}
			var again map[string]any
			if err := DecodeYAML(y, &again); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fromJSON, again); diff != "" {
				t.Errorf("EncodeYAML round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeByContentType(t *testing.T) {
	type meta struct {
		Name            string            `json:"name"`
		ResourceVersion string            `json:"resourceVersion"`
		Labels          map[string]string `json:"labels"`
	}
	type object struct {
		Kind     string `json:"kind"`
		Metadata meta   `json:"metadata"`
	}
	want := object{Kind: "ConfigMap", Metadata: meta{Name: "cm-1", ResourceVersion: "215", Labels: map[string]string{"idx": "1"}}}
	for _, tt := range []struct{ contentType, file string }{
		{"application/json", "objects/configmaps-cm-1.json.body"},
		{"application/json; charset=utf-8", "objects/configmaps-cm-1.json.body"},
		{"application/yaml", "objects/configmaps-cm-1.yaml.body"},
	} {
		t.Run(tt.contentType, func(t *testing.T) {
			var got object
			if err := Decode(tt.contentType, readFixture(t, tt.file), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("protobuf", func(t *testing.T) {
		var got rawObject
		if err := Decode(MediaTypeProtobuf, readFixture(t, "objects/configmaps-cm-1.pb.body"), &got); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got.raw), "cm-1") {
			t.Errorf("raw object does not hold the name: %q", got.raw)
		}
	})
}

func TestDecodeErrors(t *testing.T) {
	var m map[string]any
	var n struct {
		Kind int `json:"kind"`
	}
	tests := []struct {
		name, contentType, body string
		into                    any
		wantErr                 string
		malformed               bool
		is                      error
	}{
		{"bad json", "application/json", `{"kind": }`, &m,
			"codec: json at byte 10: invalid JSON: invalid character '}' looking for beginning of value", true, nil},
		{"empty json", "application/json", ``, &m, "codec: json at byte 0: invalid JSON: unexpected end of JSON input", true, nil},
		{"wrong type", "application/json", `{"kind": "Pod"}`, &n,
			"codec: json at byte 14: cannot decode into *struct { Kind int \"json:\\\"kind\\\"\" }: json: cannot unmarshal string into Go struct field .kind of type int", true, nil},
		{"bad yaml", "application/yaml", "a: [1, 2\nb: c", &m,
			"codec: yaml: invalid YAML: yaml: line 1: did not find expected ',' or ']'", true, nil},
		{"html", "text/html", "<html>", &m,
			`codec: body: unsupported content type "text/html", want JSON, CBOR, YAML or protobuf: unsupported operation`, true, errors.ErrUnsupported},
		{"watch", MediaTypeProtobufWatch, "", &m,
			`codec: body: "application/vnd.kubernetes.protobuf;stream=watch" is a watch stream: read it with NewFrameReader or NewJSONStream: unsupported operation`, true, errors.ErrUnsupported},
		{"bad content type", "application", "{}", &m, `codec: media type at byte 11: "application": missing "/" after the type`, true, nil},
		{"protobuf into a map", MediaTypeProtobuf, "k8s\x00", &m,
			"codec: cannot decode protobuf into *map[string]interface {}: it has no Unmarshal([]byte) error method", false, nil},
		{"protobuf without magic", MediaTypeProtobuf, "{}", &rawObject{},
			`codec: protobuf envelope at byte 0: body starts with 7b7d ("{}"), not the magic 6b387300 ("k8s\x00"); it looks like JSON: was the response application/json?`, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Decode(tt.contentType, []byte(tt.body), tt.into)
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if errors.Is(err, ErrMalformed) != tt.malformed {
				t.Errorf("errors.Is(%v, ErrMalformed) = %v", err, !tt.malformed)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not match %v", err, tt.is)
			}
		})
	}
}

func TestYAMLToJSON(t *testing.T) {
	tests := []struct{ yaml, json string }{
		{"a: 1\nb: [x, 2.5, true, null]\n", `{"a":1,"b":["x",2.5,true,null]}`},
		{"1: one\n", `{"1":"one"}`},
		{"a: 1\n---\na: 2\n", `{"a":1}`},
		{"", "null"},
	}
	for _, tt := range tests {
		t.Run(tt.yaml, func(t *testing.T) {
			got, err := YAMLToJSON([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.json, string(got)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	y, err := JSONToYAML([]byte(`{"b":1,"a":"x"}`))
	if err != nil || string(y) != "a: x\nb: 1\n" {
		t.Errorf("JSONToYAML = %q, %v", y, err)
	}
	if _, err := JSONToYAML([]byte(`{`)); !errors.Is(err, ErrMalformed) {
		t.Errorf("JSONToYAML of bad JSON: %v", err)
	}
}
