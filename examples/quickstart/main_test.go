package main

import (
	"context"
	"testing"
	"time"
)

// The example runs to completion against the embedded fake server.
func TestQuickstartRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, "", "demo", 1200, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}
