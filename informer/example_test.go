package informer_test

import (
	"context"
	"errors"
	"fmt"
	"slices"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	for _, name := range []string{"web", "db", "cache"} {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"tier": "backend"}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: name, Image: name}}},
		}
		if name == "web" {
			pod.Labels["tier"] = "frontend"
		}
		if err := srv.Add(pod); err != nil {
			panic(err)
		}
	}
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}

	byTier := func(p *corev1.Pod) []string { return []string{p.Labels["tier"]} }
	inf, err := informer.New(client.For[*corev1.Pod](c), informer.Options[*corev1.Pod]{
		Indexes: map[string]informer.IndexFunc[*corev1.Pod]{"tier": byTier},
	})
	if err != nil {
		panic(err)
	}
	added := make(chan string)
	inf.AddHandler(informer.HandlerFuncs[*corev1.Pod]{
		Add: func(p *corev1.Pod, initial bool) {
			if !initial {
				added <- p.Name
			}
		},
	}, informer.HandlerOptions{})

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- inf.Run(ctx) }()
	if err := inf.WaitForSync(ctx); err != nil {
		panic(err)
	}

	backend, _ := inf.Store().ByIndex("tier", "backend")
	var names []string
	for _, p := range backend {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	fmt.Println("backend:", names)

	pods := client.For[*corev1.Pod](c).Namespace("default")
	if _, err := pods.Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "queue"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "queue", Image: "queue"}}},
	}, client.CreateOptions{}); err != nil {
		panic(err)
	}
	fmt.Println("added:", <-added)

	cancel()
	fmt.Println("run:", <-errc)
	// Output:
	// backend: [cache db]
	// added: queue
	// run: context canceled
}

// WaitForSync tells at once when the server refuses the informer, here
// because the custom resource's CRD is not installed; the informer keeps
// retrying, and syncs once the resource is served.
func ExampleInformer_WaitForSync_refused() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	gvr := client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	inf, err := informer.New(client.Dynamic(c, gvr).Namespace("default"), informer.Options[*unstructured.Unstructured]{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- inf.Run(ctx) }()

	err = inf.WaitForSync(ctx)
	fmt.Println(errors.Is(err, client.ErrNotFound), err)
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
		panic(err)
	}
	fmt.Println(inf.WaitForSync(ctx), inf.Err())
	cancel()
	<-done
	// Output:
	// true reflector: cannot list widgets (example.com/v1) in namespace default: the server responded with status 404 Not Found and a text/plain body: 404 page not found
	// <nil> <nil>
}
