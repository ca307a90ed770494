package pager_test

import (
	"context"
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/pager"
)

// startExample starts a fake API server holding five ConfigMaps and
// returns a client for it.
func startExample() (*fake.Server, *client.Client, error) {
	srv := fake.Start(fake.Options{})
	c, err := client.New(client.Config{Host: srv.URL(), BearerToken: srv.Token()})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")
	for i := range 5 {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}}
		if _, err := cms.Create(context.Background(), cm, client.CreateOptions{}); err != nil {
			srv.Close()
			return nil, nil, err
		}
	}
	return srv, c, nil
}

// Range over the items of a list read in pages of two, with progress,
// then start a watch where the list left off.
func ExampleNew() {
	srv, c, err := startExample()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")

	p, err := pager.New(cms.List, pager.Options{
		PageSize: 2,
		Progress: func(pr pager.Progress) { fmt.Printf("page %d: %d of %d\n", pr.Pages, pr.Items, pr.Total) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for cm, err := range p.Items(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(cm.Name)
	}

	w, err := cms.Watch(ctx, client.WatchOptions{ResourceVersion: p.Snapshot().ResourceVersion})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	fmt.Println("watching from the list's resourceVersion")
	// Output:
	// page 1: 2 of 5
	// cm-0
	// cm-1
	// page 2: 4 of 5
	// cm-2
	// cm-3
	// page 3: 5 of 5
	// cm-4
	// watching from the list's resourceVersion
}

// Read pages of object metadata only, without read-ahead.
func ExamplePager_Pages() {
	srv, c, err := startExample()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	meta := client.Metadata(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}, true).Namespace("default")

	p, err := pager.New(meta.List, pager.Options{PageSize: 3, ReadAhead: pager.ReadAheadOff})
	if err != nil {
		fmt.Println(err)
		return
	}
	for page, err := range p.Pages(context.Background()) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("page %d: %d items, more: %t\n", page.Index, len(page.Items), page.Continue != "")
	}
	// Output:
	// page 0: 3 items, more: true
	// page 1: 2 items, more: false
}

// Gather a whole list of custom or built-in resources, as Unstructured
// objects, into one list.
func ExamplePager_ListAll() {
	srv, c, err := startExample()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	cms := client.Dynamic(c, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")

	p, err := pager.New(cms.List, pager.Options{PageSize: 2, OnExpired: pager.RestartPaged})
	if err != nil {
		fmt.Println(err)
		return
	}
	list, err := p.ListAll(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(list.Items), "items; room reserved for", cap(list.Items))
	// Output:
	// 5 items; room reserved for 5
}

// List a thousand ConfigMaps in pages of 300, counting them by label as
// they arrive (each is dropped once counted, so about two pages are held
// at a time), then read what the list was.
func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	seed := make([]any, 1000)
	for i := range seed {
		tier := []string{"front", "back"}[i%2]
		seed[i] = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%04d", i), Namespace: "default", Labels: map[string]string{"tier": tier}}}
	}
	if err := srv.Add(seed...); err != nil {
		fmt.Println(err)
		return
	}
	c, err := client.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")

	p, err := pager.New(cms.List, pager.Options{PageSize: 300})
	if err != nil {
		fmt.Println(err)
		return
	}
	byTier := map[string]int{}
	for cm, err := range p.Items(context.Background()) {
		if err != nil {
			fmt.Println(err)
			return
		}
		byTier[cm.Labels["tier"]]++
	}
	snap := p.Snapshot()
	fmt.Println(snap.Items, "items in", snap.Pages, "pages; one snapshot:", snap.Complete && !snap.Inconsistent)
	fmt.Println(byTier)
	// Output:
	// 1000 items in 4 pages; one snapshot: true
	// map[back:500 front:500]
}
