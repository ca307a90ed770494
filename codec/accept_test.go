package codec

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mt(t *testing.T, s string) MediaType {
	t.Helper()
	m, err := ParseMediaType(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseAccept(t *testing.T) {
	tests := []struct {
		in   string
		want []string // AcceptRange.String of each range, in order
	}{
		{in: "", want: nil},
		{in: " , ,", want: nil},
		{in: AcceptProtobufOrJSON, want: []string{MediaTypeProtobuf, MediaTypeJSON}},
		{in: AcceptTable, want: []string{"application/json;as=Table;g=meta.k8s.io;v=v1", "application/json"}},
		{in: "application/json;q=0.5, application/yaml, */*;q=0.1, application/vnd.kubernetes.protobuf",
			want: []string{"application/yaml", MediaTypeProtobuf, "application/json;q=0.5", "*/*;q=0.1"}},
		{in: "a/b;q=0.5,c/d;Q=0.500,e/f;q=.5x", want: nil}, // error case, see below
		{in: "text/*;q=0, a/b;q=1.000;x=1, c/d;q=0.001, e/f;q=0.",
			want: []string{"a/b;x=1", "c/d;q=0.001", "text/*;q=0", "e/f;q=0"}},
		// kube-apiserver (goautoneg) drops a parameter with an empty
		// value and answers 200, so an empty q leaves the weight at 1.
		{in: "application/json;stream=", want: []string{"application/json"}},
		{in: "application/json;stream=;as=Table, a/b;q=;x=1, c/d;q=0.5;y=", want: []string{"application/json;as=Table", "a/b;x=1", "c/d;q=0.5"}},
		{in: `a/b;x=""`, want: []string{`a/b;x=""`}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAccept(tt.in)
			if tt.in == "a/b;q=0.5,c/d;Q=0.500,e/f;q=.5x" {
				if !errors.Is(err, ErrMalformed) {
					t.Fatalf("err = %v, want ErrMalformed", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var strs []string
			for _, r := range got {
				strs = append(strs, r.String())
			}
			if diff := cmp.Diff(tt.want, strs); diff != "" {
				t.Errorf("ParseAccept(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseAcceptErrors(t *testing.T) {
	tests := []struct{ in, wantErr string }{
		{"a/b;q=2", `codec: accept header at byte 7: "a/b;q=2": invalid q value "2" (want 0 to 1 with at most three decimals)`},
		{"a/b;q=1.001", `codec: accept header at byte 11: "a/b;q=1.001": invalid q value "1.001" (want 0 to 1 with at most three decimals)`},
		{"a/b;q=0.1234", `codec: accept header at byte 12: "a/b;q=0.1234": invalid q value "0.1234" (want 0 to 1 with at most three decimals)`},
		{"a/b;q=0.5;q=1", `codec: accept header at byte 13: "a/b;q=0.5;q=1": duplicate q parameter`},
		{"*/json", `codec: accept header at byte 6: "*/json": "*/json" is not a media range`},
		{"a/b;;c", `codec: accept header at byte 6: "a/b;;c": parameter "c" has no "=value" (no spaces are allowed around "=")`},
		{"a/b c/d", `codec: accept header at byte 4: "a/b c/d": unexpected 'c', want ";"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseAccept(tt.in)
			if err == nil {
				t.Fatalf("no error, want %q", tt.wantErr)
			}
			if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%v does not match ErrMalformed", err)
			}
		})
	}
}

func TestAcceptFor(t *testing.T) {
	tests := []struct {
		protobuf bool
		as       string
		want     string
	}{
		{false, "", "application/json"},
		{true, "", AcceptProtobufOrJSON},
		{false, AsTable, AcceptTable},
		{true, AsPartialObjectMetadataList, "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, " +
			"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, AcceptFor(tt.protobuf, tt.as)); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestNegotiate(t *testing.T) {
	builtin := []string{MediaTypeJSON, MediaTypeYAML, MediaTypeProtobuf,
		"application/json;as=Table;g=meta.k8s.io;v=v1",
		"application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
		"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"}
	custom := []string{MediaTypeJSON, MediaTypeYAML, "application/json;as=Table;g=meta.k8s.io;v=v1"}
	watch := []string{MediaTypeJSON, MediaTypeProtobufWatch}
	tests := []struct {
		name   string
		accept string
		offers []string
		want   string // "" for 406
	}{
		{"no accept", "", builtin, MediaTypeJSON},
		{"protobuf first", AcceptProtobufOrJSON, builtin, MediaTypeProtobuf},
		{"custom resource falls back", AcceptProtobufOrJSON, custom, MediaTypeJSON},
		{"custom resource protobuf only", MediaTypeProtobuf, custom, ""},
		{"table", AcceptTable, builtin, "application/json;as=Table;g=meta.k8s.io;v=v1"},
		{"table falls back", AcceptTable, []string{MediaTypeJSON}, MediaTypeJSON},
		{"metadata protobuf", AcceptFor(true, AsPartialObjectMetadataList), builtin,
			"application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"},
		{"metadata on custom", AcceptFor(true, AsPartialObjectMetadataList), custom, MediaTypeJSON},
		{"plain json is not a table", MediaTypeJSON, []string{"application/json;as=Table;g=meta.k8s.io;v=v1"}, ""},
		{"q orders", "application/json;q=0.9, application/yaml", builtin, MediaTypeYAML},
		{"wildcard", "*/*", builtin, MediaTypeJSON},
		{"specific q=0 excludes", "application/*, application/json;q=0", builtin, MediaTypeYAML},
		{"watch stream", AcceptProtobufOrJSON, watch, MediaTypeProtobufWatch},
		{"charset utf-8", "application/json;charset=utf-8", builtin, MediaTypeJSON},
		{"unknown param", "application/json;foo=bar", builtin, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			accept, err := ParseAccept(tt.accept)
			if err != nil {
				t.Fatal(err)
			}
			var offers []MediaType
			for _, o := range tt.offers {
				offers = append(offers, mt(t, o))
			}
			got, ok := Negotiate(accept, offers)
			if !ok {
				got = MediaType{}
			}
			if diff := cmp.Diff(tt.want, got.String()); diff != "" {
				t.Errorf("Negotiate(%q) mismatch (-want +got):\n%s", tt.accept, diff)
			}
		})
	}
}
