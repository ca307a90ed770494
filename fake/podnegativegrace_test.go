package fake

import (
	"strings"
	"testing"
)

// A delete of a Pod bound to a node with a negative grace period marks
// it deleting with a grace period of 1 second, as kube-apiserver's Pod
// strategy turns a negative period into 1 (an unbound or finished Pod
// is still removed at once). Found by TestGeneratedSequences seed 5353:
// the fake removed the bound Pod at once.
func TestPodDeleteNegativeGracePeriod(t *testing.T) {
	_, c := newTestServer(t, Options{})
	pods := "/api/v1/namespaces/default/pods"
	c.mustDo(201, "POST", pods, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"bound"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`)
	c.mustDo(201, "POST", pods+"/bound/binding", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"bound"},"target":{"kind":"Node","name":"node-a"}}`)
	body := string(c.mustDo(200, "DELETE", pods+"/bound?gracePeriodSeconds=-1", ""))
	if !strings.Contains(body, `"deletionGracePeriodSeconds":1,`) {
		t.Errorf("delete of a bound Pod with gracePeriodSeconds=-1 answered %s, want deletionGracePeriodSeconds 1", body)
	}
	c.mustDo(200, "GET", pods+"/bound", "")
	c.mustDo(201, "POST", pods, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"unbound"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`)
	c.mustDo(200, "DELETE", pods+"/unbound?gracePeriodSeconds=-1", "")
	c.mustDo(404, "GET", pods+"/unbound", "")
}
