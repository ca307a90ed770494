// Package kubeconfig loads client.Config from kubeconfig files, as
// kubectl does: the KUBECONFIG list of paths merged (for each cluster,
// user and context name the first file defining it wins, and the first
// non-empty current-context wins), relative paths resolved against the
// file that holds them, a context chosen by name or current-context.
//
// Infer is what a controller program calls: an explicit file (the
// -kubeconfig flag, see BindFlags), else $KUBECONFIG, else
// ~/.kube/config, else the in-cluster configuration of a pod.
//
// Errors name the file and the field at fault; they never contain a
// token, password or key.
//
// Every function is safe for concurrent use; nothing is cached.
package kubeconfig

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/smallfile"
	"sigs.k8s.io/yaml"
)

// Options says which kubeconfig files and context to load. The zero value
// loads $KUBECONFIG (or ~/.kube/config) with its current-context.
type Options struct {
	// Paths are the files to merge, first wins. Empty means the
	// KUBECONFIG environment variable (a list separated by the OS's path
	// list separator), else ~/.kube/config. Files of the KUBECONFIG list
	// that do not exist are skipped, as kubectl does; files in Paths must
	// exist.
	Paths []string
	// Context is the context to use; empty means current-context.
	Context string
	// Namespace overrides the context's namespace.
	Namespace string
	// Getenv reads environment variables (nil: os.Getenv), for tests.
	Getenv func(string) string
}

// ErrNoConfig is matched when no kubeconfig file exists at all.
var ErrNoConfig = errors.New("no kubeconfig file found")

// Load reads and merges the kubeconfig files of opts and returns the
// client.Config of the chosen context. A certificate-authority file is
// read now; a tokenFile, client-certificate and client-key are checked to
// exist and left to the client as paths, which it reads again as they
// rotate.
func Load(opts Options) (client.Config, error) {
	merged, err := LoadFiles(opts)
	if err != nil {
		return client.Config{}, err
	}
	return merged.Config(opts.Context, opts.Namespace)
}

// Merged is the union of kubeconfig files, each entry remembering the
// file it came from (for relative paths and error messages).
type Merged struct {
	CurrentContext     string
	currentContextFile string
	clusters           map[string]entry[Cluster]
	users              map[string]entry[User]
	contexts           map[string]entry[Context]
}

type entry[T any] struct {
	value T
	file  string
}

// LoadFiles reads and merges the files opts names.
func LoadFiles(opts Options) (*Merged, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	paths, mustExist := opts.Paths, true
	if len(paths) == 0 {
		mustExist = false
		if env := getenv("KUBECONFIG"); env != "" {
			paths = filepath.SplitList(env)
		} else {
			home := getenv("HOME")
			if home == "" {
				if h, err := os.UserHomeDir(); err == nil {
					home = h
				}
			}
			paths = []string{filepath.Join(home, ".kube", "config")}
		}
	}
	m := newMerged()
	found := 0
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("kubeconfig %s: %w", p, err)
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		data, err := smallfile.Read(context.Background(), abs, smallfile.MaxKubeconfig)
		if errors.Is(err, os.ErrNotExist) && !mustExist {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("kubeconfig: %w", err)
		}
		found++
		if err := m.addData(abs, data); err != nil {
			return nil, err
		}
	}
	if found == 0 {
		return nil, fmt.Errorf("kubeconfig: none of %s exists: %w", strings.Join(paths, ", "), ErrNoConfig)
	}
	return m, nil
}

func newMerged() *Merged {
	return &Merged{
		clusters: map[string]entry[Cluster]{},
		users:    map[string]entry[User]{},
		contexts: map[string]entry[Context]{},
	}
}

// addData parses data, the contents of the kubeconfig file at the absolute
// path file, and merges it into m.
func (m *Merged) addData(file string, data []byte) error {
	var f File
	if err := yaml.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("kubeconfig %s: %s", file, yamlError(err))
	}
	return m.add(file, &f)
}

// yamlError shortens sigs.k8s.io/yaml's message, which never quotes
// values of string fields it failed to decode into, only types and paths.
func yamlError(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "error unmarshaling JSON: while decoding JSON: ")
	return msg
}

func (m *Merged) add(file string, f *File) error {
	if f.Kind != "" && f.Kind != "Config" {
		return fmt.Errorf("kubeconfig %s: kind is %q, want Config", file, f.Kind)
	}
	if m.CurrentContext == "" && f.CurrentContext != "" {
		m.CurrentContext, m.currentContextFile = f.CurrentContext, file
	}
	for i, c := range f.Clusters {
		if c.Name == "" {
			return fmt.Errorf("kubeconfig %s: clusters[%d] has no name", file, i)
		}
		if _, ok := m.clusters[c.Name]; !ok {
			m.clusters[c.Name] = entry[Cluster]{c.Cluster, file}
		}
	}
	for i, u := range f.Users {
		if u.Name == "" {
			return fmt.Errorf("kubeconfig %s: users[%d] has no name", file, i)
		}
		if _, ok := m.users[u.Name]; !ok {
			m.users[u.Name] = entry[User]{u.User, file}
		}
	}
	for i, c := range f.Contexts {
		if c.Name == "" {
			return fmt.Errorf("kubeconfig %s: contexts[%d] has no name", file, i)
		}
		if _, ok := m.contexts[c.Name]; !ok {
			m.contexts[c.Name] = entry[Context]{c.Context, file}
		}
	}
	return nil
}
