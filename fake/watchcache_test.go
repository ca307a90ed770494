package fake

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/codec"
)

// listRV lists a collection with a query and returns the list's
// resourceVersion.
func (c *tclient) listRV(collection, query string) uint64 {
	c.t.Helper()
	var l struct {
		Metadata struct{ ResourceVersion string } `json:"metadata"`
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", collection+"?"+query, ""), &l); err != nil {
		c.t.Fatal(err)
	}
	n, err := strconv.ParseUint(l.Metadata.ResourceVersion, 10, 64)
	if err != nil {
		c.t.Fatal(err)
	}
	return n
}

// watchNames reads a watch's events up to the named object's.
func watchNames(t *testing.T, dec *codec.WatchDecoder, last string) []string {
	t.Helper()
	var got []string
	for {
		typ, name, err := nextEvent(t, dec)
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, typ+" "+name)
		if name == last {
			return got
		}
	}
}

// A list with resourceVersion=0 is served by kube-apiserver's watch
// cache of its resource as it is, at the version of the resource's
// newest change unless a consistent read of the resource since brought
// its cache to a newer one (etcd's progress notification), so a watch of
// another resource from that version sees that resource's changes made
// in between. Found by TestGeneratedSequences seeds 32, 42, 51, 84, 91,
// 111, 116, 120 and 181 (the watch got events on kube-apiserver and none
// on the fake).
func TestListFromWatchCacheAnswersItsVersion(t *testing.T) {
	_, c := newTestServer(t, Options{})
	secrets := "/api/v1/namespaces/default/secrets"
	c.createCM("a")
	cmAt := c.listRV(testCMs, "")                                               // consistent: caches at a
	c.mustDo(http.StatusCreated, "POST", secrets, `{"metadata":{"name":"s1"}}`) // newer than the ConfigMaps' cache
	if got := c.listRV(testCMs, "resourceVersion=0"); got != cmAt {
		t.Errorf("ConfigMaps at resourceVersion=0: version %d, want %d (the newest ConfigMap change)", got, cmAt)
	}
	// A Secret watch from the ConfigMaps' cache version sees s1.
	resp, err := c.hc.Do(c.request("GET", secrets+"?watch=true&resourceVersion="+strconv.FormatUint(c.listRV(testCMs, "resourceVersion=0&limit=1"), 10), "", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	c.mustDo(http.StatusCreated, "POST", secrets, `{"metadata":{"name":"s2"}}`)
	dec, err := codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, codec.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := watchNames(t, dec, "s2"); !slices.Equal(got, []string{"ADDED s1", "ADDED s2"}) {
		t.Errorf("Secret events from the ConfigMaps' cache version: %q", got)
	}

	// A consistent read of a resource whose cache is behind brings that
	// cache to the newest version, and no other (kube-apiserver v1.36.3:
	// a consistent list of pods left the ConfigMaps' cache where it was).
	c.mustDo(http.StatusCreated, "POST", secrets, `{"metadata":{"name":"s3"}}`)
	before := c.listRV(testCMs, "resourceVersion=0")
	c.listRV("/api/v1/namespaces/default/pods", "") // stale: its own cache progresses
	now := c.listRV(secrets, "limit=1")             // the Secrets' cache is fresh
	if got := c.listRV(testCMs, "resourceVersion=0"); got != before {
		t.Errorf("after consistent reads of other resources: ConfigMaps at %d, want still %d", got, before)
	}
	if got := c.listRV("/api/v1/namespaces/default/pods", "resourceVersion=0"); got != now {
		t.Errorf("after a consistent read of the Pods: Pods at %d, want %d", got, now)
	}
	c.listRV(testCMs, "") // behind: progress
	if got := c.listRV(testCMs, "resourceVersion=0"); got != now {
		t.Errorf("after a consistent read of the ConfigMaps: at %d, want %d", got, now)
	}
}

// kube-apiserver's watch caches of built-in resources start before it
// writes its first objects, so a watch from resourceVersion=1 is served;
// a custom resource's starts when its CRD is served, and a watch from
// an older version gets 410 Expired, as after a restart. Found by
// TestGeneratedSequences seed 9 (a Gizmo watch from resourceVersion=1).
func TestWatchFromBeforeACustomResourceWasServedIsTooOld(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	_, dec := c.watch("resourceVersion=1", "")
	if _, name, err := nextEvent(t, dec); err != nil || name != "a" {
		t.Errorf("ConfigMap watch from 1: %q %v, want a", name, err)
	}
	before := s.CurrentResourceVersion()
	c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gadgetCRD)
	resp, err := c.hc.Do(c.request("GET", gadgets+"?watch=true&resourceVersion="+before, "", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	dec, err = codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, codec.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var se *codec.StatusError
	if _, err := dec.Next(); !errors.As(err, &se) || !errors.Is(err, codec.ErrExpired) || !strings.HasPrefix(se.Status.Message, "too old resource version: "+before+" (") {
		t.Errorf("Gadget watch from before its CRD: %v, want 410 too old resource version: %s (...)", err, before)
	}
	resp2, err := c.hc.Do(c.request("GET", gadgets+"?watch=true&resourceVersion="+s.CurrentResourceVersion(), "", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	c.mustDo(http.StatusCreated, "POST", gadgets, `{"apiVersion":"test.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":1}}`)
	dec, err = codec.NewWatchDecoder(resp2.Header.Get("Content-Type"), resp2.Body, codec.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if typ, err := dec.Next(); err != nil || typ != "ADDED" {
		t.Errorf("Gadget watch from now: %s %v, want ADDED", typ, err)
	}
}

// A delete collection lists what it deletes with a consistent read, which
// brings the resource's watch cache to the newest version as a list
// does: a resourceVersion=0 list after it answers that version. Found by
// TestGeneratedSequences seed 91 (a Gizmo delete collection, then a Pod
// watch from the Gizmos' resourceVersion=0 list: kube-apiserver sent
// only the Pod's later events, the fake its create too).
func TestDeleteCollectionFreshensTheWatchCache(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("a")
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/secrets", `{"metadata":{"name":"s1"}}`)
	newest := c.listRV("/api/v1/namespaces/default/secrets", "")
	c.mustDo(http.StatusOK, "DELETE", testCMs+"?labelSelector=none", "")
	if got := c.listRV(testCMs, "resourceVersion=0"); got != newest {
		t.Errorf("ConfigMaps at resourceVersion=0 after a delete collection: version %d, want %d (the newest)", got, newest)
	}
	// A delete collection of a resourceVersion=0 read does not wait.
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/secrets", `{"metadata":{"name":"s2"}}`)
	c.mustDo(http.StatusOK, "DELETE", testCMs+"?labelSelector=none&resourceVersion=0", "")
	if got := c.listRV(testCMs, "resourceVersion=0"); got != newest {
		t.Errorf("ConfigMaps at resourceVersion=0 after a delete collection at 0: version %d, want %d", got, newest)
	}
}
