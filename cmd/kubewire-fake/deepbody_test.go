//go:build linux

package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/kubewire/kubewire/client/kubeconfig"
)

// The bound of kubewire issue 30, measured on the command as users run
// it: writing an object of 3 MiB nested to the JSON depth limit (10,000
// levels, long keys) keeps the server process under 64 MiB above its
// idle resident memory. The server runs in a process of its own
// (--print-env); its peak resident memory is read from /proc after
// /proc/PID/clear_refs resets it. The custom resource keeps the whole
// object (and its managedFields, as deep); the ConfigMap drops it as an
// unknown field.
func TestDeepBodyResidentMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process and sends 3 MiB bodies")
	}
	const limit = 64 << 20
	var out strings.Builder
	if raceEnabled {
		// The race detector multiplies the server's memory; the bound
		// is the command's as users build it, so it runs a build
		// without it.
		bin := filepath.Join(t.TempDir(), "kubewire-fake")
		if b, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			t.Fatalf("build the command: %v\n%s", err, b)
		}
		cmd := exec.CommandContext(t.Context(), bin, "--print-env")
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
	} else if err := run(t.Context(), []string{"--print-env"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^export KUBECONFIG=(\S+)\nexport KUBEWIRE_FAKE_PID=(\d+)\n`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("--print-env printed:\n%s", out.String())
	}
	pid, _ := strconv.Atoi(m[2])
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{strings.Trim(m[1], "'")}})
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(cfg.TLS.CAData)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	send := func(method, path, contentType, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, cfg.Host+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+cfg.BearerToken)
		req.Header.Set("Content-Type", contentType)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		// Only the start of the answer is kept: the resource version.
		head := make([]byte, 512)
		n, _ := io.ReadFull(resp.Body, head)
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, string(head[:n])
	}
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"deeps.deep.example.com"},
		"spec":{"group":"deep.example.com","scope":"Namespaced","names":{"plural":"deeps","kind":"Deep"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	if code, _ := send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", crd); code != http.StatusCreated {
		t.Fatalf("create the CRD: %d", code)
	}
	crs := "/apis/deep.example.com/v1/namespaces/default/deeps"
	small := func(name string) string {
		return `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"` + name + `"}}`
	}
	for _, name := range []string{"u", "m"} {
		if code, _ := send("POST", crs, "application/json", small(name)); code != http.StatusCreated {
			t.Fatalf("create %s: %d", name, code)
		}
	}
	_, u := send("GET", crs+"/u", "", "")
	rv := regexp.MustCompile(`"resourceVersion":"(\d+)"`).FindStringSubmatch(u)
	if rv == nil {
		t.Fatalf("no resourceVersion in %s", u)
	}
	deep := deepValue(9_990, 3<<20-400)
	for _, tc := range []struct{ name, method, path, contentType, body string }{
		{"create of a custom resource", "POST", crs, "application/json", `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"d"},"x":` + deep + `}`},
		{"create of a ConfigMap", "POST", "/api/v1/namespaces/default/configmaps", "application/json", `{"metadata":{"name":"d"},"x":` + deep + `}`},
		{"update of a custom resource", "PUT", crs + "/u", "application/json", `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"u","resourceVersion":"` + rv[1] + `"},"x":` + deep + `}`},
		{"merge patch of a custom resource", "PATCH", crs + "/m", "application/merge-patch+json", `{"x":` + deep + `}`},
		{"apply of a custom resource", "PATCH", crs + "/a?fieldManager=deep", "application/apply-patch+yaml", `{"apiVersion":"deep.example.com/v1","kind":"Deep","metadata":{"name":"a"},"x":` + deep + `}`},
	} {
		idle, ok := procField(pid, "VmRSS")
		if !ok || os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0) != nil {
			t.Skip("cannot read or reset the server's resident memory")
		}
		if code, head := send(tc.method, tc.path, tc.contentType, tc.body); code >= 300 {
			t.Fatalf("%s answered %d: %s", tc.name, code, head)
		}
		peak, _ := procField(pid, "VmHWM")
		grew := peak - idle
		t.Logf("%s, %d KiB nested %d deep: resident memory %d MiB idle, grew %d MiB", tc.name, len(tc.body)>>10, 9_990, idle>>20, grew>>20)
		if grew >= limit {
			t.Errorf("%s: resident memory grew %d MiB above idle, over %d MiB", tc.name, grew>>20, limit>>20)
		}
	}
}

// deepValue is a JSON value of objects nested depth levels deep, each
// with one key, filling about size bytes.
func deepValue(depth, size int) string {
	key := strings.Repeat("k", max(1, size/depth-6))
	var b strings.Builder
	for range depth {
		b.WriteString(`{"` + key + `":`)
	}
	b.WriteString(`1`)
	b.WriteString(strings.Repeat("}", depth))
	return b.String()
}

// procField reads a memory figure of /proc/PID/status, in bytes.
func procField(pid int, field string) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
