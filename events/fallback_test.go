package events_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/events"
)

// withoutEventsV1 serves as a server without events.k8s.io/v1 would:
// 404 for its paths, and, when hideInDiscovery, no such group in
// aggregated discovery.
type withoutEventsV1 struct {
	rt              http.RoundTripper
	hideInDiscovery bool
	tried           *atomic.Int32 // requests to events.k8s.io
}

const notFoundStatus = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}`

func (w withoutEventsV1) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, "/apis/events.k8s.io/") {
		w.tried.Add(1)
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(notFoundStatus)), Request: req}, nil
	}
	if !w.hideInDiscovery || req.URL.Path != "/apis" {
		return w.rt.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Del("Accept-Encoding")
	resp, err := w.rt.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, err
	}
	var kept []any
	for _, it := range doc["items"].([]any) {
		if it.(map[string]any)["metadata"].(map[string]any)["name"] != "events.k8s.io" {
			kept = append(kept, it)
		}
	}
	doc["items"] = kept
	b, _ := json.Marshal(doc)
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	resp.Header.Del("Content-Length")
	resp.Header.Del("ETag")
	return resp, nil
}

// TestCoreFallback: without events.k8s.io/v1 (found by discovery, or by
// a 404 for the resource), events are written as core/v1 Events, with
// count and lastTimestamp for repeats.
func TestCoreFallback(t *testing.T) {
	for _, hide := range []bool{true, false} {
		name := "404 on write"
		if hide {
			name = "discovery"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var tried atomic.Int32
				e := newEnv(t, func(rt http.RoundTripper) http.RoundTripper {
					return withoutEventsV1{rt: rt, hideInDiscovery: hide, tried: &tried}
				})
				rec, stop := e.recorder(t, events.Options{})
				start := time.Now()
				for range 3 {
					rec.Eventf(pod("web-1"), nil, events.Warning, "BackOff", "Restarting", "back-off restarting")
					time.Sleep(time.Second)
				}
				stop()
				evs := e.coreEvents(t, "default")
				if len(evs) != 1 {
					t.Fatalf("%d core events, want 1", len(evs))
				}
				want := &corev1.Event{
					InvolvedObject:      corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "web-1", UID: "uid-web-1", ResourceVersion: "42"},
					Reason:              "BackOff",
					Message:             "back-off restarting",
					Source:              corev1.EventSource{Component: "example.com/test-controller"},
					FirstTimestamp:      metav1.NewTime(start),
					LastTimestamp:       metav1.NewTime(start.Add(2 * time.Second)),
					Count:               3,
					Type:                events.Warning,
					Action:              "Restarting",
					ReportingController: "example.com/test-controller",
					ReportingInstance:   "test-1",
				}
				if diff := cmp.Diff(want, evs[0], cmpopts.IgnoreFields(corev1.Event{}, "ObjectMeta", "TypeMeta"), cmpopts.IgnoreTypes(wire.UnknownFields{})); diff != "" {
					t.Errorf("core event (-want +got):\n%s", diff)
				}
				if wantTried := map[bool]int32{true: 0, false: 1}[hide]; tried.Load() != wantTried {
					t.Errorf("%d requests to events.k8s.io, want %d", tried.Load(), wantTried)
				}
				if diff := cmp.Diff(events.Stats{Created: 1, Aggregated: 2, SeriesUpdates: 1}, rec.Stats()); diff != "" {
					t.Errorf("stats (-want +got):\n%s", diff)
				}
			})
		})
	}
}
