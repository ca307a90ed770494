package controller_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"sync"
	"testing"
	"testing/synctest"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
)

// jsonLines is a concurrency-safe slog JSON sink whose records a test
// can read back.
type jsonLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (j *jsonLines) Write(p []byte) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.buf.Write(p)
}

func (j *jsonLines) records(t *testing.T) []map[string]any {
	t.Helper()
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(j.buf.Bytes()), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

var uuidLike = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// A controller given its logger by SetDefaults (as a manager does) hands
// each Reconcile a logger with the controller, the Request and a
// reconcileID; a failed Reconcile is logged once, with the same fields;
// Stats counts the Reconcile in progress.
func TestReconcileLogger(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		create(t, e.direct, configMap("ns-a", "a", "1"))
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "ns-a"})
		var sink jsonLines
		entered, release, second := make(chan struct{}), make(chan struct{}), make(chan struct{})
		var calls int
		ctl := newController(t, "logs", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			calls++
			controller.Logger(ctx).Info("reconciling", "call", calls)
			switch calls {
			case 1:
				close(entered)
				<-release
				return controller.Result{}, errors.New("first attempt fails")
			case 2: // a write from a stale cache: routine, logged at Info
				return controller.Result{}, fmt.Errorf("update: %w", client.ErrConflict)
			case 3: // both failures were logged before the Request was queued again
				close(second)
			}
			return controller.Result{}, nil
		}), controller.Options{Queue: fastQueue})
		ctl.SetDefaults(controller.Defaults{Logger: slog.New(slog.NewJSONHandler(&sink, nil))})

		stopFactory := running(t, f.Run)
		defer stopFactory()
		stop := running(t, ctl.Run)
		<-entered
		if s := ctl.Stats(); s.Active != 1 || s.Workers != 1 {
			t.Errorf("Stats during a Reconcile = %+v, want 1 active of 1 worker", s)
		}
		close(release)
		<-second
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		recs := sink.records(t)
		var reconciling, failed, conflicted []map[string]any
		for _, r := range recs {
			switch r["msg"] {
			case "reconciling":
				reconciling = append(reconciling, r)
			case "controller: reconcile failed":
				failed = append(failed, r)
			case "controller: reconcile conflicted, retrying":
				conflicted = append(conflicted, r)
			}
		}
		if len(reconciling) != 3 || len(failed) != 1 || len(conflicted) != 1 {
			t.Fatalf("want 3 reconciling lines, 1 failure and 1 conflict, got %d, %d and %d:\n%v", len(reconciling), len(failed), len(conflicted), recs)
		}
		if failed[0]["level"] != "ERROR" || conflicted[0]["level"] != "INFO" {
			t.Errorf("failure logged at %v, conflict at %v; want ERROR and INFO", failed[0]["level"], conflicted[0]["level"])
		}
		for _, r := range append(reconciling, failed...) {
			if r["controller"] != "logs" || r["namespace"] != "ns-a" || r["name"] != "a" {
				t.Errorf("record lacks the controller and Request fields: %v", r)
			}
			if id, _ := r["reconcileID"].(string); !uuidLike.MatchString(id) {
				t.Errorf("record's reconcileID %q is not a UUID: %v", id, r)
			}
		}
		if failed[0]["reconcileID"] != reconciling[0]["reconcileID"] {
			t.Errorf("the failure's reconcileID %v is not the failed call's %v", failed[0]["reconcileID"], reconciling[0]["reconcileID"])
		}
		if conflicted[0]["reconcileID"] != reconciling[1]["reconcileID"] {
			t.Errorf("the conflict's reconcileID %v is not the conflicted call's %v", conflicted[0]["reconcileID"], reconciling[1]["reconcileID"])
		}
		if reconciling[0]["reconcileID"] == reconciling[1]["reconcileID"] {
			t.Error("two Reconcile calls share a reconcileID")
		}
		if failed[0]["error"] != "first attempt fails" {
			t.Errorf("failure logged with error %v", failed[0]["error"])
		}
	})
}

// SetDefaults keeps what Options set; Logger outside a Reconcile is
// slog.Default().
func TestSetDefaultsKeepsOptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		create(t, e.direct, configMap("ns-b", "b", "1"))
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "ns-b"})
		var own, given jsonLines
		done := make(chan struct{})
		var once sync.Once
		ctl := newController(t, "own", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			controller.Logger(ctx).Info("reconciling")
			once.Do(func() { close(done) })
			return controller.Result{}, nil
		}), controller.Options{Logger: slog.New(slog.NewJSONHandler(&own, nil))})
		ctl.SetDefaults(controller.Defaults{Logger: slog.New(slog.NewJSONHandler(&given, nil))})
		stopFactory := running(t, f.Run)
		defer stopFactory()
		stop := running(t, ctl.Run)
		<-done
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if len(own.records(t)) != 1 || len(given.records(t)) != 0 {
			t.Errorf("Options.Logger got %d records, the default %d; want 1 and 0", len(own.records(t)), len(given.records(t)))
		}
		if controller.Logger(context.Background()) != slog.Default() {
			t.Error("Logger outside a Reconcile is not slog.Default()")
		}
	})
}

// TestNilLoggerIsSlogDefault: a controller made without a logger and run
// without a manager logs a failed Reconcile through slog.Default() (before,
// it discarded the line). Not parallel: it sets slog's default.
func TestNilLoggerIsSlogDefault(t *testing.T) {
	var sink jsonLines
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&sink, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		create(t, e.direct, configMap("ns-a", "a", "1"))
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "ns-a"})
		retried := make(chan struct{})
		calls := 0
		ctl := newController(t, "quiet", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			if calls++; calls == 1 {
				return controller.Result{}, errors.New("first attempt fails")
			}
			if calls == 2 {
				close(retried)
			}
			return controller.Result{}, nil
		}), controller.Options{Queue: fastQueue})
		stopFactory := running(t, f.Run)
		defer stopFactory()
		stop := running(t, ctl.Run)
		<-retried
		if err := stop(); err != nil {
			t.Fatal(err)
		}
	})
	var failed int
	for _, r := range sink.records(t) {
		if r["msg"] == "controller: reconcile failed" && r["error"] == "first attempt fails" && r["controller"] == "quiet" {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("slog.Default() got %d 'reconcile failed' lines, want 1; it has:\n%s", failed, sink.buf.String())
	}
}
