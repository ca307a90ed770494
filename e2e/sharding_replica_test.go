package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	widgetv1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/reflector"
	"github.com/kubewire/kubewire/sharding"
)

// A replica of the sharded Widget controller runs in a process of its
// own, so that it can be killed with SIGKILL: this test binary, run with
// -test.run=^TestShardReplicaProcess$ and the replica's configuration
// in shardReplicaEnv. It prints "addr HOST:PORT" (its status server)
// on its standard output, reports every Reconcile to the parent's fence
// (enter and leave, synchronously, so that the parent sees a total
// order), and stops, leaving the ring, when its standard input ends.

const shardReplicaEnv = "KUBEWIRE_E2E_SHARD_REPLICA"

// replicaConfig is what a replica process is told.
type replicaConfig struct {
	Kubeconfig, ID, Namespace, Fence string
	Lease, Renew, Retry, Work        time.Duration
	Workers                          int
}

// replicaStatus is what a replica reports at /status.
type replicaStatus struct {
	ID       string
	Joined   bool
	Members  []string
	Assigned int
	Acting   int
	Cached   int // slots its cache holds
	// Selector is the part it works on, Cache the one its cache holds,
	// Synced the one its informer's store holds (SyncedOK false before
	// any).
	Selector, Cache, Synced client.ShardSelector
	SyncedOK                bool
	State                   string // the Widget reflector's state
	Objects                 int    // Widgets cached
	OnServer                bool   // the server applied the shard selector
	Relists, PartLists      int64  // the Widget reflector's full states and lists of parts
	RingRelists             int64
	Lists                   []listRecord // every list of Widgets, in order
	LastRenewal             time.Time
}

// listRecord is one list of Widgets a replica's reflector started.
type listRecord struct {
	At     time.Time
	How    string // Listing or WatchListing
	Reason string
	Range  client.ShardSelector // what was listed
	Done   bool                 // it ended
	Err    string               // why it failed, "" when it was stored
	Items  int
}

// TestShardReplicaProcess is a replica of TestSharding's controller;
// it runs only as a child process of TestSharding.
func TestShardReplicaProcess(t *testing.T) {
	raw := os.Getenv(shardReplicaEnv)
	if raw == "" {
		t.Skip("a replica process of TestSharding")
	}
	var cfg replicaConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	if err := runReplica(cfg, os.Stdin, os.Stdout); err != nil {
		t.Fatal(err)
	}
}

// listLog is the Widget reflector's Metrics: it records every list.
type listLog struct {
	mu   sync.Mutex
	inf  *informer.Informer[*widgetv1.Widget]
	recs []listRecord
}

func (l *listLog) ListStarted(how reflector.State, why reflector.Reason) {
	rec := listRecord{At: time.Now(), How: how.String(), Reason: string(why)}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inf != nil {
		rec.Range = l.inf.Shard()
		if part, ok := l.inf.Reflector().ListingPart(); ok && why == reflector.ReasonShardWidened {
			rec.Range = part
		}
	}
	l.recs = append(l.recs, rec)
}

// Informer makes l the reflector.Metrics of the Factory's informer (the
// replica has one, of Widgets).
func (l *listLog) Informer(client.GroupVersionResource, informer.Scope, informer.Cache) reflector.Metrics {
	return l
}

func (l *listLog) records() []listRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]listRecord(nil), l.recs...)
}

func (l *listLog) ListDone(_ reflector.State, items int, _ time.Duration, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.recs) - 1; i >= 0; i-- {
		if !l.recs[i].Done {
			l.recs[i].Done, l.recs[i].Items = true, items
			if err != nil {
				l.recs[i].Err = err.Error()
			}
			return
		}
	}
}
func (*listLog) WatchEvent(client.EventType)          {}
func (*listLog) WatchEnded(time.Duration, int, error) {}
func (*listLog) BackingOff(time.Duration, error)      {}

// fenceClient reports Reconcile calls to the parent.
type fenceClient struct {
	base string
	id   string
	hc   *http.Client
}

func (f *fenceClient) call(op, key string) error {
	resp, err := f.hc.PostForm(f.base+"/"+op, url.Values{"key": {key}, "id": {f.id}})
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fence %s: %s", op, resp.Status)
	}
	return nil
}

func runReplica(cfg replicaConfig, stdin io.Reader, stdout io.Writer) error {
	ccfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{cfg.Kubeconfig}})
	if err != nil {
		return err
	}
	ccfg.QPS = -1
	c, err := client.New(ccfg)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if os.Getenv("KUBEWIRE_E2E_SHARDING_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})).With("replica", cfg.ID)
	lists := &listLog{}
	m, err := manager.New(c, manager.Options{
		Name: "sharded-widgets",
		Sharding: &sharding.Config{Namespace: cfg.Namespace, Identity: cfg.ID,
			LeaseDuration: cfg.Lease, RenewDeadline: cfg.Renew, RetryPeriod: cfg.Retry, Logger: log},
		Informers: informer.FactoryOptions{DropManagedFields: true, Reflector: reflector.Options{Logger: log}, Metrics: lists},
	})
	if err != nil {
		return err
	}
	widgets := informer.Shared[*widgetv1.Widget](m.Factory(), informer.Scope{Namespace: cfg.Namespace, Shard: m.ShardKey()})
	lists.mu.Lock()
	lists.inf = widgets
	lists.mu.Unlock()
	fence := &fenceClient{base: cfg.Fence, id: cfg.ID, hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
	api := client.For[*widgetv1.Widget](c)
	ctl, err := controller.NewFor("widgets", widgets, func(ctx context.Context, w *widgetv1.Widget) (controller.Result, error) {
		if err := fence.call("enter", w.Name); err != nil {
			return controller.Result{}, err
		}
		defer func() { _ = fence.call("leave", w.Name) }()
		time.Sleep(cfg.Work)
		if w.Status.ObservedGeneration == w.Generation && w.Status.ConfigMap == cfg.ID {
			return controller.Result{}, nil
		}
		// The status names the replica that reconciled the Widget last:
		// at rest, the one whose part holds it.
		_, _, err := ctrlutil.Patch(ctx, api, w, func(w *widgetv1.Widget) error {
			w.Status = widgetv1.WidgetStatus{ConfigMap: cfg.ID, ObservedGeneration: w.Generation}
			return nil
		})
		return controller.Result{}, ctrlutil.IgnoreNotFound(err)
	}, controller.Options{Workers: cfg.Workers, Shard: m.ShardKey(), Logger: log})
	if err != nil {
		return err
	}
	m.Add(ctl)

	mux := http.NewServeMux()
	mux.HandleFunc("/status", func(w http.ResponseWriter, _ *http.Request) {
		st := m.Member().Status()
		synced, ok := widgets.SyncedShard()
		_ = json.NewEncoder(w).Encode(replicaStatus{
			ID: cfg.ID, Joined: st.Joined, Members: st.Members, Assigned: st.Assigned, Acting: st.Acting, Cached: st.Cached,
			Selector: st.Selector, Cache: st.Cache, Synced: synced, SyncedOK: ok,
			State: widgets.Reflector().State().String(), Objects: widgets.Store().Len(), OnServer: widgets.ShardedOnServer(),
			Relists: widgets.Reflector().Relists(), PartLists: widgets.Reflector().PartLists(), RingRelists: st.RingRelists,
			Lists: lists.records(), LastRenewal: st.LastRenewal,
		})
	})
	mux.HandleFunc("/cache", func(w http.ResponseWriter, _ *http.Request) {
		out := map[string]string{}
		for _, o := range widgets.Store().List() {
			out[o.Name] = o.ResourceVersion
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runErr := make(chan error, 1)
	go func() { runErr <- m.Run(ctx) }()
	if _, err := fmt.Fprintf(stdout, "addr %s\n", ln.Addr()); err != nil {
		return err
	}
	ended := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, bufio.NewReader(stdin))
		close(ended)
	}()
	select {
	case <-ended:
	case err := <-runErr:
		return fmt.Errorf("manager ended by itself: %w", err)
	}
	cancel()
	select {
	case err := <-runErr:
		if err != nil && ctx.Err() == nil {
			return err
		}
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("the manager did not stop within 30s")
	}
}
