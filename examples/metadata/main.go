// Command metadata caches only the metadata of every Pod, as
// *metav1.PartialObjectMetadata (names, labels, annotations, owners,
// finalizers), for programs that need no more: a garbage collector, a
// quota or cost report, a controller that finds the Pods of its owners.
// The server sends only the metadata (Accept: ...;as=PartialObjectMetadata),
// in protobuf for built-in kinds, so both the transfer and the cache are
// a fraction of the full objects'.
//
// It gets the informer from a shared informer factory
// (informer.SharedMetadata), adds an index by owner to the running cache
// (Store.AddIndexes), watches while the Pods change, and then prints how
// many Pods each namespace and each kind of owner has, from the cache's
// indexes. It also measures the memory the cache takes (the live heap
// after a garbage collection, before and after the cache is filled)
// against a full-object informer of the same Pods, in the same run. The
// figures include each informer's fixed costs (its watch connection and
// buffers), which only thousands of Pods make small per Pod.
//
// By default it starts kubewire's in-memory API server (package fake),
// seeds it with 10,000 realistic Pods and keeps replacing them as
// Deployments roll. The server runs in the same process, but holds its
// objects from before the first measurement, so the figures are the
// caches'. With KUBECONFIG set, or -kubeconfig given, it reads a real
// cluster instead (read-only).
//
//	go run ./examples/metadata
//	go run ./examples/metadata -pods 50000 -compare=false
//	go run ./examples/metadata -kubeconfig ~/.kube/config
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/informer"
)

// config is what the flags say.
type config struct {
	kubeconfig string
	namespace  string // "" for all namespaces
	pods       int    // seeded in the fake server
	churn      time.Duration
	duration   time.Duration // how long to watch; 0: until interrupted
	compare    bool          // measure a full-object informer too
}

func main() {
	var cfg config
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	flag.StringVar(&cfg.namespace, "namespace", "", "cache the Pods of this namespace only (default: all namespaces)")
	flag.IntVar(&cfg.pods, "pods", 10_000, "Pods to seed the fake server with")
	flag.DurationVar(&cfg.churn, "churn", 50*time.Millisecond, "time between two rounds of changes on the fake server (0: no changes)")
	flag.DurationVar(&cfg.duration, "duration", 3*time.Second, "how long to watch the Pods change (0: until interrupted)")
	flag.BoolVar(&cfg.compare, "compare", true, "also measure a full-object informer of the same Pods")
	flag.Parse()
	cfg.kubeconfig = *kubeconfig

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "metadata:", err)
		os.Exit(1)
	}
}

var pods = client.GroupVersionResource{Version: "v1", Resource: "pods"}

// byOwner indexes a Pod under its controller: "ReplicaSet shop/web-7d9f".
const byOwner = "owner"

func ownerOf(m *metav1.PartialObjectMetadata) []string {
	for _, o := range m.OwnerReferences {
		if o.Controller != nil && *o.Controller {
			return []string{o.Kind + " " + m.Namespace + "/" + o.Name}
		}
	}
	return nil
}

func run(ctx context.Context, cfg config, out io.Writer) error {
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: cfg.kubeconfig, Pods: cfg.pods})
	if err != nil {
		return err
	}
	defer env.Close()
	c, err := client.New(env.Config)
	if err != nil {
		return err
	}
	where := "all namespaces"
	if cfg.namespace != "" {
		where = "namespace " + cfg.namespace
	}
	seeded := ""
	if !env.Real() {
		seeded = fmt.Sprintf(" (%d Pods seeded)", cfg.pods)
	}
	fmt.Fprintf(out, "metadata: the metadata of the Pods in %s, on %s%s\n", where, env, seeded)

	// A program's controllers share one Factory, which makes one
	// informer per kind and scope and starts them together.
	factory, err := informer.NewFactory(c, informer.FactoryOptions{DropManagedFields: true})
	if err != nil {
		return err
	}
	meta := informer.SharedMetadata(factory, pods, informer.Scope{Namespace: cfg.namespace})
	var added, updated, deleted atomic.Int64
	meta.AddHandler(informer.HandlerFuncs[*metav1.PartialObjectMetadata]{
		Add: func(_ *metav1.PartialObjectMetadata, initial bool) {
			if !initial {
				added.Add(1)
			}
		},
		Update: func(_, _ *metav1.PartialObjectMetadata) { updated.Add(1) },
		Delete: func(_ *metav1.PartialObjectMetadata, _ bool) { deleted.Add(1) },
	}, informer.HandlerOptions{})

	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stopRun()

	before := liveHeap()
	start := time.Now()
	wg.Go(func() { _ = factory.Run(runCtx) })
	if err := meta.WaitForSync(ctx); err != nil {
		return err
	}
	synced := time.Since(start)
	metaHeap := liveHeap() - before
	n := meta.Store().Len()
	fmt.Fprintf(out, "synced the metadata of %d Pods in %v\n", n, synced.Round(time.Millisecond))

	// Indexes can be added to a running cache; they are filled from what
	// it holds.
	if err := meta.Store().AddIndexes(map[string]informer.IndexFunc[*metav1.PartialObjectMetadata]{byOwner: ownerOf}); err != nil {
		return err
	}

	var fullHeap int64
	var fullN int
	if cfg.compare {
		fullN, fullHeap, err = measureFull(ctx, c, cfg.namespace)
		if err != nil {
			return err
		}
	}

	// Watch the Pods change for a while.
	watchCtx := ctx
	if cfg.duration > 0 {
		var cancel context.CancelFunc
		watchCtx, cancel = context.WithTimeout(ctx, cfg.duration)
		defer cancel()
	}
	watchStart := time.Now()
	if cfg.churn > 0 && !env.Real() {
		if _, err := env.Churn(watchCtx, exampleenv.ChurnOptions{Interval: cfg.churn}); err != nil {
			return err
		}
	} else {
		<-watchCtx.Done()
	}
	fmt.Fprintf(out, "watched for %v: %d added, %d updated, %d deleted; %d Pods cached\n",
		time.Since(watchStart).Round(100*time.Millisecond), added.Load(), updated.Load(), deleted.Load(), meta.Store().Len())
	if err := printCounts(out, meta.Store()); err != nil {
		return err
	}

	fmt.Fprintf(out, "memory of the cache (live heap after GC, with it minus without it):\n")
	fmt.Fprintf(out, "  %-16s %6d Pods %9s %9s per Pod\n", "metadata only", n, size(metaHeap), size(perObject(metaHeap, n)))
	if cfg.compare {
		fmt.Fprintf(out, "  %-16s %6d Pods %9s %9s per Pod\n", "full objects", fullN, size(fullHeap), size(perObject(fullHeap, fullN)))
		if fullHeap > 0 && fullN > 0 && n > 0 {
			fmt.Fprintf(out, "  the metadata-only cache takes %.2fx the memory of the full one per Pod\n",
				float64(perObject(metaHeap, n))/float64(perObject(fullHeap, fullN)))
		}
	}
	return nil
}

// measureFull fills a full-object informer of the same Pods, measures
// the heap it adds, and stops it.
func measureFull(ctx context.Context, c *client.Client, namespace string) (n int, heap int64, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	before := liveHeap()
	full, err := informer.New(client.For[*corev1.Pod](c).Namespace(namespace), informer.Options[*corev1.Pod]{
		Transform: informer.DropManagedFields[*corev1.Pod],
	})
	if err != nil {
		return 0, 0, err
	}
	done := make(chan error, 1)
	go func() { done <- full.Run(ctx) }()
	if err := full.WaitForSync(ctx); err != nil {
		return 0, 0, errors.Join(err, <-done)
	}
	heap = liveHeap() - before
	n = full.Store().Len()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		return 0, 0, err
	}
	return n, heap, nil
}

// printCounts prints the cached Pods per namespace (the built-in
// namespace index) and per kind of owner (the owner index).
func printCounts(out io.Writer, store *informer.Store[*metav1.PartialObjectMetadata]) error {
	type row struct {
		name       string
		pods, owns int
	}
	sorted := func(m map[string]*row) []*row {
		return slices.SortedFunc(maps.Values(m), func(a, b *row) int {
			return cmp.Or(cmp.Compare(b.pods, a.pods), strings.Compare(a.name, b.name))
		})
	}

	namespaces := map[string]*row{}
	values, _ := store.IndexValues(informer.NamespaceIndex)
	for _, ns := range values {
		keys, _ := store.IndexKeys(informer.NamespaceIndex, ns)
		namespaces[ns] = &row{name: ns, pods: len(keys)}
	}

	kinds := map[string]*row{}
	owners, err := store.IndexValues(byOwner)
	if err != nil {
		return err
	}
	owned := 0
	for _, owner := range owners {
		keys, _ := store.IndexKeys(byOwner, owner)
		kind, _, _ := strings.Cut(owner, " ")
		r := kinds[kind]
		if r == nil {
			r = &row{name: kind}
			kinds[kind] = r
		}
		r.pods += len(keys)
		r.owns++
		owned += len(keys)
	}
	if none := store.Len() - owned; none > 0 {
		kinds["(no owner)"] = &row{name: "(no owner)", pods: none}
	}

	left, right := sorted(namespaces), sorted(kinds)
	fmt.Fprintf(out, "  %-20s %6s    %-22s %6s %7s\n", "NAMESPACE", "PODS", "OWNER KIND", "PODS", "OWNERS")
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = fmt.Sprintf("%-20s %6d", left[i].name, left[i].pods)
		}
		if i < len(right) {
			r = fmt.Sprintf("%-22s %6d %7d", right[i].name, right[i].pods, right[i].owns)
		}
		fmt.Fprintln(out, strings.TrimRight(fmt.Sprintf("  %-27s    %s", l, r), " "))
	}
	return nil
}

// liveHeap returns the bytes of live heap objects, after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func perObject(heap int64, n int) int64 {
	if n == 0 {
		return 0
	}
	return heap / int64(n)
}

// size writes bytes in B, KB or MB (powers of 1,000, with one decimal).
func size(b int64) string {
	switch {
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d B", b)
}
