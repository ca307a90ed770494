package ctrlutil_test

import (
	"context"
	"errors"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/ctrlutil"
)

// Finalize given a stale cached copy of an object that is already gone
// (its finalizer removed by an earlier Reconcile, the server deleted it)
// has nothing left to do: it reports deleting, not a 404 that would log
// a failed Reconcile and requeue it. A cleanup that fails still fails.
func TestFinalizeObjectGone(t *testing.T) {
	_, c := newClient(t)
	ctx := t.Context()
	cms := client.For[*corev1.ConfigMap](c)
	const f = "example.com/cleanup"
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "gone", Finalizers: []string{f}}}, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cms.Namespace("default").Delete(ctx, "gone", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	stale, err := cms.Namespace("default").Get(ctx, "gone", client.GetOptions{})
	if err != nil || stale.DeletionTimestamp == nil {
		t.Fatalf("being deleted: %v, %v", stale, err)
	}
	cleanups := 0
	cleanup := func(context.Context, *corev1.ConfigMap) error { cleanups++; return nil }
	if _, deleting, err := ctrlutil.Finalize(ctx, cms, stale, f, cleanup); err != nil || !deleting {
		t.Fatalf("first Finalize: deleting %v, %v", deleting, err)
	}
	if _, err := cms.Namespace("default").Get(ctx, "gone", client.GetOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Fatalf("after the finalizer went: %v, want not found", err)
	}
	// The cache still holds the copy with the finalizer.
	if _, deleting, err := ctrlutil.Finalize(ctx, cms, stale, f, cleanup); err != nil || !deleting {
		t.Errorf("Finalize of an object gone: deleting %v, %v; want true, nil", deleting, err)
	}
	if cleanups != 2 {
		t.Errorf("cleanup ran %d times, want 2 (it must be idempotent)", cleanups)
	}
	wantErr := errors.New("cloud API down")
	if _, deleting, err := ctrlutil.Finalize(ctx, cms, stale, f, func(context.Context, *corev1.ConfigMap) error { return wantErr }); !errors.Is(err, wantErr) || !deleting {
		t.Errorf("failing cleanup: deleting %v, %v", deleting, err)
	}
	// An object deleted before its finalizer was added is not reconciled on.
	fresh := cm.DeepCopy()
	fresh.Finalizers, fresh.DeletionTimestamp = nil, nil
	if _, deleting, err := ctrlutil.Finalize(ctx, cms, fresh, f, cleanup); err != nil || !deleting {
		t.Errorf("adding the finalizer to an object gone: deleting %v, %v; want true, nil", deleting, err)
	}
}
