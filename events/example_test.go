package events_test

import (
	"context"
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	rec, err := events.NewRecorder(c, events.Options{Component: "example.com/web-controller", Instance: "replica-a"})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- rec.Run(ctx) }()

	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web-1", UID: "0b6f4c1e"}}
	for range 3 { // a repeat within the series window adds to one Event
		rec.Eventf(pod, nil, events.Warning, "BackOff", "Restarting", "back-off restarting container %s", "web")
	}
	cancel() // shutting down: Run writes what is pending, then returns
	if err := <-done; err != nil {
		panic(err)
	}

	list, err := client.For[*eventsv1.Event](c).Namespace("default").List(context.Background(), client.ListOptions{})
	if err != nil {
		panic(err)
	}
	for _, ev := range list.Items {
		fmt.Printf("%s %s/%s %s: %s (%d times)\n", ev.Type, ev.Regarding.Kind, ev.Regarding.Name, ev.Reason, ev.Note, ev.Series.Count)
	}
	fmt.Printf("%+v\n", rec.Stats())
	// Output:
	// Warning Pod/web-1 BackOff: back-off restarting container web (3 times)
	// {Created:1 Aggregated:2 SeriesUpdates:1 Dropped:0 Limited:0 Invalid:0 Failed:0}
}
