package main

import (
	"context"
	"testing"
	"time"
)

// The example runs to completion against the embedded fake server.
func TestQuickstartRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx, "", "demo", 1200, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}
