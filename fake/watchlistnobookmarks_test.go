package fake

import "testing"

// kube-apiserver v1.36 takes sendInitialEvents without
// allowWatchBookmarks (its ListOptions validation no longer asks for
// both) and sends the initial events, with no bookmark after them.
// Found by TestGeneratedSequences seeds 14 (the fake refused the watch
// with a 422) and 1 (it then sent the bookmark).
func TestWatchListWithoutBookmarks(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("a")
	_, dec := c.watch("sendInitialEvents=true&resourceVersionMatch=NotOlderThan", "")
	typ, name, err := nextEvent(t, dec)
	if err != nil || typ != "ADDED" || name != "a" {
		t.Fatalf("first event %s %s %v, want ADDED a", typ, name, err)
	}
	c.createCM("b")
	typ, name, err = nextEvent(t, dec)
	if err != nil || typ != "ADDED" || name != "b" {
		t.Fatalf("second event %s %s %v, want ADDED b (no bookmark)", typ, name, err)
	}
}
