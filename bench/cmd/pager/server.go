package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/bench/internal/podgen"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"golang.org/x/sync/errgroup"
)

// runServer starts the fake API server, fills it with pods Pods of the
// given shape (made by podgen with k8s.io/api and converted through
// their protobuf encoding), prints "URL TOKEN" and serves until its
// standard input closes.
func runServer(pods int, shape, format string) error {
	s := podgen.Small
	if shape == "realistic" {
		s = podgen.Realistic
	}
	namespaces := []string{"default"}
	for i := range 20 { // podgen's namespaces
		namespaces = append(namespaces, fmt.Sprintf("team-%d", i))
	}
	srv := fake.Start(fake.Options{Namespaces: namespaces, HistoryLimit: pods + 1000,
		Controllers: fake.ControllersManual}) // the Pods' owners do not exist: no garbage collector
	defer srv.Close()
	if format == "json" {
		srv.Faults().RefuseProtobuf(true)
	}
	if err := seed(srv, s, pods); err != nil {
		return err
	}
	fmt.Println(srv.URL(), srv.Token())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// seed creates the Pods through an in-memory client, a few at a time.
func seed(srv *fake.Server, shape podgen.Shape, n int) error {
	c, err := client.New(client.Config{Host: "http://fake", BearerToken: srv.Token(), Transport: srv.RoundTripper(), QPS: -1})
	if err != nil {
		return err
	}
	pods := client.For[*kwcorev1.Pod](c)
	var next sync.Mutex
	i := 0
	var g errgroup.Group
	for range 8 {
		g.Go(func() error {
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= n {
					return nil
				}
				up := podgen.Pod(shape, j)
				b, err := up.Marshal()
				if err != nil {
					return err
				}
				p := new(kwcorev1.Pod)
				if err := p.Unmarshal(b); err != nil {
					return err
				}
				p.ResourceVersion, p.UID = "", ""
				if _, err := pods.Create(context.Background(), p, client.CreateOptions{}); err != nil {
					return fmt.Errorf("creating pod %d: %w", j, err)
				}
			}
		})
	}
	return g.Wait()
}
