package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// subject is one operator: where and how it is built, which files are
// its hand-written code, and how it is started.
type subject struct {
	name     string
	dir      string // where go build runs
	pkg      string // the package built
	tags     string
	code     []string // hand-written files counted
	userMod  func(dir string) error
	bin      string // built by static
	keptOut  bool   // check that the binary links none of keptOut
	cmdline  func(kubeconfig, metrics, health string) []string
	extraEnv []string
}

// workspace holds the builds and temporary modules of a run.
type workspace struct {
	root  string // the kubewire checkout
	bench string // the bench module
	tmp   string
}

func newWorkspace() (*workspace, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/kubewire/kubewire", "github.com/kubewire/kubewire/bench").Output()
	dirs := strings.Fields(string(out))
	if err != nil || len(dirs) != 2 {
		return nil, fmt.Errorf("locate the kubewire and bench modules (run in bench/): %v %q", err, out)
	}
	tmp, err := os.MkdirTemp("", "operator-bench")
	if err != nil {
		return nil, err
	}
	return &workspace{root: dirs[0], bench: dirs[1], tmp: tmp}, nil
}

func (w *workspace) close() { os.RemoveAll(w.tmp) }

func (w *workspace) kubewireSubject() *subject {
	op := filepath.Join(w.root, "examples", "operator")
	return &subject{
		name: "kubewire", dir: w.root, pkg: "./examples/operator", tags: "nodemo", keptOut: true,
		code: []string{filepath.Join(op, "main.go"), filepath.Join(op, "api", "v1", "widget.go"), filepath.Join(op, "api", "v1", "doc.go")},
		cmdline: func(kubeconfig, metrics, health string) []string {
			return []string{"-kubeconfig", kubeconfig, "-metrics-addr", metrics, "-health-addr", health, "-id", "bench"}
		},
		userMod: func(dir string) error {
			if err := copyFiles(dir, op, "main.go", "demo_off.go"); err != nil {
				return err
			}
			if err := copyFiles(filepath.Join(dir, "api", "v1"), filepath.Join(op, "api", "v1"), "doc.go", "widget.go", "zz_generated.kubewire.go"); err != nil {
				return err
			}
			// The user's module is example.com/widgetop: main.go imports
			// its API from there.
			main := filepath.Join(dir, "main.go")
			b, err := os.ReadFile(main)
			if err != nil {
				return err
			}
			b = bytes.ReplaceAll(b, []byte(`"github.com/kubewire/kubewire/examples/operator/api/v1"`), []byte(`"example.com/widgetop/api/v1"`))
			if err := os.WriteFile(main, b, 0o644); err != nil {
				return err
			}
			return writeGoMod(dir, "example.com/widgetop",
				"require github.com/kubewire/kubewire v0.0.0\n\nreplace github.com/kubewire/kubewire => "+w.root+"\n")
		},
	}
}

func (w *workspace) crSubject() *subject {
	dir := filepath.Join(w.bench, "cmd", "operator", "croperator")
	return &subject{
		name: "controller-runtime", dir: w.bench, pkg: "./cmd/operator/croperator",
		code: []string{filepath.Join(dir, "main.go"), filepath.Join(dir, "api.go")},
		cmdline: func(kubeconfig, metrics, health string) []string {
			return []string{"-metrics-bind-address", metrics, "-health-probe-bind-address", health, "-leader-election-namespace", "default"}
		},
		userMod: func(d string) error {
			if err := copyFiles(d, dir, "main.go", "api.go", "deepcopy.go"); err != nil {
				return err
			}
			return writeGoMod(d, "example.com/croperator", "require sigs.k8s.io/controller-runtime v0.24.1\n")
		},
	}
}

// static measures what needs no server: lines, binaries, modules.
func (w *workspace) static(s *subject, modules bool) (figures, error) {
	var f figures
	var err error
	if f.lines, err = countLines(s.code); err != nil {
		return f, err
	}
	s.bin = filepath.Join(w.tmp, s.name)
	stripped := s.bin + "-stripped"
	for _, b := range []struct {
		out   string
		flags []string
	}{{s.bin, nil}, {stripped, []string{"-ldflags=-s -w"}}} {
		args := append([]string{"build", "-o", b.out}, b.flags...)
		if s.tags != "" {
			args = append(args, "-tags", s.tags)
		}
		if err := goCmd(s.dir, append(args, s.pkg)...); err != nil {
			return f, err
		}
	}
	if f.binary, err = fileSize(s.bin); err != nil {
		return f, err
	}
	if f.stripped, err = fileSize(stripped); err != nil {
		return f, err
	}
	if s.keptOut {
		if f.keptOutLinked, err = linkedKeptOut(s.bin); err != nil {
			return f, err
		}
	}
	out, err := exec.Command("go", "version", "-m", s.bin).Output()
	if err != nil {
		return f, err
	}
	f.linked = 1 // the main module
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "dep") {
			f.linked++
		}
	}
	if modules {
		dir := filepath.Join(w.tmp, s.name+"-module")
		if err := s.userMod(dir); err != nil {
			return f, err
		}
		if err := goCmd(dir, "mod", "tidy"); err != nil {
			return f, err
		}
		out, err := goOutput(dir, "list", "-m", "all")
		if err != nil {
			return f, err
		}
		f.listed = strings.Count(strings.TrimSpace(out), "\n") + 1
	}
	return f, nil
}

// metricsCost builds a small program caching ConfigMaps and serving
// HTTP, without and with package metrics, and returns both binaries.
func (w *workspace) metricsCost() (without, with string, err error) {
	dir := filepath.Join(w.tmp, "metrics-cost")
	const body = `package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	%s
)

// It caches the ConfigMaps of the server in $HOST ($TOKEN, CA in $CA),
// says "synced", and serves HTTP on $ADDR until killed.
func main() {
	%s
	ca, _ := os.ReadFile(os.Getenv("CA"))
	c, err := client.New(client.Config{Host: os.Getenv("HOST"), BearerToken: os.Getenv("TOKEN"), TLS: client.TLSConfig{CAData: ca}%s})
	if err != nil {
		panic(err)
	}
	f, err := informer.NewFactory(c, informer.FactoryOptions{%s})
	if err != nil {
		panic(err)
	}
	informer.Shared[*corev1.ConfigMap](f, informer.Scope{})
	go f.Run(context.Background())
	if err := f.WaitForSync(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println("synced")
	panic(http.ListenAndServe(os.Getenv("ADDR"), %s))
}
`
	progs := map[string]string{
		"without": fmt.Sprintf(body, "", "", "", "", "http.NotFoundHandler()"),
		"with":    fmt.Sprintf(body, `"github.com/kubewire/kubewire/metrics"`, "m := metrics.New()", ", Metrics: m.Client()", "Metrics: m.Informers()", "m.Handler()"),
	}
	for name, src := range progs {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			return "", "", err
		}
		if err := os.WriteFile(filepath.Join(dir, name, "main.go"), []byte(src), 0o644); err != nil {
			return "", "", err
		}
	}
	if err := writeGoMod(dir, "example.com/metricscost", "require github.com/kubewire/kubewire v0.0.0\n\nreplace github.com/kubewire/kubewire => "+w.root+"\n"); err != nil {
		return "", "", err
	}
	sum, err := os.ReadFile(filepath.Join(w.root, "go.sum"))
	if err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return "", "", err
	}
	bins := map[string]string{}
	for name := range progs {
		bins[name] = filepath.Join(dir, name+".bin")
		if err := goCmd(dir, "build", "-mod=mod", "-o", bins[name], "./"+name); err != nil {
			return "", "", err
		}
	}
	return bins["without"], bins["with"], nil
}

var generatedCode = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// countLines counts the lines of files that are neither blank nor only
// a // comment, as examples/operator's TestLineCount does.
func countLines(files []string) (int, error) {
	n := 0
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		if generatedCode.Match(b) {
			return 0, fmt.Errorf("%s is generated", path)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line != "" && !strings.HasPrefix(line, "//") {
				n++
			}
		}
	}
	return n, nil
}

func goCmd(dir string, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return nil
}

func goOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return string(out), nil
}

func fileSize(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func writeGoMod(dir, module, rest string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+module+"\n\ngo 1.26\n\n"+rest), 0o644)
}

func copyFiles(dst, src string, names ...string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, n), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
