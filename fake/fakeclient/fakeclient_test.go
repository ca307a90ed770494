package fakeclient_test

import (
	"context"
	"errors"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// The configuration reaches the server over HTTP and over HTTPS with the
// client's own transport, and carries the token (a wrong one gets 401).
func TestConfigReachesTheServer(t *testing.T) {
	for _, tls := range []bool{false, true} {
		srv, cfg := fakeclient.Start(fake.Options{TLS: tls})
		t.Cleanup(srv.Close)
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cms := client.For[*corev1.ConfigMap](c).Namespace("default")
		in := &corev1.ConfigMap{Data: map[string]string{"k": "v"}}
		in.Name = "cm"
		if _, err := cms.Create(context.Background(), in, client.CreateOptions{}); err != nil {
			t.Fatalf("tls=%v: create: %v", tls, err)
		}
		got, err := cms.Get(context.Background(), "cm", client.GetOptions{})
		if err != nil || got.Data["k"] != "v" {
			t.Fatalf("tls=%v: get = %v, %v", tls, got, err)
		}
		cfg.BearerToken = "wrong"
		bad, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = client.For[*corev1.ConfigMap](bad).Namespace("default").Get(context.Background(), "cm", client.GetOptions{})
		if !errors.Is(err, client.ErrUnauthorized) {
			t.Fatalf("tls=%v: wrong token: %v, want ErrUnauthorized", tls, err)
		}
	}
}
