package fake

import (
	"encoding/json"
	"strings"
	"testing"
)

// kube-apiserver answers a delete collection with the objects it listed
// before deleting them, as they were (their resource version, no
// deletionTimestamp), and an update or patch that removes the last
// finalizer of an object being deleted with the object at the version
// it was last stored with; the watch's DELETED event carries the
// version of the removal. Found by TestGeneratedSequences seeds 5, 13,
// 20 (delete collection); checked on v1.36.3 (Secrets, Pods, a
// ConfigMap with a finalizer).
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
	pods := "/api/v1/namespaces/default/pods"
	c.do("POST", "/api/v1/namespaces/default/serviceaccounts", "", `{"metadata":{"name":"default"}}`) // (made by the controllers when they run)
	c.mustDo(201, "POST", pods, `{"metadata":{"name":"p","labels":{"x":"y"}},"spec":{"nodeName":"n","containers":[{"name":"c","image":"i"}]}}`)
	if body := string(c.mustDo(200, "DELETE", pods+"?labelSelector=x%3Dy", "")); strings.Contains(body, "deletionTimestamp") {
		t.Errorf("controllers %d: delete collection of a pod: %s, want the pod as listed, without deletionTimestamp", ctrl, body)
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
