package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	kwpager "github.com/kubewire/kubewire/pager"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	cgpager "k8s.io/client-go/tools/pager"
)

// measure runs one list of every Pod in the cluster, sampling the heap
// every millisecond.
func measure(variant, url, token, format string, pageSize int64) (result, error) {
	list, err := lister(variant, url, token, format, pageSize)
	if err != nil {
		return result{}, err
	}
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	start := time.Now()
	n, keep, err := list(context.Background())
	elapsed := time.Since(start)
	close(done)
	<-stopped
	runtime.KeepAlive(keep)
	if err != nil {
		return result{}, err
	}
	return result{Variant: variant, Items: n, Seconds: elapsed.Seconds(), PeakHeap: peak.Load(), PeakRSS: peakRSS()}, nil
}

// listFunc lists everything and returns the count and, for the variants
// that gather the list, the list (kept alive until measured).
type listFunc func(context.Context) (int, any, error)

func lister(variant, url, token, format string, pageSize int64) (listFunc, error) {
	switch variant {
	case "kubewire-items", "kubewire-items-sync", "kubewire-listall":
		c, err := client.New(client.Config{Host: url, BearerToken: token, QPS: -1})
		if err != nil {
			return nil, err
		}
		opts := kwpager.Options{PageSize: pageSize}
		if variant == "kubewire-items-sync" {
			opts.ReadAhead = kwpager.ReadAheadOff // one page held at a time
		}
		p, err := kwpager.New(client.For[*kwcorev1.Pod](c).List, opts)
		if err != nil {
			return nil, err
		}
		if variant == "kubewire-listall" {
			return func(ctx context.Context) (int, any, error) {
				l, err := p.ListAll(ctx)
				if err != nil {
					return 0, nil, err
				}
				return len(l.Items), l, nil
			}, nil
		}
		return func(ctx context.Context) (int, any, error) {
			n := 0
			for _, err := range p.Items(ctx) {
				if err != nil {
					return n, nil, err
				}
				n++
			}
			return n, nil, nil
		}, nil
	case "client-go-each", "client-go-list":
		cfg := &rest.Config{Host: url, BearerToken: token, QPS: 1e6, Burst: 1e6}
		if format == "protobuf" {
			cfg.ContentType = "application/vnd.kubernetes.protobuf"
			cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
		}
		cs, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			return nil, err
		}
		p := cgpager.New(func(ctx context.Context, opts metav1.ListOptions) (kruntime.Object, error) {
			return cs.CoreV1().Pods("").List(ctx, opts)
		})
		p.PageSize = pageSize
		if variant == "client-go-list" {
			return func(ctx context.Context) (int, any, error) {
				l, _, err := p.List(ctx, metav1.ListOptions{})
				if err != nil {
					return 0, nil, err
				}
				return meta.LenList(l), l, nil
			}, nil
		}
		return func(ctx context.Context) (int, any, error) {
			n := 0
			err := p.EachListItem(ctx, metav1.ListOptions{}, func(kruntime.Object) error { n++; return nil })
			return n, nil, err
		}, nil
	}
	return nil, fmt.Errorf("unknown variant %q", variant)
}

// peakRSS is the process's peak resident set (VmHWM), or 0 when unknown.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
