package kubeconfig_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kubewire/kubewire/client/kubeconfig"
)

func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "kubeconfig")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "config")
	os.WriteFile(path, []byte(`
current-context: dev
clusters: [{name: dev, cluster: {server: "https://dev.example.com:6443"}}]
users: [{name: me, user: {token: secret}}]
contexts: [{name: dev, context: {cluster: dev, user: me, namespace: team-a}}]
`), 0o600)

	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{path}})
	if err != nil {
		panic(err)
	}
	fmt.Println(cfg.Host, cfg.Namespace)
	fmt.Printf("%v\n", cfg.BearerToken != "")
	// Output:
	// https://dev.example.com:6443 team-a
	// true
}
