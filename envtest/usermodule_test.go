//go:build unix

package envtest_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// userTest is the test a user writes; the README shows it.
const userTest = "testdata/usermodule/configmap_test.go"

// TestUserModule does what a user does, in a new module outside this
// repository: go mod init, require envtest (here through replace
// directives to this checkout, as a published version needs none), write
// a test that starts a real kube-apiserver, go mod tidy, go test. Nothing
// else is set up: the servers come from the shared build cache, or are
// built.
func TestUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go mod tidy and go test in a new module")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), goCmd, args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("mod", "init", "example.com/usertest")
	run("mod", "edit",
		"-replace", "github.com/kubewire/kubewire="+repo,
		"-replace", "github.com/kubewire/kubewire/envtest="+filepath.Join(repo, "envtest"))
	src, err := os.ReadFile(userTest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "configmap_test.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	// The checksums of the SDK's own requirements, which tidy would
	// otherwise fetch from the checksum database.
	var sums []byte
	for _, f := range []string{filepath.Join(repo, "go.sum"), "go.sum"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, b...)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.sum"), sums, 0o644); err != nil {
		t.Fatal(err)
	}
	run("mod", "tidy")
	gomod, _ := os.ReadFile(filepath.Join(mod, "go.mod"))
	for line := range strings.Lines(string(gomod)) {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "k8s.io/") {
			t.Errorf("the user's go.mod requires a k8s.io module: %s", line)
		}
	}
	out := run("test", "-count=1", "-v", "./...")
	if !strings.Contains(out, "--- PASS: TestConfigMapRoundTrip") {
		t.Errorf("go test in the user's module:\n%s", out)
	}
	t.Logf("the user's go.mod:\n%s\ngo test in it:\n%s", gomod, out)
}

// TestReadmeShowsTheUserTest keeps the README's integration test the one
// TestUserModule runs.
func TestReadmeShowsTheUserTest(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(userTest)
	if err != nil {
		t.Fatal(err)
	}
	// The README shows the file from its first func on.
	i := bytes.Index(src, []byte("\nfunc "))
	if i < 0 || !bytes.Contains(readme, src[i+1:]) {
		t.Errorf("README.md does not show %s from its first func on; paste it into the \"Testing your controller\" section", userTest)
	}
}
