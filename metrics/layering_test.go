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

// A controller program links no go-cmp: its reflection (MethodByName)
// makes the linker keep every exported method of every type the program
// has, 3.4 MB of the Widget operator's 20.9 MB when controller.Check
// used it.
func TestControllerProgramsLinkNoGoCmp(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/kubewire/kubewire/"
	pkgs := []string{"manager", "controller", "ctrlutil", "metrics", "client/kubeconfig", "informer", "leaderelection", "events", "sharding"}
	args := []string{"list", "-deps"}
	for _, p := range pkgs {
		args = append(args, mod+p)
	}
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.HasPrefix(d, "github.com/google/go-cmp/") {
			t.Errorf("a controller program links %s", d)
		}
	}
}
