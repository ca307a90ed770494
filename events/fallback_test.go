package events_test

import (
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
// 404 for its paths.
type withoutEventsV1 struct {
	rt    http.RoundTripper
	tried *atomic.Int32 // requests to events.k8s.io
}

const notFoundStatus = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}`

func (w withoutEventsV1) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, "/apis/events.k8s.io/") {
		w.tried.Add(1)
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(notFoundStatus)), Request: req}, nil
	}
	return w.rt.RoundTrip(req)
}

// TestCoreFallback: without events.k8s.io/v1, events are written as
// core/v1 Events, with count and lastTimestamp for repeats; the 404 is
// asked once, and later Events go to core/v1 at once.
func TestCoreFallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var tried atomic.Int32
		e := newEnv(t, func(rt http.RoundTripper) http.RoundTripper {
			return withoutEventsV1{rt: rt, tried: &tried}
		})
		rec, stop := e.recorder(t, events.Options{})
		start := time.Now()
		for range 3 {
			rec.Eventf(pod("web-1"), nil, events.Warning, "BackOff", "Restarting", "back-off restarting")
			time.Sleep(time.Second)
		}
		rec.Eventf(pod("web-2"), nil, events.Normal, "Started", "Starting", "started")
		time.Sleep(time.Second)
		stop()
		evs := e.coreEvents(t, "default")
		if len(evs) != 2 {
			t.Fatalf("%d core events, want 2", len(evs))
		}
		if evs[0].InvolvedObject.Name != "web-1" {
			evs[0], evs[1] = evs[1], evs[0]
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
		if evs[1].InvolvedObject.Name != "web-2" || evs[1].Reason != "Started" || evs[1].Count != 1 {
			t.Errorf("second core event: %+v", evs[1])
		}
		if n := tried.Load(); n != 1 {
			t.Errorf("%d requests to events.k8s.io, want 1", n)
		}
		if diff := cmp.Diff(events.Stats{Created: 2, Aggregated: 2, SeriesUpdates: 1}, rec.Stats()); diff != "" {
			t.Errorf("stats (-want +got):\n%s", diff)
		}
	})
}
