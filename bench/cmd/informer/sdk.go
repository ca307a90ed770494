package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-logr/logr"
	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// counters is what the one handler of each informer counts.
type counters struct {
	adds, updates, deletes atomic.Int64
	// The events phase records the time of the update numbered firstAt
	// and of the one numbered lastAt (Unix nanoseconds).
	firstAt, lastAt atomic.Int64
	first, last     atomic.Int64
}

func newCounters() *counters {
	c := new(counters)
	c.firstAt.Store(-1)
	c.lastAt.Store(-1)
	return c
}

func (c *counters) update() {
	n := c.updates.Add(1)
	if n == c.firstAt.Load() {
		c.first.Store(time.Now().UnixNano())
	}
	if n == c.lastAt.Load() {
		c.last.Store(time.Now().UnixNano())
	}
}

// subject is one SDK's Pod informer, with one counting handler.
type subject interface {
	// run runs the informer until ctx ends.
	run(ctx context.Context)
	// waitSynced returns once the cache holds the first full state.
	waitSynced(ctx context.Context) error
	// cached is the number of objects in the cache.
	cached() int
	// relistMark notes the state before a forced relist, and relisted
	// reports whether a relist finished since (cache replaced, every
	// handler notification delivered).
	relistMark() any
	relisted(mark any) bool
	// progress says where the informer is, for a wait that times out.
	progress() string
}

// newSubject builds sdk's informer over every Pod of the server at url.
// mode is "watchlist" or "list"; for client-go it is applied through
// the WatchListClient feature gate, read from the environment
// (KUBE_FEATURE_WatchListClient) that the driver sets for the child.
func newSubject(sdk, url, token, mode string, pageSize int64, inPages bool, c *counters) (subject, error) {
	switch sdk {
	case "kubewire":
		cl, err := client.New(client.Config{Host: url, BearerToken: token, QPS: -1})
		if err != nil {
			return nil, err
		}
		inf, err := informer.New(client.For[*kwcorev1.Pod](cl), informer.Options[*kwcorev1.Pod]{
			Reflector: reflector.Options{WatchList: mode == "watchlist", PageSize: pageSize, ListInPages: inPages},
		})
		if err != nil {
			return nil, err
		}
		reg := inf.AddHandler(informer.HandlerFuncs[*kwcorev1.Pod]{
			Add:    func(*kwcorev1.Pod, bool) { c.adds.Add(1) },
			Update: func(_, _ *kwcorev1.Pod) { c.update() },
			Delete: func(*kwcorev1.Pod, bool) { c.deletes.Add(1) },
		}, informer.HandlerOptions{})
		return &kwSubject{inf: inf, reg: reg}, nil
	case "client-go":
		klog.SetLogger(logr.Discard()) // watch closes and 410s are logged otherwise
		cfg := &rest.Config{Host: url, BearerToken: token, QPS: 1e6, Burst: 1e6}
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
		cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return nil, err
		}
		// The factory's informer, as controllers get it: namespace
		// index, no resync, a ListWatch that supports watch-lists.
		inf := informers.NewSharedInformerFactory(cs, 0).Core().V1().Pods().Informer()
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { c.adds.Add(1) },
			UpdateFunc: func(_, _ any) { c.update() },
			DeleteFunc: func(any) { c.deletes.Add(1) },
		}); err != nil {
			return nil, err
		}
		return &cgSubject{inf: inf, c: c}, nil
	}
	return nil, fmt.Errorf("unknown sdk %q", sdk)
}

type kwSubject struct {
	inf *informer.Informer[*kwcorev1.Pod]
	reg *informer.Registration[*kwcorev1.Pod]
}

func (s *kwSubject) run(ctx context.Context)              { _ = s.inf.Run(ctx) }
func (s *kwSubject) waitSynced(ctx context.Context) error { return s.inf.WaitForSync(ctx) }
func (s *kwSubject) cached() int                          { return s.inf.Store().Len() }
func (s *kwSubject) relistMark() any                      { return s.inf.Reflector().Relists() }

// relisted: a relist started after the mark and the reflector is back to
// watching, with the handler's queue empty. (A relist that finds every
// object unchanged, as here, tells the handler nothing.)
func (s *kwSubject) progress() string {
	r := s.inf.Reflector()
	return fmt.Sprintf("reflector %v, %d relists, %d handler notifications pending, last error %v",
		r.State(), r.Relists(), s.reg.Pending(), r.Err())
}

func (s *kwSubject) relisted(mark any) bool {
	r := s.inf.Reflector()
	return r.Relists() > mark.(int64) && r.State() == reflector.Watching && s.reg.Pending() == 0
}

type cgSubject struct {
	inf cache.SharedIndexInformer
	c   *counters
}

func (s *cgSubject) run(ctx context.Context) { s.inf.RunWithContext(ctx) }

// waitSynced polls HasSynced every millisecond (cache.WaitForCacheSync
// polls every 100 ms, which would add up to 100 ms to client-go's time).
func (s *cgSubject) waitSynced(ctx context.Context) error {
	for !s.inf.HasSynced() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
	return nil
}

func (s *cgSubject) cached() int { return len(s.inf.GetStore().ListKeys()) }

type cgMark struct {
	rv      string
	updates int64
	n       int
}

func (s *cgSubject) progress() string {
	return fmt.Sprintf("resourceVersion %q, %d cached, %d updates", s.inf.LastSyncResourceVersion(), s.cached(), s.c.updates.Load())
}

func (s *cgSubject) relistMark() any {
	return cgMark{rv: s.inf.LastSyncResourceVersion(), updates: s.c.updates.Load(), n: s.cached()}
}

// relisted: the reflector's resourceVersion moved (only the relist moves
// it here: the forced relist changes no Pod) and the handler has been
// told OnUpdate for every object, which is how client-go delivers a
// Replace.
func (s *cgSubject) relisted(mark any) bool {
	m := mark.(cgMark)
	return s.inf.LastSyncResourceVersion() != m.rv && s.c.updates.Load()-m.updates >= int64(m.n)
}
