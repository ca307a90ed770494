//go:build unix

package envtest_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/envtest"
)

// TestEnv runs an Env through its life: the admin and a user without
// rights, the kubeconfig, a restart, a compaction, and Stop.
func TestEnv(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	var log strings.Builder
	env := envtest.StartForTest(t, envtest.Options{
		Name:           "lifecycle",
		Users:          []envtest.User{{Name: "nobody"}},
		APIServerFlags: []string{"--watch-cache=false"}, // so that Compact's 410s reach lists
		Log:            &log,
	})
	ctx := t.Context()
	cfg := env.Config()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	if v := serverVersion(t, cfg); v != envtest.DefaultVersion {
		t.Errorf("/version answers %q, want %q", v, envtest.DefaultVersion)
	}
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")
	cm := &corev1.ConfigMap{Data: map[string]string{"k": "v"}}
	cm.Name = "lifecycle"
	created, err := cms.Create(ctx, cm, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a user without rights is forbidden", func(t *testing.T) {
		ucfg, err := env.UserConfig("nobody")
		if err != nil {
			t.Fatal(err)
		}
		uc, err := client.New(ucfg)
		if err != nil {
			t.Fatal(err)
		}
		defer uc.CloseIdleConnections()
		_, err = client.For[*corev1.ConfigMap](uc).Namespace("default").Get(ctx, "lifecycle", client.GetOptions{})
		if !errors.Is(err, client.ErrForbidden) {
			t.Errorf("Get as nobody: %v, want forbidden", err)
		}
		if _, err := env.UserConfig("somebody"); err == nil {
			t.Error("UserConfig of an unknown user succeeded")
		}
	})

	t.Run("the kubeconfig reaches the server", func(t *testing.T) {
		kcfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{env.KubeconfigPath()}})
		if err != nil {
			t.Fatal(err)
		}
		kc, err := client.New(kcfg)
		if err != nil {
			t.Fatal(err)
		}
		defer kc.CloseIdleConnections()
		got, err := client.For[*corev1.ConfigMap](kc).Namespace(kcfg.Namespace).Get(ctx, "lifecycle", client.GetOptions{})
		if err != nil || got.UID != created.UID {
			t.Errorf("Get through the kubeconfig: %v, %v", got, err)
		}
	})

	t.Run("a restart keeps the data and the URL", func(t *testing.T) {
		etcd, api := env.PID("etcd"), env.PID("kube-apiserver")
		if err := env.RestartAPIServer(ctx); err != nil {
			t.Fatal(err)
		}
		if env.PID("kube-apiserver") == api || env.PID("etcd") != etcd || processExists(api) {
			t.Errorf("kube-apiserver pid %d -> %d (old one running: %v), etcd %d -> %d", api, env.PID("kube-apiserver"), processExists(api), etcd, env.PID("etcd"))
		}
		got, err := cms.Get(ctx, "lifecycle", client.GetOptions{}) // the same client
		if err != nil || got.UID != created.UID {
			t.Errorf("Get after restart: %v, %v", got, err)
		}
	})

	t.Run("after a compaction old resource versions are expired", func(t *testing.T) {
		if _, err := env.Compact(ctx); err != nil {
			t.Fatal(err)
		}
		_, err := cms.List(ctx, client.ListOptions{ResourceVersion: created.ResourceVersion, ResourceVersionMatch: client.MatchExact})
		if !errors.Is(err, client.ErrExpired) {
			t.Errorf("Exact list at %s after compaction: %v, want expired", created.ResourceVersion, err)
		}
	})

	pids := []int{env.PID("etcd"), env.PID("kube-apiserver")}
	if err := env.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if processExists(pid) {
			t.Errorf("pid %d runs after Stop", pid)
		}
	}
	if _, err := os.Stat(env.Dir()); !os.IsNotExist(err) {
		t.Errorf("folder after Stop: %v", err)
	}
	if err := env.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if err := env.RestartAPIServer(ctx); err == nil {
		t.Error("RestartAPIServer after Stop succeeded")
	}
	c.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > goroutines {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("%d goroutines before Start, %d after Stop:\n%s", goroutines, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, want := range []string{"envtest lifecycle: kubernetes v1.36.3 ready at https://127.0.0.1:", "kube-apiserver restarted in", "stopped in"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// serverVersion GETs /version with the configuration's credentials.
func serverVersion(t *testing.T, cfg client.Config) string {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(cfg.TLS.CAData)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer hc.CloseIdleConnections()
	req, _ := http.NewRequestWithContext(t.Context(), "GET", cfg.Host+"/version", nil)
	req.Header.Set("Authorization", "Bearer "+cfg.BearerToken)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v struct{ GitVersion string }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("/version: %d %s", resp.StatusCode, b)
	}
	return v.GitVersion
}

// TestStartFailure shows what a test sees when kube-apiserver cannot
// start: which server, why, its last log lines, and nothing left running.
func TestStartFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers")
	}
	before := childPIDs()
	_, err := envtest.Start(t.Context(), envtest.Options{Name: "broken", APIServerFlags: []string{"--no-such-flag"}})
	if err == nil {
		t.Fatal("Start succeeded with an unknown flag")
	}
	t.Logf("the error a test sees:\n%v", err)
	for _, want := range []string{"envtest broken:", "kube-apiserver (pid", "exited by itself (exit status 1)", "unknown flag: --no-such-flag", "kube-apiserver.log"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q", want)
		}
	}
	if after := childPIDs(); len(after) > len(before) {
		t.Errorf("children before %v, after a failed Start %v", before, after)
	}
}

// processExists reports whether pid runs (a zombie does not count).
func processExists(pid int) bool {
	if _, err := os.Stat("/proc"); err != nil {
		return syscall.Kill(pid, 0) == nil // no /proc: zombies count
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// childPIDs lists this process's children (Linux), or nil.
func childPIDs() []string {
	pid := strconv.Itoa(os.Getpid())
	b, err := os.ReadFile("/proc/" + pid + "/task/" + pid + "/children")
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}
