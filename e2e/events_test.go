package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/events"
)

// TestEvents records events against a real kube-apiserver: they must
// pass its validation as events.k8s.io/v1 Events (names, eventTime,
// reporting fields, the note limit, series), name the right regarding
// and related objects, aggregate repeats into a series, and be found
// the way kubectl describe finds them (core/v1, involvedObject.uid).
func TestEvents(t *testing.T) {
	cluster := harness.Shared(t, "kube-apiserver", harness.Options{})
	ns := "events-e2e"
	ctx := t.Context()
	if err := cluster.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{cluster.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	cms := client.For[*corev1.ConfigMap](c).Namespace(ns)
	subject, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "subject"}}, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	related, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "related"}}, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nsObj, err := client.For[*corev1.Namespace](c).Get(ctx, ns, client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	rec, err := events.NewRecorder(c, events.Options{Component: "kubewire.io/e2e-controller", Instance: "e2e-1", SeriesInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rec.Run(runCtx) }()
	start := time.Now()
	for range 5 {
		rec.Eventf(subject, related, events.Warning, "SyncFailed", "Syncing", "cannot sync: %s", "quota exceeded")
	}
	rec.Eventf(subject, nil, events.Normal, "Synced", "Syncing", "%s", strings.Repeat("long note ", 200)) // cut to 1 KiB
	rec.Eventf(nsObj, nil, events.Normal, "Checked", "Checking", "namespace checked")                     // cluster-scoped: in "default"
	time.Sleep(2 * time.Second)                                                                           // one series interval
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(events.Stats{Created: 3, Aggregated: 4, SeriesUpdates: 1}, rec.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}

	list, err := client.For[*eventsv1.Event](c).Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byReason := map[string]*eventsv1.Event{}
	for _, ev := range list.Items {
		byReason[ev.Reason] = ev
	}
	failed := byReason["SyncFailed"]
	if failed == nil || len(list.Items) != 2 {
		t.Fatalf("%d events in %s, want SyncFailed and Synced", len(list.Items), ns)
	}
	wantRegarding := corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: "subject", UID: subject.UID, ResourceVersion: subject.ResourceVersion}
	ignore := []cmp.Option{cmpopts.IgnoreTypes(wire.UnknownFields{})}
	if diff := cmp.Diff(wantRegarding, failed.Regarding, ignore...); diff != "" {
		t.Errorf("regarding (-want +got):\n%s", diff)
	}
	wantRelated := &corev1.ObjectReference{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: "related", UID: related.UID, ResourceVersion: related.ResourceVersion}
	if diff := cmp.Diff(wantRelated, failed.Related, ignore...); diff != "" {
		t.Errorf("related (-want +got):\n%s", diff)
	}
	if failed.Series == nil || failed.Series.Count != 5 || failed.Series.LastObservedTime.Before(&failed.EventTime) {
		t.Errorf("series %+v, want a count of 5 observed after the eventTime", failed.Series)
	}
	if failed.ReportingController != "kubewire.io/e2e-controller" || failed.ReportingInstance != "e2e-1" || failed.Type != events.Warning ||
		failed.Action != "Syncing" || failed.Note != "cannot sync: quota exceeded" || failed.EventTime.Time.Before(start.Add(-time.Second)) {
		t.Errorf("event fields: %+v", failed)
	}
	if n := len(byReason["Synced"].Note); n != events.MaxNoteBytes {
		t.Errorf("long note stored with %d bytes, want %d", n, events.MaxNoteBytes)
	}
	t.Logf("event %s: regarding %s/%s uid %s, series count %d", failed.Name, failed.Regarding.Kind, failed.Regarding.Name, failed.Regarding.UID, failed.Series.Count)

	// As kubectl describe finds them: core/v1, selected by the object's uid.
	core, err := client.For[*corev1.Event](c).Namespace(ns).List(ctx, client.ListOptions{
		FieldSelector: client.FieldSelector{}.Equals("involvedObject.uid", string(subject.UID)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(core.Items) != 2 {
		t.Errorf("%d core/v1 events for the subject's uid, want 2", len(core.Items))
	}
	for _, ev := range core.Items {
		if ev.InvolvedObject.Name != "subject" || ev.InvolvedObject.Kind != "ConfigMap" {
			t.Errorf("core/v1 view: involvedObject %+v", ev.InvolvedObject)
		}
	}

	def, err := client.For[*eventsv1.Event](c).Namespace("default").List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ev := range def.Items {
		if ev.Regarding.Kind == "Namespace" && ev.Regarding.Name == ns && ev.Regarding.UID == nsObj.UID {
			found = true
		}
	}
	if !found {
		t.Errorf("no event about namespace %s in default", ns)
	}
}
