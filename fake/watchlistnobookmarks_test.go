package fake

import "testing"

// kube-apiserver v1.36 takes sendInitialEvents without
// allowWatchBookmarks (its ListOptions validation no longer asks for
// both) and sends the initial events. Found by TestGeneratedSequences
// seed 14: the fake refused the watch with a 422.
func TestWatchListWithoutBookmarks(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("a")
	_, dec := c.watch("sendInitialEvents=true&resourceVersionMatch=NotOlderThan", "")
	typ, name, err := nextEvent(t, dec)
	if err != nil || typ != "ADDED" || name != "a" {
		t.Fatalf("first event %s %s %v, want ADDED a", typ, name, err)
	}
}
