package client_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// The server's own answers: a 404 and a 409 AlreadyExists are dropped by
// their helper, and every other failure, the other's included, is kept.
func TestIgnoreNotFoundAndAlreadyExists(t *testing.T) {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")

	_, notFound := cms.Get(ctx, "absent", client.GetOptions{})
	if notFound == nil {
		t.Fatal("get of an absent ConfigMap succeeded")
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "once"}}
	if _, err := cms.Create(ctx, cm, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, exists := cms.Create(ctx, cm, client.CreateOptions{})
	if exists == nil {
		t.Fatal("second create succeeded")
	}
	_, invalid := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "Not_Valid"}}, client.CreateOptions{})
	if invalid == nil {
		t.Fatal("create of an invalid name succeeded")
	}

	if err := client.IgnoreNotFound(notFound); err != nil {
		t.Errorf("IgnoreNotFound(404) = %v", err)
	}
	if err := client.IgnoreAlreadyExists(exists); err != nil {
		t.Errorf("IgnoreAlreadyExists(409) = %v", err)
	}
	for _, err := range []error{exists, invalid} {
		if got := client.IgnoreNotFound(err); got != err {
			t.Errorf("IgnoreNotFound(%v) = %v, want it kept", err, got)
		}
	}
	for _, err := range []error{notFound, invalid} {
		if got := client.IgnoreAlreadyExists(err); got != err {
			t.Errorf("IgnoreAlreadyExists(%v) = %v, want it kept", err, got)
		}
	}
	wrapped := fmt.Errorf("reconcile: %w", notFound)
	if client.IgnoreNotFound(wrapped) != nil || client.IgnoreNotFound(nil) != nil {
		t.Error("a wrapped 404 or nil was not dropped")
	}
	if !errors.Is(invalid, client.ErrInvalid) {
		t.Errorf("invalid name: %v", invalid)
	}
}
