package fake

import (
	"encoding/json"
	"testing"
)

// A dry-run update that creates an object answers the resourceVersion
// the request sent, or none, as kube-apiserver v1.36.3 does (checked by
// hand); the real create takes a new one. Found by TestGeneratedSequences
// seeds 105 and 1139.
func TestCreateOnUpdateDryRunResourceVersion(t *testing.T) {
	_, c := newTestServer(t, Options{})
	leases := "/apis/coordination.k8s.io/v1/namespaces/default/leases/"
	for _, tt := range []struct{ sent, want string }{{"1", "1"}, {"77", "77"}, {"", ""}} {
		body := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","resourceVersion":"` + tt.sent + `"},"spec":{"holderIdentity":"h"}}`
		var got struct {
			Metadata struct{ ResourceVersion string }
		}
		if err := json.Unmarshal(c.mustDo(201, "PUT", leases+"l?dryRun=All", body), &got); err != nil {
			t.Fatal(err)
		}
		if got.Metadata.ResourceVersion != tt.want {
			t.Errorf("dry run sent %q: resourceVersion %q, want %q", tt.sent, got.Metadata.ResourceVersion, tt.want)
		}
	}
	c.mustDo(404, "GET", leases+"l", "")
	var created struct {
		Metadata struct{ ResourceVersion string }
	}
	if err := json.Unmarshal(c.mustDo(201, "PUT", leases+"l", `{"metadata":{"name":"l","resourceVersion":"1"}}`), &created); err != nil {
		t.Fatal(err)
	}
	if v := created.Metadata.ResourceVersion; v == "" || v == "1" {
		t.Errorf("created with resourceVersion %q, want a new one", v)
	}
}
