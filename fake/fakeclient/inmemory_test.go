package fakeclient_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// InMemory's configuration works inside a synctest bubble, where a
// socket would not: a write, a watch that sees it, and the server's
// periodic bookmark a fake minute later, with no real wait.
func TestInMemoryInSynctestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fake.New(fake.Options{BookmarkInterval: time.Minute})
		defer srv.Close()
		c, err := client.New(fakeclient.InMemory(srv))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		cms := client.For[*corev1.ConfigMap](c).Namespace("default")
		in := &corev1.ConfigMap{Data: map[string]string{"k": "v"}}
		in.Name = "cm"
		created, err := cms.Create(ctx, in, client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w, err := cms.Watch(ctx, client.WatchOptions{ResourceVersion: created.ResourceVersion, AllowWatchBookmarks: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		in.Data["k"] = "w"
		if _, err := cms.Update(ctx, in, client.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		ev, err := w.Next()
		if err != nil || ev.Type != client.Modified || ev.Object.Data["k"] != "w" {
			t.Fatalf("event %v %v, %v; want MODIFIED k=w", ev.Type, ev.Object, err)
		}
		start := time.Now()
		ev, err = w.Next()
		if err != nil || ev.Type != client.Bookmark {
			t.Fatalf("event %v, %v; want BOOKMARK", ev.Type, err)
		}
		if waited := time.Since(start); waited != time.Minute {
			t.Errorf("bookmark after %v of the bubble's time, want the interval, 1m0s", waited)
		}
	})
}
