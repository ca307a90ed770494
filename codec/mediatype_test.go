package codec

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseMediaType(t *testing.T) {
	tests := []struct {
		in   string
		want MediaType
		str  string // String(), when it differs from in
	}{
		{in: "application/json", want: MediaType{Type: "application", Subtype: "json"}},
		{in: "application/vnd.kubernetes.protobuf;stream=watch", want: MediaType{
			Type: "application", Subtype: "vnd.kubernetes.protobuf", Params: []Param{{"stream", "watch"}}}},
		{in: "Application/JSON ; Charset=UTF-8", str: "application/json;charset=UTF-8",
			want: MediaType{Type: "application", Subtype: "json", Params: []Param{{"charset", "UTF-8"}}}},
		{in: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", want: MediaType{
			Type: "application", Subtype: "json",
			Params: []Param{{"g", "apidiscovery.k8s.io"}, {"v", "v2"}, {"as", "APIGroupDiscoveryList"}}}},
		{in: `text/plain;title="a \"b\" c";x="tok"`, str: `text/plain;title="a \"b\" c";x=tok`, want: MediaType{
			Type: "text", Subtype: "plain", Params: []Param{{"title", `a "b" c`}, {"x", "tok"}}}},
		{in: `a/b;x=""`, want: MediaType{Type: "a", Subtype: "b", Params: []Param{{"x", ""}}}},
		{in: " a/b;;x=1; ", str: "a/b;x=1", want: MediaType{Type: "a", Subtype: "b", Params: []Param{{"x", "1"}}}},
		{in: "a/b;q=0.5", want: MediaType{Type: "a", Subtype: "b", Params: []Param{{"q", "0.5"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseMediaType(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ParseMediaType(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			str := tt.str
			if str == "" {
				str = tt.in
			}
			if got.String() != str {
				t.Errorf("String() = %q, want %q", got.String(), str)
			}
		})
	}
}

func TestParseMediaTypeErrors(t *testing.T) {
	tests := []struct{ in, wantErr string }{
		{"", `codec: media type at byte 0: "": missing type`},
		{"application", `codec: media type at byte 11: "application": missing "/" after the type`},
		{"application/", `codec: media type at byte 12: "application/": missing subtype`},
		{"application/json;", ""},
		{"application/json;charset", `codec: media type at byte 24: "application/json;charset": parameter "charset" has no "=value" (no spaces are allowed around "=")`},
		{"application/json;charset =utf-8", `codec: media type at byte 24: "application/json;charset =utf-8": parameter "charset" has no "=value" (no spaces are allowed around "=")`},
		{"application/json;a=", `codec: media type at byte 19: "application/json;a=": parameter "a" has an empty value (no spaces are allowed around "=")`},
		{"application/json;a=1;A=2", `codec: media type at byte 24: "application/json;a=1;A=2": duplicate parameter "a"`},
		{`a/b;x="abc`, `codec: media type at byte 10: "a/b;x=\"abc": unterminated quoted string`},
		{"a/b;x=\"a\x01\"", `codec: media type at byte 8: "a/b;x=\"a\x01\"": control character '\x01' in a quoted string`},
		{"a/b c", `codec: media type at byte 4: "a/b c": unexpected 'c', want ";"`},
		{"a/b, c/d", `codec: media type at byte 3: "a/b, c/d": unexpected ',', want ";"`},
		{"*/*", `codec: media type at byte 3: "*/*": a content type cannot be a wildcard`},
		{"a/(b)", `codec: media type at byte 2: "a/(b)": unexpected '(' where a subtype should be`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseMediaType(tt.in)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tt.wantErr)
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("error %v does not match ErrMalformed", err)
			}
		})
	}
}

func TestMediaTypePredicates(t *testing.T) {
	tests := []struct {
		in                           string
		json, yaml, protobuf, stream bool
	}{
		{in: MediaTypeJSON, json: true},
		{in: "application/json;as=Table;g=meta.k8s.io;v=v1", json: true},
		{in: MediaTypeYAML, yaml: true},
		{in: MediaTypeProtobuf, protobuf: true},
		{in: MediaTypeProtobufWatch, protobuf: true, stream: true},
		{in: "application/json;stream=WATCH", json: true, stream: true},
		{in: "text/html"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			m, err := ParseMediaType(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := []bool{m.IsJSON(), m.IsYAML(), m.IsProtobuf(), m.IsWatchStream()}
			want := []bool{tt.json, tt.yaml, tt.protobuf, tt.stream}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("IsJSON, IsYAML, IsProtobuf, IsWatchStream mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMediaTypeWith(t *testing.T) {
	m := MediaType{Type: "application", Subtype: "json", Params: []Param{{"as", "Table"}}}
	n := m.With("AS", "PartialObjectMetadata").With("pretty", "true")
	if diff := cmp.Diff("application/json;as=PartialObjectMetadata;pretty=true", n.String()); diff != "" {
		t.Error(diff)
	}
	if m.String() != "application/json;as=Table" {
		t.Errorf("With modified its receiver: %s", m)
	}
	if got := (MediaType{Type: "a", Subtype: "b"}).As(AsTable).String(); got != "a/b;as=Table;g=meta.k8s.io;v=v1" {
		t.Errorf("As = %s", got)
	}
	if got := (MediaType{}).String(); got != "" {
		t.Errorf("zero MediaType String = %q", got)
	}
	if got := (MediaType{Type: "a", Subtype: "b", Params: []Param{{"x", "a b\"\\"}}}).String(); got != `a/b;x="a b\"\\"` {
		t.Errorf("quoting: %s", got)
	}
}
