package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The example runs to completion on the embedded fake server and prints
// what its doc comment promises; the refused Widget is reconciled once.
func TestCtrlRuntimeRuns(t *testing.T) {
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	var out, logs bytes.Buffer
	if err := run(ctx, &out, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	// Once: refused, then nothing until its spec changed.
	if n := strings.Count(logs.String(), "reconcile failed; not retried until a change\" controller=widget namespace=default name=huge"); n != 1 {
		t.Errorf("the refused Widget was logged %d times, want once (a terminal error is not retried):\n%s", n, logs.String())
	}
}

const want = `ctrlruntime: a controller-runtime style Reconcile of Widgets (examples.kubewire.dev/v1) on an embedded fake server
  shop: Ready=True (ConfigMapWritten); ConfigMap shop-config map[image:shop:1.0 size:small], controlled by Widget shop
  huge: Ready=False (InvalidSpec): 50 large replicas: at most 10; not retried until it changes
  huge, 5 replicas: Ready=True (ConfigMapWritten)
  shop deleted: the garbage collector deleted its ConfigMap
`
