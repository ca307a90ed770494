package patch

import (
	"encoding/json"
	"testing"

	networkingv1 "github.com/kubewire/kubewire/api/networking/v1"
)

// The wording is kube-apiserver v1.36.3's for strategic merge patches
// whose result does not convert (e2e TestFuzzFidelity's reports).
func TestUnstructuredTypeError(t *testing.T) {
	type spec struct {
		Name     string                    `json:"name"`
		Seconds  *int32                    `json:"seconds"`
		On       bool                      `json:"on"`
		Policies []networkingv1.PolicyType `json:"policies"`
		Inner    struct{ A string }        `json:"inner"`
		Labels   map[string]string         `json:"labels"`
	}
	for body, want := range map[string]string{
		`{"name":7}`:         "cannot convert int64 to string",
		`{"seconds":"x"}`:    "unrecognized type: int32",
		`{"seconds":1.5}`:    "cannot convert float64 to int32",
		`{"on":""}`:          "unrecognized type: bool",
		`{"name":true}`:      "unrecognized type: string",
		`{"policies":[7]}`:   "cannot convert int64 to v1.PolicyType",
		`{"inner":"x"}`:      "cannot restore struct from: string",
		`{"labels":[]}`:      "cannot restore map from slice",
		`{"policies":"x"}`:   "cannot restore slice from string",
		`{"name":{"a":"b"}}`: "unrecognized type: string",
	} {
		var s spec
		err := json.Unmarshal([]byte(body), &s)
		if got := unstructuredTypeError(err); got != want {
			t.Errorf("%s: got %q, want %q (json: %v)", body, got, want, err)
		}
	}
}
