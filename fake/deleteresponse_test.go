package fake

import (
	"encoding/json"
	"testing"
)

// kube-apiserver answers a delete that removes the object with the
// object as last stored, at the resource version it had; the watch's
// DELETED event carries the version of the removal. The same goes for
// the items of a delete collection and for an update that removes the
// last finalizer of an object being deleted. Found by
// TestGeneratedSequences seeds 5 and 13 (delete collection); checked on
// v1.36.3 (a Secret, a ConfigMap with a finalizer).
func TestDeleteAnswersTheLastStoredVersion(t *testing.T) {
	for _, ctrl := range []ControllersMode{ControllersBackground, ControllersManual} {
		deleteAnswersTheLastStoredVersion(t, ctrl)
	}
}

func deleteAnswersTheLastStoredVersion(t *testing.T, ctrl ControllersMode) {
	_, c := newTestServer(t, Options{Controllers: ctrl})
	rvOf := func(body []byte) string {
		var o struct {
			Metadata struct{ ResourceVersion string } `json:"metadata"`
			Items    []struct {
				Metadata struct{ ResourceVersion string } `json:"metadata"`
			} `json:"items"`
		}
		if err := json.Unmarshal(body, &o); err != nil {
			t.Fatal(err)
		}
		if len(o.Items) == 1 {
			return o.Items[0].Metadata.ResourceVersion
		}
		return o.Metadata.ResourceVersion
	}
	secrets := "/api/v1/namespaces/default/secrets"
	created := rvOf(c.mustDo(201, "POST", secrets, `{"metadata":{"name":"s","labels":{"x":"y"}}}`))
	if got := rvOf(c.mustDo(200, "DELETE", secrets+"?labelSelector=x%3Dy", "")); got != created {
		t.Errorf("controllers %d: delete collection: item at %s, want %s (as created)", ctrl, got, created)
	}
	cms := "/api/v1/namespaces/default/configmaps/"
	c.mustDo(201, "POST", cms, `{"metadata":{"name":"f","finalizers":["example.com/f"]}}`)
	marked := rvOf(c.mustDo(200, "DELETE", cms+"f", ""))
	if got := rvOf(c.mustDo(200, "PUT", cms+"f", `{"metadata":{"name":"f"}}`)); got != marked {
		t.Errorf("controllers %d: update removing the last finalizer: answered at %s, want %s (as marked for deletion)", ctrl, got, marked)
	}
	c.mustDo(201, "POST", cms, `{"metadata":{"name":"g","finalizers":["example.com/f"]}}`)
	markedG := rvOf(c.mustDo(200, "DELETE", cms+"g", ""))
	if got := rvOf(c.mustPatch(200, cms+"g", "application/merge-patch+json", `{"metadata":{"finalizers":null}}`)); got != markedG {
		t.Errorf("controllers %d: patch removing the last finalizer: answered at %s, want %s", ctrl, got, markedG)
	}
	_, dec := c.watch("resourceVersion="+marked, "")
	typ, cm, err := nextObject(dec)
	if err != nil || typ != "DELETED" || cm.ResourceVersion == marked {
		t.Errorf("controllers %d: watch: %s at %s (%v), want DELETED at the removal version", ctrl, typ, cm.ResourceVersion, err)
	}
}
