package fake

import (
	"encoding/json"
	"net/http"
	"testing"
)

// kube-apiserver's watch cache reads a Pod list whose field selector
// requires one spec.nodeName from its node-name index: a full page ends
// at that node's last Pod, with no continue token when no other Pod of
// the node follows, whatever other Pods do (cacher.go GetList over
// listLatestRV, v1.36.3). An Exact read or a continue reads a snapshot of
// every key, as before. Found by TestGeneratedSequences seed 4018 (a
// continue token from the fake only).
func TestPodListByNodeReadsTheNodeIndex(t *testing.T) {
	s, c := newTestServer(t, Options{Controllers: ControllersManual})
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"default"}}`)
	pods := "/api/v1/namespaces/default/pods"
	create := func(name, node string) {
		c.mustDo(http.StatusCreated, "POST", pods, `{"metadata":{"name":"`+name+`"},"spec":{"nodeName":"`+node+`","containers":[{"name":"c","image":"busybox"}]}}`)
	}
	create("a", "n1")
	create("b", "n2")
	rv := s.CurrentResourceVersion()
	page := func(query string) (names []string, cont string) {
		t.Helper()
		var l struct {
			Metadata struct{ Continue string } `json:"metadata"`
			Items    []struct {
				Metadata struct{ Name string } `json:"metadata"`
			} `json:"items"`
		}
		if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", pods+"?"+query, ""), &l); err != nil {
			t.Fatal(err)
		}
		for _, it := range l.Items {
			names = append(names, it.Metadata.Name)
		}
		return names, l.Metadata.Continue
	}
	for _, q := range []string{
		"fieldSelector=spec.nodeName%3Dn1&limit=1",
		"fieldSelector=spec.nodeName%3D%3Dn1&limit=1",
		"fieldSelector=spec.nodeName%3Dn1&limit=1&resourceVersion=" + rv + "&resourceVersionMatch=NotOlderThan",
	} {
		if names, cont := page(q); len(names) != 1 || names[0] != "a" || cont != "" {
			t.Errorf("%s: %q, continue %q; want [a] and none (no other Pod of n1 follows)", q, names, cont)
		}
	}
	for _, q := range []string{
		"fieldSelector=spec.nodeName%3Dn1&limit=1&resourceVersion=" + rv + "&resourceVersionMatch=Exact",
		"fieldSelector=spec.nodeName%3Dn1&limit=1&resourceVersion=" + rv,
		"fieldSelector=spec.nodeName%21%3Dn2&limit=1",
		"fieldSelector=status.phase%3DPending&limit=1",
	} {
		if names, cont := page(q); len(names) != 1 || names[0] != "a" || cont == "" {
			t.Errorf("%s: %q, continue %q; want [a] and a token (b follows, read from every key)", q, names, cont)
		}
	}
	create("c", "n1")
	names, cont := page("fieldSelector=spec.nodeName%3Dn1&limit=1")
	if len(names) != 1 || names[0] != "a" || cont == "" {
		t.Fatalf("with c on n1: %q, continue %q; want [a] and a token", names, cont)
	}
	if names, cont := page("fieldSelector=spec.nodeName%3Dn1&limit=1&continue=" + cont); len(names) != 1 || names[0] != "c" || cont != "" {
		t.Errorf("the next page: %q, continue %q; want [c] and none", names, cont)
	}
}
