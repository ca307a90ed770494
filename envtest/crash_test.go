//go:build linux

package envtest_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/envtest"
)

// TestServersDieWithTheTestProcess runs a test process that starts an
// Env and then dies without stopping it (a panic; SIGKILL, as go test's
// -timeout does not quite, but a CI runner might) and checks that the
// servers die with it (the parent-death signal) and that the next Start
// deletes the folder it left.
func TestServersDieWithTheTestProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts servers")
	}
	for _, how := range []string{"panic", "kill"} {
		t.Run(how, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.v")
			cmd.Env = append(os.Environ(), "KUBEWIRE_ENVTEST_HELPER="+how)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = cmd.Stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var pids []int
			var dir string
			var lines []string
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines = append(lines, sc.Text())
				if f, ok := strings.CutPrefix(sc.Text(), "ENV "); ok {
					fields := strings.Fields(f)
					dir = fields[0]
					for _, s := range fields[1:] {
						pid, _ := strconv.Atoi(s)
						pids = append(pids, pid)
					}
					if how == "kill" {
						cmd.Process.Kill()
					}
				}
			}
			err = cmd.Wait()
			if len(pids) != 2 {
				t.Fatalf("helper printed no pids; exit %v; output:\n%s", err, strings.Join(lines, "\n"))
			}
			deadline := time.Now().Add(15 * time.Second)
			for _, pid := range pids {
				for processExists(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("pid %d outlived its test process (%s)", pid, how)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("the dead process's folder is already gone: %v", err)
			}
			envtest.StartForTest(t, envtest.Options{Name: "after-" + how})
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("the next Start left the dead process's folder %s: %v", dir, err)
			}
		})
	}
}

// TestHelperProcess is the test process TestServersDieWithTheTestProcess runs.
func TestHelperProcess(t *testing.T) {
	how := os.Getenv("KUBEWIRE_ENVTEST_HELPER")
	if how == "" {
		t.Skip("run by TestServersDieWithTheTestProcess")
	}
	env, err := envtest.Start(context.Background(), envtest.Options{Name: "helper-" + how})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("ENV %s %d %d\n", env.Dir(), env.PID("etcd"), env.PID("kube-apiserver"))
	switch how {
	case "panic":
		panic("helper panics with an Env running")
	case "kill":
		time.Sleep(time.Minute) // killed by the parent test
	}
}
