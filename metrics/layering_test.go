package metrics_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The packages below the controller layer link no metrics library and
// nothing above them (DESIGN.md, decision 10): a program that only
// caches gets none of it. The check reads `go list -deps`, which sees
// every import, transitive ones included.
func TestCoreLinksNoMetricsLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/kubewire/kubewire/"
	core := []string{"client", "codec", "pager", "reflector", "informer", "workqueue"}
	above := []string{"controller", "ctrlutil", "manager", "metrics", "leaderelection", "events", "sharding", "webhook", "fake"}
	for _, pkg := range core {
		out, err := exec.Command("go", "list", "-deps", mod+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps %s listed %d packages: %q", pkg, len(deps), out)
		}
		for _, d := range deps {
			if strings.HasPrefix(d, "github.com/prometheus/") {
				t.Errorf("%s links %s", pkg, d)
			}
			for _, a := range above {
				if d == mod+a || strings.HasPrefix(d, mod+a+"/") {
					t.Errorf("%s links %s, a package above it", pkg, d)
				}
			}
		}
	}
}
