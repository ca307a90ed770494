package envtest

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// pins holds, per Kubernetes release, the go.mod and go.sum of a build
// module that compiles all three servers (written by
// `go test -run TestPin -pin VERSION .`): a known release builds from
// exactly these requirements and checksums, with no resolution step.
//
//go:embed pins
var pins embed.FS

// buildModulePath names the generated module; .invalid is never fetched.
const buildModulePath = "kubewire.invalid/envtest-servers"

// mainSources are the main packages of the build module: upstream's entry
// points (cmd/kube-apiserver/apiserver.go, cmd/kube-controller-manager/
// controller-manager.go, and the etcd server's main) with their blank
// imports. They are generated into the cache folder, never compiled as
// part of this module, which therefore requires no k8s.io module.
var mainSources = map[string]string{
	nameAPIServer: `// Command kube-apiserver is upstream's, built by kubewire's envtest.
package main

import (
	"os"
	_ "time/tzdata" // CronJob time zones

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() { os.Exit(cli.Run(app.NewAPIServerCommand())) }
`,
	nameControllerManager: `// Command kube-controller-manager is upstream's, built by kubewire's envtest.
package main

import (
	"os"
	_ "time/tzdata" // CronJob time zones

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() { os.Exit(cli.Run(app.NewControllerManagerCommand())) }
`,
	nameEtcd: `// Command etcd is upstream's etcd server, built by kubewire's envtest.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
`,
}

// writeBuildModule writes the build module for version into dir: the
// pinned go.mod and go.sum when this package has them, or else a go.mod
// derived from kubernetes' own and tidied (which needs the module proxy).
// It returns the etcd server version the module selects.
func writeBuildModule(ctx context.Context, g goRunner, dir, version string) (etcd string, err error) {
	if err := writeMains(dir); err != nil {
		return "", err
	}
	mod, errMod := pins.ReadFile("pins/" + version + ".mod")
	sum, errSum := pins.ReadFile("pins/" + version + ".sum")
	if errMod == nil && errSum == nil {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			return "", err
		}
	} else if err := resolveBuildModule(ctx, g, dir, version); err != nil {
		return "", err
	}
	mod, err = os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	etcd = requiredVersion(mod, "go.etcd.io/etcd/server/v3")
	if etcd == "" {
		return "", fmt.Errorf("envtest: the build module for %s requires no go.etcd.io/etcd/server/v3", version)
	}
	return etcd, nil
}

// writeMains writes the main packages of the build module.
func writeMains(dir string) error {
	for name, src := range mainSources {
		pkg := filepath.Join(dir, "cmd", name)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte(src), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// resolveBuildModule writes a go.mod for a release this package has no
// pin for. k8s.io/kubernetes is not meant to be required: its go.mod
// requires every staging module (k8s.io/api, k8s.io/apiserver, ...) at
// v0.0.0 and replaces it with a folder of its own repository. A module
// requiring it must replace each with the published v0.MINOR.PATCH tag;
// the list comes from kubernetes' go.mod, so a release that adds a
// staging module needs no change here.
func resolveBuildModule(ctx context.Context, g goRunner, dir, version string) error {
	out, err := g.run(ctx, dir, "mod", "download", "-json", "k8s.io/kubernetes@"+version)
	if err != nil {
		return fmt.Errorf("%w: downloading k8s.io/kubernetes@%s: %w", ErrUnavailable, version, err)
	}
	var info struct{ GoMod, Error string }
	if err := json.Unmarshal([]byte(out), &info); err != nil || info.GoMod == "" {
		return fmt.Errorf("%w: go mod download k8s.io/kubernetes@%s: %s %v", ErrUnavailable, version, info.Error, err)
	}
	kubeMod, err := os.ReadFile(info.GoMod)
	if err != nil {
		return err
	}
	staging := stagingModules(kubeMod)
	if len(staging) == 0 {
		return fmt.Errorf("envtest: k8s.io/kubernetes@%s's go.mod replaces no staging module", version)
	}
	tag := "v0." + strings.TrimPrefix(version, "v1.")
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo 1.26.0\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n", buildModulePath, version)
	for _, m := range staging {
		fmt.Fprintf(&b, "\t%s => %s %s\n", m, m, tag)
	}
	b.WriteString(")\n")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	if _, err := g.run(ctx, dir, "mod", "tidy"); err != nil {
		return fmt.Errorf("%w: resolving the modules of kubernetes %s: %w", ErrUnavailable, version, err)
	}
	return nil
}

// stagingModules returns the modules a go.mod replaces with a folder
// under ./staging/src/, in the order they appear.
func stagingModules(gomod []byte) []string {
	var mods []string
	inBlock := false
	for line := range strings.Lines(string(gomod)) {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case line == "replace (":
			inBlock = true
			continue
		case inBlock && line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "replace "):
			line = strings.TrimPrefix(line, "replace ")
		case !inBlock:
			continue
		}
		old, target, ok := strings.Cut(line, "=>")
		if !ok {
			continue
		}
		if f := strings.Fields(old); len(f) >= 1 && strings.HasPrefix(strings.TrimSpace(target), "./staging/src/") {
			mods = append(mods, f[0])
		}
	}
	return mods
}

// requiredVersion returns the version a go.mod requires of module path.
func requiredVersion(gomod []byte, path string) string {
	for line := range strings.Lines(string(gomod)) {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	return ""
}
