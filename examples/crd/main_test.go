package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The example runs to completion against the embedded fake server, and
// prints what the README shows.
func TestCRDRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, config{namespace: "default", name: "gizmo"}, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// want is the output on the fake server. On kube-apiserver the
// definition is installed first, and the managers also list the
// creator's and the status writer's updates.
const want = `crd: Widget (examples.kubewire.dev/v1) on an embedded fake server
  install: the fake server serves widgets as its definition says
  informer: synced, 0 Widgets cached in default
  create: default/gizmo, generation 1, replicas 2
    informer: ADDED   default/gizmo generation 1, replicas 2, ready 0
  update status: 2 of 2 ready, Ready=True, generation still 1
    informer: UPDATED default/gizmo generation 1, replicas 2, ready 2
  apply: sent {"kind":"Widget","apiVersion":"examples.kubewire.dev/v1","metadata":{"name":"gizmo","namespace":"default"},"spec":{"replicas":5}}
         replicas 5, generation 2, image still registry.example.com/shop/widget:1.4.2; managers: widget-autoscaler (Apply)
    informer: UPDATED default/gizmo generation 2, replicas 5, ready 2
  scale: spec.replicas 5, status.replicas 2, selector app=gizmo
  delete: default/gizmo
    informer: DELETED default/gizmo
`
