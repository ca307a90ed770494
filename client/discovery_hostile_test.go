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
		synctest.Wait() // the fetch waits on g0/v1
		if began.Load() != 1 {
			t.Fatalf("%d group versions asked, want 1", began.Load())
		}
		cancel()
		wg.Wait()
		synctest.Wait()
		if b, e := began.Load(), ended.Load(); b != 1 || e != 1 {
			t.Errorf("after every caller left, %d group-version requests began and %d ended, want 1 and 1", b, e)
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
