package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/kubewire/kubewire/codec"
)

// hangingLegacyDiscovery answers /api and /apis with legacy documents
// naming groups g0..g(n-1) and holds every group-version request until
// its request ends, counting those that began and ended.
func hangingLegacyDiscovery(groups int, began, ended *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api":
			fmt.Fprint(w, `{"kind":"APIVersions","versions":[]}`)
		case "/apis":
			var gs []string
			for i := range groups {
				gs = append(gs, fmt.Sprintf(`{"name":"g%d","versions":[{"groupVersion":"g%d/v1","version":"v1"}],"preferredVersion":{"groupVersion":"g%d/v1","version":"v1"}}`, i, i, i))
			}
			fmt.Fprintf(w, `{"kind":"APIGroupList","groups":[%s]}`, strings.Join(gs, ","))
		default:
			began.Add(1)
			<-r.Context().Done()
			ended.Add(1)
		}
	}
}

// Discovery is shared by concurrent callers and must not fail for the
// others when one leaves, but once every caller has left it must stop:
// before, it went on detached from every context, one group version
// after another, for as long as the server kept answering slowly.
func TestDiscoveryStopsWhenEveryCallerLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var began, ended atomic.Int32
		c, _, stop := newPipeServer(t, Config{QPS: -1}, hangingLegacyDiscovery(1000, &began, &ended))
		defer stop()
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				if _, err := c.ServerResources(ctx); !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want context.Canceled", err)
				}
			})
		}
		synctest.Wait() // the fetch waits on the first group versions
		if began.Load() != legacyDiscoveryConcurrency {
			t.Fatalf("%d group versions asked, want %d", began.Load(), legacyDiscoveryConcurrency)
		}
		cancel()
		wg.Wait()
		synctest.Wait()
		if b, e := began.Load(), ended.Load(); b != legacyDiscoveryConcurrency || e != b {
			t.Errorf("after every caller left, %d group-version requests began and %d ended, want %d and %d", b, e, legacyDiscoveryConcurrency, legacyDiscoveryConcurrency)
		}
	})
}

// One caller leaving does not end the fetch the others wait for.
func TestDiscoveryGoesOnForTheCallersLeft(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		h := discoveryHandler(t, false)
		c, _, stop := newPipeServer(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
			<-release
			h(w, r)
		})
		defer stop()
		leaving, leave := context.WithCancel(t.Context())
		done := make(chan error)
		go func() {
			_, err := c.ServerResources(leaving)
			done <- err
		}()
		staying := make(chan error)
		go func() {
			_, err := c.Mapping(t.Context(), "apps", "v1", "Deployment")
			staying <- err
		}()
		synctest.Wait()
		leave()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("leaving caller: err = %v, want context.Canceled", err)
		}
		close(release)
		if err := <-staying; err != nil {
			t.Errorf("staying caller: %v", err)
		}
	})
}

// A group version named again and again in /apis (as a group listed
// twice, or a version listed twice in its group) is fetched once and its
// resources listed once. Before, each naming cost a request: a 10 MiB
// /apis of repeats made some 100000 requests per discovery.
func TestDiscoveryFetchesEachGroupVersionOnce(t *testing.T) {
	var gvRequests atomic.Int32
	group := `{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"},{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}`
	c, _ := newServerConfig(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api":
			fmt.Fprint(w, `{"kind":"APIVersions","versions":[]}`)
		case "/apis":
			fmt.Fprintf(w, `{"kind":"APIGroupList","groups":[%s]}`, strings.Repeat(group+",", 99)+group)
		case "/apis/apps/v1":
			gvRequests.Add(1)
			fmt.Fprint(w, `{"kind":"APIResourceList","groupVersion":"apps/v1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["get"]}]}`)
		default:
			http.NotFound(w, r)
		}
	})
	res, err := c.ServerResources(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n := gvRequests.Load(); n != 1 {
		t.Errorf("apps/v1 fetched %d times, want once", n)
	}
	if len(res) != 1 {
		t.Errorf("%d resources, want the one Deployment", len(res))
	}
}

// Legacy discovery asks several group versions at once, so that one slow
// aggregated API does not hold up every other group, but no more than
// legacyDiscoveryConcurrency. Before, it asked them one after another:
// 300 group versions behind a 1 s proxy took 300 s.
func TestLegacyDiscoveryFetchesGroupVersionsInParallel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var began, ended atomic.Int32
		c, _, stop := newPipeServer(t, Config{QPS: -1}, hangingLegacyDiscovery(300, &began, &ended))
		defer stop()
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := c.ServerResources(ctx)
			done <- err
		}()
		synctest.Wait()
		if n := began.Load(); n != legacyDiscoveryConcurrency {
			t.Errorf("%d group versions asked at once, want %d", n, legacyDiscoveryConcurrency)
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

// An /apis naming 100,000 group versions is refused at once with an
// error saying so, before any group-version request. Before, discovery
// set out to make 100,000 requests, one after another.
func TestLegacyDiscoveryBoundsGroupVersions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var began, ended atomic.Int32
		c, _, stop := newPipeServer(t, Config{QPS: -1}, hangingLegacyDiscovery(100_000, &began, &ended))
		defer stop()
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := c.ServerResources(ctx)
			done <- err
		}()
		synctest.Wait()
		select {
		case err := <-done:
			if !errors.Is(err, codec.ErrTooLarge) || !strings.Contains(err.Error(), "100000 group versions") {
				t.Errorf("err = %v, want codec.ErrTooLarge naming the count", err)
			}
		default:
			t.Errorf("discovery of 100000 group versions still running, %d asked", began.Load())
			cancel()
			<-done
		}
		if n := began.Load(); n != 0 {
			t.Errorf("%d group versions asked, want none", n)
		}
	})
}
