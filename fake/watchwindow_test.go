package fake

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kubewire/kubewire/codec"
)

// testClock is a clock the test moves by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// watchFromErr opens a ConfigMap watch from rv and returns the error its
// first event ends with (nil when the watch serves the next change, a
// ConfigMap it creates).
func watchFromErr(t *testing.T, c *tclient, rv uint64) error {
	t.Helper()
	_, dec := c.watch("resourceVersion="+strconv.FormatUint(rv, 10), "")
	if _, err := dec.Next(); err != nil {
		return err
	}
	return nil
}

// kube-apiserver's watch cache keeps a resource's changes in a ring that
// doubles while its oldest change is younger than 75 s and otherwise
// drops that change; a watch from before the oldest kept change is then
// 410 "too old resource version" (k8s.io/apiserver cacher/watch_cache.go
// v1.36.3). Long generated sequences on kube-apiserver met it (seeds 377,
// 395, 397, 399, 400, 1389, 1394): a watch from resourceVersion=1 late in
// a run of 200 seeds; the fake kept its whole history.
func TestWatchCacheWindowDropsOldChanges(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s, c := newTestServer(t, Options{Now: clock.Now})
	version := func() uint64 {
		n, err := strconv.ParseUint(s.CurrentResourceVersion(), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := version()
	for i := range 101 { // the ring of 100 fills and, its oldest fresh, doubles
		c.createCM(fmt.Sprint("a", i))
	}
	first := before + 1 // a0's version
	if err := watchFromErr(t, c, before); err != nil {
		t.Fatalf("watch from before the first change while the ring grows: %v", err)
	}

	clock.Advance(76 * time.Second)
	for i := range 99 { // the ring of 200 is full again, its oldest stale
		c.createCM(fmt.Sprint("b", i))
	}
	if err := watchFromErr(t, c, before); err != nil {
		t.Fatalf("watch from before the first change with the ring full but nothing dropped: %v", err)
	}
	c.createCM("c") // drops a0
	err := watchFromErr(t, c, before)
	var se *codec.StatusError
	want := fmt.Sprintf("too old resource version: %d (%d)", before, first)
	if !errors.As(err, &se) || !errors.Is(err, codec.ErrExpired) || se.Status.Message != want {
		t.Errorf("watch from before the dropped change: %v; want 410 %q", err, want)
	}
	if err := watchFromErr(t, c, first); err != nil {
		t.Errorf("watch from the dropped change's version (the oldest kept one's, less one): %v", err)
	}
	// Lists, Exact reads and other resources are not the watch cache's
	// window: etcd still has the history.
	c.mustDo(200, "GET", testCMs+"?resourceVersionMatch=Exact&resourceVersion="+strconv.FormatUint(before, 10), "")
	resp, err2 := c.hc.Do(c.request("GET", "/api/v1/namespaces/default/secrets?watch=true&resourceVersion="+strconv.FormatUint(before, 10), "", ""))
	if err2 != nil {
		t.Fatal(err2)
	}
	defer resp.Body.Close()
	c.mustDo(201, "POST", "/api/v1/namespaces/default/secrets", `{"metadata":{"name":"s"}}`)
	dec, err2 := codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, codec.WatchOptions{})
	if err2 != nil {
		t.Fatal(err2)
	}
	if _, err := dec.Next(); err != nil {
		t.Errorf("Secret watch from before the dropped ConfigMap change: %v", err)
	}
}
