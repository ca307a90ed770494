package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A write that takes off a deleting object's last finalizer deletes it:
// kube-apiserver answers with what the write made of it, and its watch's
// DELETED event carries the object as last stored, finalizers and all
// (etcd's previous value). Found by TestGeneratedSequences seed 1063
// (the extended generator's finalizer lifecycle).
func TestDeletedEventOfAFinalizerRemovalCarriesTheStoredObject(t *testing.T) {
	s, c := newTestServer(t, Options{})
	from := s.CurrentResourceVersion()
	c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"f","finalizers":["example.com/hold"]}}`)
	c.mustDo(http.StatusOK, "DELETE", testCMs+"/f", "")
	answer := string(c.mustPatch(http.StatusOK, testCMs+"/f", "application/merge-patch+json", `{"metadata":{"finalizers":null}}`))
	if strings.Contains(answer, "example.com/hold") {
		t.Errorf("patch answered %s, want it without the finalizer", answer)
	}
	_, dec := c.watch("resourceVersion="+from, "")
	for {
		typ, err := dec.Next()
		if err != nil {
			t.Fatal(err)
		}
		var obj json.RawMessage
		if err := dec.Decode(&obj); err != nil {
			t.Fatal(err)
		}
		if typ == "DELETED" {
			if !strings.Contains(string(obj), `"finalizers":["example.com/hold"]`) {
				t.Errorf("DELETED event %s, want the stored object with its finalizer", obj)
			}
			return
		}
	}
}
