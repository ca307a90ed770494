package events_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/events"
)

// TestEventWritten checks every field of a written events.k8s.io/v1
// Event.
func TestEventWritten(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, _ := e.recorder(t, events.Options{})
		start := time.Now()
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "settings", UID: "uid-cm"}}
		rec.Eventf(pod("web-1"), cm, events.Warning, "FailedMount", "Mounting", "cannot mount %q: %v", "data", "timeout")
		synctest.Wait()
		got := e.v1Events(t, "default")
		if len(got) != 1 {
			t.Fatalf("%d events, want 1", len(got))
		}
		ev := got[0]
		if !strings.HasPrefix(ev.Name, "web-1.") {
			t.Errorf("name %q, want web-1.<suffix>", ev.Name)
		}
		want := &eventsv1.Event{
			EventTime:           metav1.NewMicroTime(start),
			ReportingController: "example.com/test-controller",
			ReportingInstance:   "test-1",
			Action:              "Mounting",
			Reason:              "FailedMount",
			Regarding:           corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "web-1", UID: "uid-web-1", ResourceVersion: "42"},
			Related:             &corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "settings", UID: "uid-cm"},
			Note:                `cannot mount "data": timeout`,
			Type:                events.Warning,
		}
		if diff := cmp.Diff(want, ev, cmpopts.IgnoreFields(eventsv1.Event{}, "ObjectMeta", "TypeMeta"), cmpopts.IgnoreTypes(wire.UnknownFields{})); diff != "" {
			t.Errorf("event (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(events.Stats{Created: 1}, rec.Stats()); diff != "" {
			t.Errorf("stats (-want +got):\n%s", diff)
		}
	})
}

// TestAggregation: repeats become one Event with a series, written at
// most once per SeriesInterval and when Run ends; a repeat after the
// series window starts a new Event; another note is another Event.
func TestAggregation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		opts := events.Options{SeriesInterval: 30 * time.Second, SeriesWindow: time.Minute}
		rec, stop := e.recorder(t, opts)
		p := pod("web-1")
		first := time.Now()
		for range 10 {
			rec.Eventf(p, nil, events.Normal, "Pulled", "Pulling", "image pulled")
			time.Sleep(time.Second)
		}
		last := time.Now().Add(-time.Second)
		synctest.Wait()
		if evs := e.v1Events(t, "default"); len(evs) != 1 || evs[0].Series != nil {
			t.Fatalf("before the series interval: %d events, series %v; want one event, no series yet", len(evs), evs[0].Series)
		}
		time.Sleep(opts.SeriesInterval) // the tick at 30s writes the series
		synctest.Wait()
		evs := e.v1Events(t, "default")
		if len(evs) != 1 {
			t.Fatalf("%d events, want 1", len(evs))
		}
		wantSeries := &eventsv1.EventSeries{Count: 10, LastObservedTime: metav1.NewMicroTime(last)}
		if diff := cmp.Diff(wantSeries, evs[0].Series, cmpopts.IgnoreTypes(wire.UnknownFields{})); diff != "" {
			t.Errorf("series (-want +got):\n%s", diff)
		}
		if !evs[0].EventTime.Time.Equal(first) {
			t.Errorf("eventTime %s, want the first occurrence %s", evs[0].EventTime, first)
		}

		rec.Eventf(p, nil, events.Normal, "Pulled", "Pulling", "another image pulled") // another note
		time.Sleep(opts.SeriesWindow + time.Second)
		rec.Eventf(p, nil, events.Normal, "Pulled", "Pulling", "image pulled") // after the window
		rec.Eventf(p, nil, events.Normal, "Pulled", "Pulling", "image pulled")
		synctest.Wait()
		stop() // flushes the new series' count
		evs = e.v1Events(t, "default")
		var counts []int32
		for _, ev := range evs {
			n := int32(1)
			if ev.Series != nil {
				n = ev.Series.Count
			}
			counts = append(counts, n)
		}
		if diff := cmp.Diff([]int32{10, 1, 2}, counts); diff != "" {
			t.Errorf("event counts in creation order (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(events.Stats{Created: 3, Aggregated: 10, SeriesUpdates: 2}, rec.Stats()); diff != "" { // 9 + 1 repeats
			t.Errorf("stats (-want +got):\n%s", diff)
		}
	})
}

// TestSpamLimit: new Events about one object are limited to a burst and
// then one per interval; other objects are not affected; repeats are
// aggregated, not limited.
func TestSpamLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, stop := e.recorder(t, events.Options{SpamBurst: 5, SpamInterval: time.Minute, SeriesInterval: time.Hour})
		noisy, quiet := pod("noisy"), pod("quiet")
		for i := range 8 {
			rec.Eventf(noisy, nil, events.Warning, "Failed", "Syncing", "attempt %d failed", i)
		}
		for range 3 {
			rec.Eventf(noisy, nil, events.Warning, "Failed", "Syncing", "attempt 0 failed") // a repeat
		}
		rec.Eventf(quiet, nil, events.Normal, "Synced", "Syncing", "ok")
		synctest.Wait()
		if diff := cmp.Diff(events.Stats{Created: 6, Limited: 3, Aggregated: 3}, rec.Stats()); diff != "" {
			t.Errorf("stats after the burst (-want +got):\n%s", diff)
		}
		time.Sleep(time.Minute) // one token back
		rec.Eventf(noisy, nil, events.Warning, "Failed", "Syncing", "attempt 8 failed")
		rec.Eventf(noisy, nil, events.Warning, "Failed", "Syncing", "attempt 9 failed")
		synctest.Wait()
		stop()
		if diff := cmp.Diff(events.Stats{Created: 7, Limited: 4, Aggregated: 3, SeriesUpdates: 1}, rec.Stats()); diff != "" {
			t.Errorf("stats after one interval (-want +got):\n%s", diff)
		}
		if n := len(e.v1Events(t, "default")); n != 7 {
			t.Errorf("%d events on the server, want 7", n)
		}
	})
}

// TestQueueFull: Eventf never blocks; with nobody writing, events past
// the queue size are dropped and counted; Run then writes the rest.
func TestQueueFull(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, err := events.NewRecorder(e.c, events.Options{Component: "test", Instance: "i", QueueSize: 5})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 8 {
			rec.Eventf(pod("web-1"), nil, events.Normal, "Tick", "Ticking", "tick %d", i)
		}
		if got := rec.Stats().Dropped; got != 3 {
			t.Errorf("dropped %d, want 3", got)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- rec.Run(ctx) }()
		synctest.Wait()
		cancel()
		<-done
		rec.Eventf(pod("web-1"), nil, events.Normal, "Tick", "Ticking", "after Run")
		if diff := cmp.Diff(events.Stats{Created: 5, Dropped: 4}, rec.Stats()); diff != "" {
			t.Errorf("stats (-want +got):\n%s", diff)
		}
		if err := rec.Run(context.Background()); err == nil {
			t.Error("a second Run returned nil, want an error")
		}
	})
}

// TestFlush: events queued when Run's ctx ends are written; a server
// that does not answer bounds the flush by FlushTimeout.
func TestFlush(t *testing.T) {
	for _, tt := range []struct {
		name    string
		latency time.Duration
		want    events.Stats
	}{
		{"server answers", 0, events.Stats{Created: 3}},
		{"server hangs", time.Hour, events.Stats{Failed: 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, nil)
				e.srv.Faults().SetLatency(tt.latency)
				rec, err := events.NewRecorder(e.c, events.Options{Component: "test", Instance: "i", FlushTimeout: 3 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				for i := range 3 {
					rec.Eventf(pod("web-1"), nil, events.Normal, "Tick", "Ticking", "tick %d", i)
				}
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				start := time.Now()
				if err := rec.Run(ctx); err != nil {
					t.Fatal(err)
				}
				if took := time.Since(start); took > 3*time.Second {
					t.Errorf("flush took %s, want at most the flush timeout", took)
				}
				if diff := cmp.Diff(tt.want, rec.Stats()); diff != "" {
					t.Errorf("stats (-want +got):\n%s", diff)
				}
				e.srv.Faults().SetLatency(0)
			})
		})
	}
}

// TestInvalid: calls the API would refuse are dropped and counted.
func TestInvalid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, stop := e.recorder(t, events.Options{})
		var nilPod *corev1.Pod
		rec.Eventf(nil, nil, events.Normal, "R", "A", "no object")
		rec.Eventf(nilPod, nil, events.Normal, "R", "A", "typed nil")
		rec.Eventf(pod("p"), nil, "Bad", "R", "A", "bad type")
		rec.Eventf(pod("p"), nil, events.Normal, "", "A", "no reason")
		rec.Eventf(pod("p"), nil, events.Normal, "R", "", "no action")
		rec.Eventf(pod("p"), nil, events.Normal, strings.Repeat("r", 129), "A", "long reason")
		rec.Eventf(pod("p"), nilPod, events.Normal, "R", "A", "a typed nil related object is none")
		synctest.Wait()
		stop()
		if diff := cmp.Diff(events.Stats{Invalid: 6, Created: 1}, rec.Stats()); diff != "" {
			t.Errorf("stats (-want +got):\n%s", diff)
		}
	})
}

// TestKindless: an object that does not say its kind, such as what a
// metadata-only informer caches (meta.k8s.io/v1 PartialObjectMetadata on
// kube-apiserver), is refused as regarding or related object: kubectl
// finds an object's events by kind, so such an Event would never be
// shown. A Ref naming the kind is written.
func TestKindless(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, stop := e.recorder(t, events.Options{})
		meta := &metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cm", UID: "uid-cm"}}
		rec.Eventf(meta, nil, events.Normal, "R", "A", "metadata only")
		rec.Eventf(pod("p"), meta, events.Normal, "R", "A", "metadata-only related")
		rec.Eventf(events.Ref{Namespace: "default", Name: "cm"}, nil, events.Normal, "R", "A", "a Ref without kind")
		rec.Eventf(events.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: meta.Namespace, Name: meta.Name, UID: meta.UID}, nil,
			events.Normal, "R", "A", "a Ref with kind")
		synctest.Wait()
		stop()
		if diff := cmp.Diff(events.Stats{Invalid: 3, Created: 1}, rec.Stats()); diff != "" {
			t.Errorf("stats (-want +got):\n%s", diff)
		}
		evs := e.v1Events(t, "default")
		if len(evs) != 1 || evs[0].Regarding.Kind != "ConfigMap" || evs[0].Note != "a Ref with kind" {
			t.Errorf("events %+v, want the one with a Ref", evs)
		}
	})
}

// TestNoteTruncated: a long note is cut to 1 KiB at a character boundary.
func TestNoteTruncated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, _ := e.recorder(t, events.Options{})
		rec.Eventf(pod("p"), nil, events.Normal, "R", "A", "%s", strings.Repeat("é", 1000)) // 2,000 bytes
		synctest.Wait()
		evs := e.v1Events(t, "default")
		if len(evs) != 1 {
			t.Fatalf("%d events, want 1", len(evs))
		}
		if n := len(evs[0].Note); n != events.MaxNoteBytes || !utf8.ValidString(evs[0].Note) {
			t.Errorf("note of %d bytes (valid UTF-8: %v), want %d", n, utf8.ValidString(evs[0].Note), events.MaxNoteBytes)
		}
	})
}

// TestClusterScoped: events about cluster-scoped objects go to
// "default"; a Ref names an object not at hand.
func TestClusterScoped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, _ := e.recorder(t, events.Options{})
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "Node_1", UID: "uid-node"}}
		rec.Eventf(node, nil, events.Normal, "Ready", "Checking", "node is ready")
		rec.Eventf(events.Ref{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w", FieldPath: "spec.size"}, nil,
			events.Normal, "Resized", "Resizing", "resized")
		synctest.Wait()
		evs := e.v1Events(t, "default")
		if len(evs) != 2 {
			t.Fatalf("%d events, want 2", len(evs))
		}
		var got []corev1.ObjectReference
		for _, ev := range evs {
			got = append(got, ev.Regarding)
		}
		want := []corev1.ObjectReference{
			{APIVersion: "v1", Kind: "Node", Name: "Node_1", UID: "uid-node"},
			{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w", FieldPath: "spec.size"},
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreTypes(wire.UnknownFields{})); diff != "" {
			t.Errorf("regarding (-want +got):\n%s", diff)
		}
		if !strings.HasPrefix(evs[0].Name, "node-1.") {
			t.Errorf("event name %q, want node-1.<suffix> (a DNS subdomain)", evs[0].Name)
		}
	})
}

// TestEventGone: a series whose Event was deleted (events expire) is
// written as a new Event carrying the series.
func TestEventGone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, nil)
		rec, stop := e.recorder(t, events.Options{SeriesInterval: time.Second})
		rec.Eventf(pod("p"), nil, events.Normal, "R", "A", "again")
		synctest.Wait()
		evs := e.v1Events(t, "default")
		if err := client.For[*eventsv1.Event](e.c).Namespace("default").Delete(context.Background(), evs[0].Name, client.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Eventf(pod("p"), nil, events.Normal, "R", "A", "again")
		synctest.Wait()
		stop()
		evs = e.v1Events(t, "default")
		if len(evs) != 1 || evs[0].Series == nil || evs[0].Series.Count != 2 {
			t.Fatalf("events after the first was deleted: %d, want one with a series of 2", len(evs))
		}
	})
}
