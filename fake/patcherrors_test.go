package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A strategic merge patch whose result does not convert to the kind is
// quoted with the unstructured converter's words, a JSON patch's result
// as kube-apiserver writes it (e2e TestFuzzFidelity's reports).
func TestPatchResultErrorsAsKubeAPIServer(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("p")
	for _, tt := range []struct{ name, contentType, body, want string }{
		{"smp number for a string", "application/strategic-merge-patch+json", `{"metadata":{"name":7}}`,
			`patch: Invalid value: \"map[metadata:map[name:7]]\": cannot convert int64 to string`},
		{"smp string for an integer", "application/strategic-merge-patch+json", `{"metadata":{"generation":"x"}}`,
			`patch: Invalid value: \"map[metadata:map[generation:x]]\": unrecognized type: int64`},
		{"json patch keeps untouched fields in field order", "application/json-patch+json", `[{"op":"add","path":"/data","value":7}]`,
			`patch: Invalid value: \"{\\\"apiVersion\\\":\\\"v1\\\",\\\"data\\\":7,\\\"kind\\\":\\\"ConfigMap\\\",\\\"metadata\\\":{\\\"name\\\":\\\"p\\\",\\\"namespace\\\":\\\"default\\\",\\\"uid\\\":`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(c.mustPatch(http.StatusUnprocessableEntity, testCMs+"/p", tt.contentType, tt.body))
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %s\nwant it to contain %s", got, tt.want)
			}
		})
	}
}
