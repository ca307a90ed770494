package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/kubewire/kubewire/examples/internal/exampleenv"
)

// The demonstration runs on the embedded fake server: three replicas
// converge with each Widget cached by one of them, and again after one
// stopped and another started.
func TestDemo(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	env, err := exampleenv.Connect(exampleenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := demo(ctx, env, &out); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	want := `^sharded: Widgets \(operator.kubewire.dev/v1\) on an embedded fake server
  90 Widgets created in default
  converged in [0-9.]+m?s; each Widget cached and reconciled by one replica:
    replica-1: 22 of 64 slots in \d+ ranges, (\d+) Widgets cached
    replica-2: 21 of 64 slots in \d+ ranges, (\d+) Widgets cached
    replica-3: 21 of 64 slots in \d+ ranges, (\d+) Widgets cached
  replica-2 stops, replica-4 starts, 10 Widgets are recoloured meanwhile
  converged in [0-9.]+m?s:
    replica-1: 22 of 64 slots in \d+ ranges, (\d+) Widgets cached
    replica-3: 21 of 64 slots in \d+ ranges, (\d+) Widgets cached
    replica-4: 21 of 64 slots in \d+ ranges, (\d+) Widgets cached
$`
	m := regexp.MustCompile(want).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("output does not match:\n%s", out.String())
	}
	for _, counts := range [][]string{m[1:4], m[4:7]} {
		sum := 0
		for _, c := range counts {
			n, _ := strconv.Atoi(c)
			sum += n
		}
		if sum != 90 {
			t.Errorf("replicas cache %v Widgets, %d in all, want 90", counts, sum)
		}
	}
	t.Log("\n" + out.String())
}
