package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/envtest"
)

// kubectlFloor is the share of script steps whose normalised output must
// be identical on kubewire-fake and kube-apiserver; the test fails below
// it. Last measured: 117 of 117 (100%). The floor leaves four steps of
// slack for outputs that depend on timing (a watch's rows while the
// server is still writing).
const kubectlFloor = 0.95

// TestKubectl runs the kubectl script (kubectl v1.36.3 built from the
// module proxy) against kubewire-fake and against kube-apiserver,
// compares each step's normalised stdout, stderr and exit code, and
// prints the share identical and every difference.
func TestKubectl(t *testing.T) {
	bins := kubectlBinaries(t)
	fakeBin := buildKubewireFake(t, t.TempDir())
	fk := startKubewireFake(t, fakeBin)
	real := kubectlRealServer(t)

	script := kubectlScript()
	fakeRes := kubectlRunner{t: t, bin: bins.Kubectl, kubeconfig: fk.kubeconfig, dir: t.TempDir()}.run(script)
	realRes := kubectlRunner{t: t, bin: bins.Kubectl, kubeconfig: real.KubeconfigPath(), dir: t.TempDir()}.run(script)
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

// kubectlControllers are the kube-controller-manager controllers the
// real server runs in TestKubectl: those whose work the fake server does
// itself (a namespace's default ServiceAccount, removing a deleted
// namespace, the garbage collector), so the script sees a cluster as a
// kubectl user does. The root CA publisher is left out: the fake makes
// no kube-root-ca.crt ConfigMap, and it would be in every listing.
var kubectlControllers = []string{"garbage-collector-controller", "namespace-controller", "serviceaccount-controller"}

// kubectlRealServer starts kube-apiserver, etcd and kube-controller-manager
// for t (building kube-controller-manager first if the cache lacks it,
// as cmd/prebuild does ahead).
func kubectlRealServer(t *testing.T) *envtest.Env {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Minute)
	defer cancel()
	bins, err := harness.Build(ctx, harness.BuildOptions{ControllerManager: true})
	if err != nil {
		t.Fatal(err)
	}
	return envtest.StartForTest(t, envtest.Options{Name: "kubectl", Binaries: bins, ControllerManager: true, Controllers: kubectlControllers})
}
