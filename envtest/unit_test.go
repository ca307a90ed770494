//go:build unix

package envtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReadCRDs(t *testing.T) {
	tests := []struct {
		name      string
		manifests []string
		paths     []string
		want      []string // names, in order
		wantErr   string
	}{
		{name: "a folder: YAML and JSON files, other kinds and kustomization skipped", paths: []string{"testdata/crds"},
			want: []string{"crontabs.stable.example.com", "widgets.example.kubewire.dev"}},
		{name: "a file", paths: []string{"testdata/crds/widgets.json"}, want: []string{"widgets.example.kubewire.dev"}},
		{name: "documents with separators and comments", manifests: []string{
			"--- # first\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.x.io}\n---\n# only a comment\n---\n{\"apiVersion\": \"apiextensions.k8s.io/v1\", \"kind\": \"CustomResourceDefinition\", \"metadata\": {\"name\": \"b.x.io\"}}\n",
		}, want: []string{"a.x.io", "b.x.io"}},
		{name: "a value with three dashes inside is not a separator", manifests: []string{
			"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: c.x.io\n  annotations: {note: \"---x\"}\n",
		}, want: []string{"c.x.io"}},
		{name: "v1beta1 is refused", manifests: []string{"apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: old.x.io}\n"},
			wantErr: "only apiextensions.k8s.io/v1"},
		{name: "no name", manifests: []string{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"}, wantErr: "without metadata.name"},
		{name: "bad YAML names the document", manifests: []string{"kind: ConfigMap\n---\nkind: [\n"}, wantErr: "manifest 0, document 2"},
		{name: "a folder without definitions", paths: []string{"testdata/usermodule"}, wantErr: "no CustomResourceDefinition found"},
		{name: "a missing path", paths: []string{"testdata/nothing-here"}, wantErr: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var manifests [][]byte
			for _, m := range tt.manifests {
				manifests = append(manifests, []byte(m))
			}
			docs, err := readCRDs(manifests, tt.paths)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, d := range docs {
				names = append(names, d.name)
				var v map[string]any
				if err := json.Unmarshal(d.json, &v); err != nil || v["kind"] != "CustomResourceDefinition" {
					t.Errorf("%s: apply body %s (%v)", d.name, d.json, err)
				}
			}
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStagingModulesAndRequiredVersion(t *testing.T) {
	gomod := []byte(`module k8s.io/kubernetes

require (
	go.etcd.io/etcd/server/v3 v3.6.8
	k8s.io/api v0.0.0
)

require go.etcd.io/etcd/client/v3 v3.6.8 // indirect

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/apiserver => ./staging/src/k8s.io/apiserver // why not
	github.com/a/b => github.com/a/b v1.2.3
)

replace k8s.io/kms => ./staging/src/k8s.io/kms
`)
	if diff := cmp.Diff([]string{"k8s.io/api", "k8s.io/apiserver", "k8s.io/kms"}, stagingModules(gomod)); diff != "" {
		t.Errorf("stagingModules (-want +got):\n%s", diff)
	}
	for path, want := range map[string]string{"go.etcd.io/etcd/server/v3": "v3.6.8", "go.etcd.io/etcd/client/v3": "v3.6.8", "k8s.io/nope": ""} {
		if got := requiredVersion(gomod, path); got != want {
			t.Errorf("requiredVersion(%s) = %q, want %q", path, got, want)
		}
	}
}

// TestPinnedModule checks the embedded pin of DefaultVersion: it
// requires that release and its etcd, and is complete (go.sum present).
func TestPinnedModule(t *testing.T) {
	mod, err := pins.ReadFile("pins/" + DefaultVersion + ".mod")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pins.ReadFile("pins/" + DefaultVersion + ".sum"); err != nil {
		t.Fatal(err)
	}
	if got := requiredVersion(mod, "k8s.io/kubernetes"); got != DefaultVersion {
		t.Errorf("pin requires kubernetes %q", got)
	}
	if got := requiredVersion(mod, "go.etcd.io/etcd/server/v3"); got != "v3.6.8" {
		t.Errorf("pin requires etcd %q", got)
	}
	if !strings.HasPrefix(string(mod), "module "+buildModulePath+"\n") {
		t.Errorf("pin's module line: %q", strings.SplitN(string(mod), "\n", 2)[0])
	}
}

func TestWriteTokens(t *testing.T) {
	dir := t.TempDir()
	tokens, err := writeTokens(dir, []User{{Name: "alice"}, {Name: "bob", Groups: []string{"dev", "ops"}}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, fileTokens))
	want := fmt.Sprintf("%s,envtest-admin,envtest-admin,\"system:masters\"\n%s,alice,alice\n%s,bob,bob,\"dev,ops\"\n", tokens[adminUser], tokens["alice"], tokens["bob"])
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("token file (-want +got):\n%s", diff)
	}
	for _, bad := range [][]User{{{Name: ""}}, {{Name: "a,b"}}, {{Name: adminUser}}, {{Name: "x"}, {Name: "x"}}, {{Name: "y", Groups: []string{`"g"`}}}} {
		if _, err := writeTokens(t.TempDir(), bad); err == nil {
			t.Errorf("writeTokens(%+v) succeeded", bad)
		}
	}
}

func TestFeatureGates(t *testing.T) {
	if got := featureGates(nil); got != "" {
		t.Errorf("featureGates(nil) = %q", got)
	}
	got := featureGates(map[string]bool{"WatchList": true, "AllAlpha": false})
	if want := "--feature-gates=AllAlpha=false,WatchList=true"; got != want {
		t.Errorf("featureGates = %q, want %q", got, want)
	}
}

func TestLastLinesAndFailedChecks(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, "\t(no output)"},
		{"a\nb\nc\nd\n", 2, "\tc\n\td"},
		{"a\nb", 5, "\ta\n\tb"},
	} {
		if got := lastLines([]byte(tt.in), tt.n); got != tt.want {
			t.Errorf("lastLines(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	in := "[+]ping ok\n[-]poststarthook/rbac/bootstrap-roles failed: not finished\n[+]etcd ok\nreadyz check failed\n"
	want := "[-]poststarthook/rbac/bootstrap-roles failed: not finished\nreadyz check failed"
	if got := failedChecks([]byte(in)); got != want {
		t.Errorf("failedChecks = %q, want %q", got, want)
	}
}

func TestLockFileWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := lockFile(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	got := make(chan error, 1)
	go func() {
		u, err := lockFile(t.Context(), path, func() { close(waited) })
		if err == nil {
			u()
		}
		got <- err
	}()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("second lockFile did not report waiting")
	}
	unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	u, _ := lockFile(t.Context(), path, nil)
	defer u()
	cancel()
	if _, err := lockFile(ctx, path, func() {}); err != context.Canceled {
		t.Errorf("lockFile with a cancelled context: %v", err)
	}
}

// TestKillLeftovers plays a crashed test process: a record whose owner is
// gone, naming a live server and a folder; and a record of a live
// process, which must be left alone.
func TestKillLeftovers(t *testing.T) {
	root := t.TempDir()
	child := exec.Command("sleep", "60")
	child.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() { child.Wait(); close(reaped) }()
	t.Cleanup(func() { child.Process.Kill(); <-reaped })
	start, ok := procStart(child.Process.Pid)
	if !ok {
		t.Skip("no /proc: leftovers are reported, not killed")
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	dataDir, err := os.MkdirTemp("", dataDirPrefix+"leftover-")
	if err != nil {
		t.Fatal(err)
	}
	running := filepath.Join(root, "running")
	os.MkdirAll(running, 0o755)
	write := func(name string, rec recordData) string {
		b, _ := json.Marshal(rec)
		p := filepath.Join(running, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	crashed := write("1-aa.json", recordData{
		Owner: pidEntry{PID: dead.Process.Pid, Start: "1"},
		Procs: []pidEntry{
			{PID: child.Process.Pid, Start: start, Name: "etcd"},
			{PID: os.Getpid(), Start: "1", Name: "a pid reused by another process"},
		},
		Dir: dataDir,
	})
	notOurs := write("2-bb.json", recordData{Owner: pidEntry{PID: dead.Process.Pid, Start: "1"}, Dir: "/"})
	self, _ := procStart(os.Getpid())
	live := write("3-cc.json", recordData{Owner: pidEntry{PID: os.Getpid(), Start: self}, Dir: dataDir})

	var log strings.Builder
	killLeftovers(root, &log)
	select {
	case <-reaped:
	case <-time.After(10 * time.Second):
		t.Fatal("leftover server still runs")
	}
	if _, err := os.Stat(dataDir); !os.IsNotExist(err) {
		t.Errorf("leftover folder: %v", err)
	}
	for _, p := range []string{crashed, notOurs} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("record %s left: %v", p, err)
		}
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the record of a live process was removed: %v", err)
	}
	if _, err := os.Stat("/"); err != nil {
		t.Errorf("/: %v", err)
	}
	if !strings.Contains(log.String(), fmt.Sprintf("killing etcd (pid %d)", child.Process.Pid)) {
		t.Errorf("log: %q", log.String())
	}
}
