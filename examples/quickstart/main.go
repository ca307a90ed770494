// Command quickstart shows kubewire's main job end to end: it lists a
// large collection page by page and then watches it from the list's
// resourceVersion, so that no change between the two is missed.
//
// By default it starts kubewire's in-memory API server (package fake),
// seeds it with thousands of ConfigMaps and changes some while it watches.
// With KUBECONFIG set, or -kubeconfig given, it reads a real cluster
// instead (read-only: it makes no changes there).
//
//	go run ./examples/quickstart
//	go run ./examples/quickstart -kubeconfig ~/.kube/config -namespace kube-system
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
)

func main() {
	kubeconfigPath := flag.String("kubeconfig", "", "kubeconfig of a real cluster (default: $KUBECONFIG if set, else an embedded fake server)")
	namespace := flag.String("namespace", "demo", "namespace to list and watch")
	objects := flag.Int("objects", 5000, "ConfigMaps to seed the fake server with")
	watchFor := flag.Duration("watch", 3*time.Second, "how long to watch after listing")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *kubeconfigPath, *namespace, *objects, *watchFor); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, kubeconfigPath, namespace string, objects int, watchFor time.Duration) error {
	cfg, churn, cleanup, err := connect(kubeconfigPath, namespace, objects)
	if err != nil {
		return err
	}
	defer cleanup()
	c, err := client.New(cfg)
	if err != nil {
		return err
	}
	configMaps := client.For[*corev1.ConfigMap](c).Namespace(namespace)

	// List in pages of 500: every page is served from the first page's
	// snapshot, so the total is consistent.
	start := time.Now()
	var items, pages int
	var resourceVersion string
	opts := client.ListOptions{Limit: 500}
	for {
		page, err := configMaps.List(ctx, opts)
		if err != nil {
			return fmt.Errorf("list: %w", err)
		}
		pages++
		items += len(page.Items)
		resourceVersion = page.ResourceVersion
		if page.Continue == "" {
			break
		}
		opts.Continue = page.Continue
	}
	fmt.Printf("listed %d ConfigMaps in %d pages in %v (resourceVersion %s)\n",
		items, pages, time.Since(start).Round(time.Millisecond), resourceVersion)

	// Watch from the list's resourceVersion: every change after the
	// snapshot arrives, none twice.
	watchCtx, cancel := context.WithTimeout(ctx, watchFor)
	defer cancel()
	w, err := configMaps.Watch(watchCtx, client.WatchOptions{ResourceVersion: resourceVersion, AllowWatchBookmarks: true})
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer w.Close()
	go churn(watchCtx)
	counts := map[string]int{}
	for ev, err := range w.Events() {
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) {
				break
			}
			return fmt.Errorf("watch: %w", err)
		}
		counts[string(ev.Type)]++
		if ev.Object != nil && ev.Type != client.Bookmark && counts[string(ev.Type)] <= 3 {
			fmt.Printf("  %-8s %s (resourceVersion %s)\n", ev.Type, ev.Object.Name, ev.ResourceVersion)
		}
	}
	fmt.Printf("watched for %v: %d added, %d modified, %d deleted\n", watchFor,
		counts[string(client.Added)], counts[string(client.Modified)], counts[string(client.Deleted)])
	return nil
}
