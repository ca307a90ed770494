package fake

import (
	"encoding/json"
	"testing"
)

// A dry-run apply that creates answers the managedFields entry of the
// applier, as the real create would store it, like kube-apiserver
// v1.36.3; an apply of the name alone owns no field and has none.
// Found by TestGeneratedSequences seed 2 (a Deployment): the fake
// answered no managedFields for any dry-run apply create.
func TestDryRunApplyCreateManagedFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	cms := "/api/v1/namespaces/default/configmaps/"
	managers := func(body []byte) []string {
		var o struct {
			Metadata struct {
				ManagedFields []struct{ Manager, Operation string } `json:"managedFields"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(body, &o); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range o.Metadata.ManagedFields {
			out = append(out, m.Manager+"/"+m.Operation)
		}
		return out
	}
	body := c.mustPatch(201, cms+"dry?fieldManager=alice&dryRun=All", "application/apply-patch+yaml", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dry"},"data":{"a":"b"}}`)
	if got := managers(body); len(got) != 1 || got[0] != "alice/Apply" {
		t.Errorf("dry-run apply with data: managedFields %v, want alice/Apply", got)
	}
	body = c.mustPatch(201, cms+"bare?fieldManager=alice&dryRun=All", "application/apply-patch+yaml", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bare"}}`)
	if got := managers(body); len(got) != 0 {
		t.Errorf("dry-run apply of the name: managedFields %v, want none", got)
	}
	c.mustDo(404, "GET", cms+"dry", "")
}
