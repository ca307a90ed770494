package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKubewireFakeClientGo runs a client-go program (typed clientset:
// discovery, list, create, watch; a shared informer syncing and seeing
// an update) against kubewire-fake through its kubeconfig.
func TestKubewireFakeClientGo(t *testing.T) {
	bins := kubectlBinaries(t)
	fk := startKubewireFake(t, buildKubewireFake(t, t.TempDir()))
	out, err := exec.CommandContext(t.Context(), bins.ClientGoProbe, "--kubeconfig", fk.kubeconfig).CombinedOutput()
	t.Logf("client-go probe:\n%s", out)
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("client-go probe failed: %v", err)
	}
}

// TestKubewireFakePython runs the official Python client (package
// kubernetes: Debian's python3-kubernetes, or pip's) against
// kubewire-fake. It is skipped when no python3 on PATH or in /usr/bin
// imports kubernetes; KUBEWIRE_E2E_PYTHON names another interpreter.
func TestKubewireFakePython(t *testing.T) {
	py := pythonWithKubernetes()
	if py == "" {
		t.Skip("no python3 with the kubernetes package (apt-get install python3-kubernetes, or set KUBEWIRE_E2E_PYTHON)")
	}
	fk := startKubewireFake(t, buildKubewireFake(t, t.TempDir()))
	script, err := filepath.Abs("testdata/kubectl/python_client.py")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(t.Context(), py, script, fk.kubeconfig).CombinedOutput()
	t.Logf("%s (kubernetes %s):\n%s", py, pythonKubernetesVersion(py), out)
	if err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("python client failed: %v", err)
	}
}

func pythonWithKubernetes() string {
	candidates := []string{os.Getenv("KUBEWIRE_E2E_PYTHON")}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	candidates = append(candidates, "/usr/bin/python3")
	for _, c := range candidates {
		if c != "" && exec.Command(c, "-c", "import kubernetes").Run() == nil {
			return c
		}
	}
	return ""
}

func pythonKubernetesVersion(py string) string {
	out, _ := exec.Command(py, "-c", "import kubernetes; print(kubernetes.__version__)").Output()
	return strings.TrimSpace(string(out))
}

// TestKubewireFakePrintEnv checks the documented shell use:
// eval "$(kubewire-fake --print-env)", kubectl, kill $KUBEWIRE_FAKE_PID.
func TestKubewireFakePrintEnv(t *testing.T) {
	bins := kubectlBinaries(t)
	fakeBin := buildKubewireFake(t, t.TempDir())
	script := `set -e
eval "$("$FAKE" --print-env)"
trap 'kill $KUBEWIRE_FAKE_PID' EXIT
"$KUBECTL" create configmap from-shell --from-literal=a=b
"$KUBECTL" get configmap from-shell -o jsonpath='{.data.a}'
`
	cmd := exec.CommandContext(t.Context(), "bash", "-c", script)
	cmd.Env = append(os.Environ(), "FAKE="+fakeBin, "KUBECTL="+bins.Kubectl, "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasSuffix(string(out), "configmap/from-shell created\nb") {
		t.Fatalf("shell session: %v\n%s", err, out)
	}
}
