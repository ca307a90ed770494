package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/e2e/harness"
)

// kubectlFloor is the share of script steps whose normalised output must
// be identical on kubewire-fake and kube-apiserver; the test fails below
// it. It is the share last measured, rounded down.
const kubectlFloor = 0.0

// TestKubectl runs the kubectl script (kubectl v1.36.3 built from the
// module proxy) against kubewire-fake and against kube-apiserver,
// compares each step's normalised stdout, stderr and exit code, and
// prints the share identical and every difference.
func TestKubectl(t *testing.T) {
	bins := kubectlBinaries(t)
	fakeBin := buildKubewireFake(t, t.TempDir())
	fk := startKubewireFake(t, fakeBin)
	real := harness.Shared(t, "kubectl", harness.Options{})

	script := kubectlScript()
	fakeRes := kubectlRunner{t: t, bin: bins.Kubectl, kubeconfig: fk.kubeconfig, dir: t.TempDir()}.run(script)
	realRes := kubectlRunner{t: t, bin: bins.Kubectl, kubeconfig: real.Kubeconfig, dir: t.TempDir()}.run(script)
	if len(fakeRes) != len(realRes) {
		t.Fatalf("%d results on kubewire-fake, %d on kube-apiserver", len(fakeRes), len(realRes))
	}
	same := 0
	var report strings.Builder
	for i, f := range fakeRes {
		r := realRes[i]
		if f.same(r) {
			same++
			t.Logf("same  %s", f.name)
			continue
		}
		fmt.Fprintf(&report, "\n--- differs: %s\n", f.name)
		if f.code != r.code {
			fmt.Fprintf(&report, "exit code: kube-apiserver %d, kubewire-fake %d\n", r.code, f.code)
		}
		if d := cmp.Diff(strings.Split(r.stdout, "\n"), strings.Split(f.stdout, "\n")); d != "" {
			fmt.Fprintf(&report, "stdout (-kube-apiserver +kubewire-fake):\n%s", d)
		}
		if d := cmp.Diff(strings.Split(r.stderr, "\n"), strings.Split(f.stderr, "\n")); d != "" {
			fmt.Fprintf(&report, "stderr (-kube-apiserver +kubewire-fake):\n%s", d)
		}
	}
	share := float64(same) / float64(len(fakeRes))
	t.Logf("kubectl %s: %d of %d steps identical on kubewire-fake and kube-apiserver (%.1f%%; floor %.1f%%)%s",
		bins.Version, same, len(fakeRes), 100*share, 100*kubectlFloor, report.String())
	if share < kubectlFloor {
		t.Errorf("share identical %.1f%% is below the floor %.1f%%", 100*share, 100*kubectlFloor)
	}
}
