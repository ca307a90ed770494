package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// Discovery documents of a server whose aggregated API metrics.k8s.io
// (metrics-server) is down, as kube-apiserver serves them: /apis still
// names the group, its group-version document answers 503, and the
// aggregated document marks its version Stale.
const (
	legacyAPIsWithMetrics  = `{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},{"name":"metrics.k8s.io","versions":[{"groupVersion":"metrics.k8s.io/v1beta1","version":"v1beta1"}],"preferredVersion":{"groupVersion":"metrics.k8s.io/v1beta1","version":"v1beta1"}}]}`
	legacyAppsV1           = `{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apps/v1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["get","list"]}]}`
	metricsUnavailable     = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"service unavailable","reason":"ServiceUnavailable","code":503}`
	aggregatedCore         = `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{"creationTimestamp":null},"versions":[{"version":"v1","resources":[{"resource":"pods","responseKind":{"group":"","version":"v1","kind":"Pod"},"scope":"Namespaced","singularResource":"pod","verbs":["get"]}],"freshness":"Current"}]}]}`
	aggregatedAPIsWithDead = `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[` +
		`{"metadata":{"name":"apps","creationTimestamp":null},"versions":[{"version":"v1","resources":[{"resource":"deployments","responseKind":{"group":"","version":"","kind":"Deployment"},"scope":"Namespaced","singularResource":"deployment","verbs":["get"]}],"freshness":"Current"}]},` +
		`{"metadata":{"name":"empty.example.com","creationTimestamp":null},"versions":[]},` +
		`{"metadata":{"name":"odd.example.com","creationTimestamp":null},"versions":[{"version":"v1","resources":[{"resource":"gadgets","responseKind":{"group":"","version":"","kind":"Gadget"},"scope":"Cluster","singularResource":"gadget","verbs":["get"]}],"freshness":"Sometimes"}]},` +
		`{"metadata":{"name":"metrics.k8s.io","creationTimestamp":null},"versions":[{"version":"v1beta1","resources":[{"resource":"pods","responseKind":{"group":"","version":"","kind":"PodMetrics"},"scope":"Namespaced","singularResource":"","verbs":["get"]}],"freshness":"Stale"}]}]}`
)

// legacyWithDeadMetrics serves legacy discovery with metrics.k8s.io/v1beta1
// answering 503.
func legacyWithDeadMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api":
		fmt.Fprint(w, `{"kind":"APIVersions","versions":[]}`)
	case "/apis":
		fmt.Fprint(w, legacyAPIsWithMetrics)
	case "/apis/apps/v1":
		fmt.Fprint(w, legacyAppsV1)
	case "/apis/metrics.k8s.io/v1beta1":
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, metricsUnavailable)
	default:
		http.NotFound(w, r)
	}
}

// aggregatedWithStaleMetrics serves aggregated discovery whose
// metrics.k8s.io/v1beta1 is Stale, beside a group with no versions and
// one of a freshness this client does not know.
func aggregatedWithStaleMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	switch r.URL.Path {
	case "/api":
		fmt.Fprint(w, aggregatedCore)
	case "/apis":
		fmt.Fprint(w, aggregatedAPIsWithDead)
	default:
		http.NotFound(w, r)
	}
}

// checkMetricsFailed checks a discovery error that names
// metrics.k8s.io/v1beta1, and only it, as failed.
func checkMetricsFailed(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrGroupDiscoveryFailed) {
		t.Fatalf("err = %v, want ErrGroupDiscoveryFailed", err)
	}
	var gde *GroupDiscoveryError
	if !errors.As(err, &gde) {
		t.Fatalf("err = %T, want a *GroupDiscoveryError", err)
	}
	if len(gde.Failures) != 1 || gde.Failures[0].Group != "metrics.k8s.io" || gde.Failures[0].Version != "v1beta1" {
		t.Errorf("failures = %+v, want metrics.k8s.io/v1beta1 alone", gde.Failures)
	}
	if !strings.Contains(err.Error(), "metrics.k8s.io/v1beta1") {
		t.Errorf("error %q does not name the group version", err)
	}
}

// An aggregated API that is down (metrics-server answering 503, or
// marked Stale in aggregated discovery) must not break discovery of every
// other group: the others are discovered, mapped and cached, and the
// failure is reported as ErrGroupDiscoveryFailed naming the group
// version, as client-go's ErrGroupDiscoveryFailed does. Before, the whole
// discovery failed on the 503, so no kind could be mapped while
// metrics-server was down, and a Stale version's resources were listed
// as if served.
func TestDiscoveryWithAnAggregatedAPIDown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    GroupVersionResource
		cause   error
	}{
		{"legacy 503", legacyWithDeadMetrics, GroupVersionResource{"apps", "v1", "deployments"}, ErrServiceUnavailable},
		{"aggregated Stale", aggregatedWithStaleMetrics, GroupVersionResource{"apps", "v1", "deployments"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, rec, stop := newPipeServer(t, Config{QPS: -1}, tc.handler)
				defer stop()
				res, err := c.ServerResources(t.Context())
				checkMetricsFailed(t, err)
				// A group answering 503 without Retry-After is asked once:
				// waiting out the retry policy (48 s) for each aggregated
				// API that is down delayed every other kind's discovery.
				asked := 0
				for _, r := range rec.requests() {
					if strings.Contains(r, "/metrics.k8s.io/") {
						asked++
					}
				}
				if asked > 1 {
					t.Errorf("metrics.k8s.io/v1beta1 asked %d times, want once", asked)
				}
				if tc.cause != nil && !errors.Is(err, tc.cause) {
					t.Errorf("err = %v, want it to match %v", err, tc.cause)
				}
				found := false
				for _, r := range res {
					if r.Group == "metrics.k8s.io" {
						t.Errorf("a resource of the failed group is listed: %+v", r)
					}
					found = found || r.GroupVersionResource == tc.want
				}
				if !found {
					t.Fatalf("resources %+v lack %v", res, tc.want)
				}
				m, err := c.Mapping(t.Context(), "apps", "", "Deployment")
				if err != nil || m.GroupVersionResource != tc.want {
					t.Errorf("Mapping(apps Deployment) = %+v, %v; want %v", m, err, tc.want)
				}
				// A kind of the failed group says why it is unknown.
				_, err = c.Mapping(t.Context(), "metrics.k8s.io", "", "PodMetrics")
				if errors.Is(err, ErrNoMapping) || !errors.Is(err, ErrGroupDiscoveryFailed) {
					t.Errorf("Mapping(PodMetrics) err = %v, want ErrGroupDiscoveryFailed", err)
				}
				// The partial discovery is cached: another lookup of a known
				// kind asks the server nothing.
				before := rec.count()
				if _, err := c.Mapping(t.Context(), "apps", "v1", "Deployment"); err != nil {
					t.Fatal(err)
				}
				if n := rec.count() - before; n != 0 {
					t.Errorf("a cached lookup made %d requests", n)
				}
			})
		})
	}
}

// A freshness this client does not know is served (only Stale is
// failed, as client-go does), and a group with no versions contributes
// nothing and fails nothing.
func TestAggregatedDiscoveryOddGroups(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _, stop := newPipeServer(t, Config{QPS: -1}, aggregatedWithStaleMetrics)
		defer stop()
		m, err := c.Mapping(t.Context(), "odd.example.com", "", "Gadget")
		if err != nil || m.Resource != "gadgets" || m.Namespaced {
			t.Errorf("Mapping(Gadget) = %+v, %v", m, err)
		}
		if _, err := c.Mapping(t.Context(), "empty.example.com", "", "Anything"); !errors.Is(err, ErrNoMapping) {
			t.Errorf("kind of a group without versions: err = %v, want ErrNoMapping", err)
		}
	})
}

// A server or proxy that answers 406 to the aggregated Accept header,
// instead of falling back to plain JSON itself, still gets legacy
// discovery. Before, discovery failed with the 406.
func TestDiscoveryFallsBackAfter406(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var refused int
		c, _, stop := newPipeServer(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.Header.Get("Accept"), "apidiscovery") {
				refused++
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotAcceptable)
				fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable","code":406}`)
				return
			}
			switch r.URL.Path {
			case "/api":
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"kind":"APIVersions","versions":[]}`)
			case "/apis/metrics.k8s.io/v1beta1":
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"kind":"APIResourceList","groupVersion":"metrics.k8s.io/v1beta1","resources":[]}`)
			default:
				legacyWithDeadMetrics(w, r)
			}
		})
		defer stop()
		m, err := c.Mapping(t.Context(), "apps", "v1", "Deployment")
		if err != nil || m.Resource != "deployments" {
			t.Errorf("Mapping = %+v, %v", m, err)
		}
		if refused != 2 {
			t.Errorf("%d aggregated requests refused, want 2 (/api and /apis)", refused)
		}
	})
}

// A discovery that could not read some group versions is not cached for
// good: once discoveryRetryInterval has passed, ServerResources fetches
// again and sees the aggregated API that came back. Within the interval
// it is served from the cache, and a complete discovery stays cached.
// Before, the partial discovery was returned, error and all, until
// InvalidateDiscovery: metrics.k8s.io stayed failed for the client's
// life after one metrics-server restart.
func TestPartialDiscoveryIsRetried(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler func(recovered *atomic.Bool) http.HandlerFunc
	}{
		{"legacy 503", func(recovered *atomic.Bool) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				if recovered.Load() && r.URL.Path == "/apis/metrics.k8s.io/v1beta1" {
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprint(w, `{"kind":"APIResourceList","groupVersion":"metrics.k8s.io/v1beta1","resources":[{"name":"pods","namespaced":true,"kind":"PodMetrics","verbs":["get"]}]}`)
					return
				}
				legacyWithDeadMetrics(w, r)
			}
		}},
		{"aggregated Stale", func(recovered *atomic.Bool) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				if recovered.Load() && r.URL.Path == "/apis" {
					w.Header().Set("Content-Type", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
					fmt.Fprint(w, strings.ReplaceAll(aggregatedAPIsWithDead, `"Stale"`, `"Current"`))
					return
				}
				aggregatedWithStaleMetrics(w, r)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var recovered atomic.Bool
				c, rec, stop := newPipeServer(t, Config{QPS: -1}, tc.handler(&recovered))
				defer stop()
				_, err := c.ServerResources(t.Context())
				checkMetricsFailed(t, err)
				recovered.Store(true)
				time.Sleep(discoveryRetryInterval / 2)
				before := rec.count()
				_, err = c.ServerResources(t.Context())
				checkMetricsFailed(t, err)
				if n := rec.count() - before; n != 0 {
					t.Errorf("within the retry interval, ServerResources made %d requests", n)
				}
				time.Sleep(discoveryRetryInterval / 2)
				res, err := c.ServerResources(t.Context())
				if err != nil {
					t.Fatalf("after the retry interval: %v", err)
				}
				found := false
				for _, r := range res {
					found = found || r.Kind == "PodMetrics"
				}
				if !found {
					t.Errorf("PodMetrics not listed after metrics.k8s.io came back")
				}
				// A complete discovery is cached past the interval.
				time.Sleep(2 * discoveryRetryInterval)
				before = rec.count()
				if _, err := c.ServerResources(t.Context()); err != nil {
					t.Fatal(err)
				}
				if n := rec.count() - before; n != 0 {
					t.Errorf("a complete discovery was fetched again (%d requests)", n)
				}
			})
		})
	}
}

// When the fetch after the retry interval fails as a whole (/apis
// answering 500), ServerResources still returns the cached resources,
// with an error matching ErrGroupDiscoveryFailed and the fetch's error,
// and Mapping still finds the cached kinds.
func TestPartialDiscoveryRetryFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var broken atomic.Bool
		c, _, stop := newPipeServer(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
			if broken.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusForbidden)
				fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}`)
				return
			}
			legacyWithDeadMetrics(w, r)
		})
		defer stop()
		if _, err := c.ServerResources(t.Context()); !errors.Is(err, ErrGroupDiscoveryFailed) {
			t.Fatal(err)
		}
		broken.Store(true)
		time.Sleep(discoveryRetryInterval)
		res, err := c.ServerResources(t.Context())
		if !errors.Is(err, ErrGroupDiscoveryFailed) || !errors.Is(err, ErrForbidden) || len(res) != 1 {
			t.Errorf("ServerResources = %d resources, %v; want the cached Deployment, ErrGroupDiscoveryFailed and ErrForbidden", len(res), err)
		}
		if m, err := c.Mapping(t.Context(), "apps", "v1", "Deployment"); err != nil || m.Resource != "deployments" {
			t.Errorf("Mapping = %+v, %v", m, err)
		}
	})
}
