// Command kubectl is a small kubectl built on kubewire, for programs that
// script a cluster: get (server-side tables, -o wide, label selectors,
// --watch), apply (server-side apply of a YAML file with a field manager
// and --force-conflicts; CustomResourceDefinitions first, waiting until
// served, then Namespaces; -prune -l deleting what an earlier apply of
// the set created and the file no longer has), diff (what apply would
// change, from a server-side dry run), delete (with a
// propagation policy, waiting until the object is gone), patch (merge,
// JSON and strategic merge) and logs (a container's log, -f following
// it). It finds its cluster as kubectl does (-kubeconfig, else
// $KUBECONFIG, else ~/.kube/config), and -context picks one of the
// file's contexts.
//
// Resources are named as kubectl names them: the plural ("deployments"),
// the singular kind ("deployment"), a short name ("deploy"), or any of
// these qualified by the group ("deployments.apps"); discovery maps them to
// their group, version and scope.
//
//	go run ./examples/kubectl get deploy -o wide -l app=web
//	go run ./examples/kubectl apply -f objects.yaml -field-manager me -force-conflicts
//	go run ./examples/kubectl apply -f objects.yaml -prune -l app=web
//	go run ./examples/kubectl diff -f objects.yaml
//	go run ./examples/kubectl patch configmap cfg -type json -p '[{"op":"add","path":"/data/b","value":"2"}]'
//	go run ./examples/kubectl delete deployment web -cascade foreground
//	go run ./examples/kubectl logs web-0 -c app -f -tail 100
//	go run ./examples/kubectl -context staging get pods -A -w
//
// Try it on cmd/kubewire-fake:
//
//	eval "$(go run ./cmd/kubewire-fake --print-env)"
//	go run ./examples/kubectl apply -f examples/kubectl/testdata/web.yaml
//	go run ./examples/kubectl get deploy,cm -n web -o wide
//	kill $KUBEWIRE_FAKE_PID
//
// Unlike a controller, it retries a failed request briefly (three tries
// within about a second, see client.RetryPolicy): the client's default
// rides out a minute of API server downtime, which at a prompt looks like
// a hang.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/kubewire/kubewire/client"

	"github.com/kubewire/kubewire/client/kubeconfig"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kubectl:", err)
		os.Exit(1)
	}
}

// run parses the global flags (the cluster's), then runs the command
// that follows them with its own flags.
func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("kubectl", flag.ContinueOnError)
	cluster := kubeconfig.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("a command is needed: get, apply, diff, delete, patch or logs")
	}
	cmd, rest := fs.Arg(0), fs.Args()[1:]
	commands := map[string]func(context.Context, *cli, []string) error{
		"get": get, "apply": apply, "delete": del, "patch": patch, "logs": logs, "diff": diff,
	}
	fn, ok := commands[cmd]
	if !ok {
		return fmt.Errorf("unknown command %q: get, apply, diff, delete, patch or logs", cmd)
	}
	cfg, err := cluster.Load()
	if err != nil {
		return err
	}
	// A controller should ride out an API server restart, and the
	// default policy retries for up to a minute; a person at a prompt
	// wants a refused connection reported now, as kubectl does.
	cfg.Retry = client.RetryPolicy{MaxAttempts: 3, MaxWait: time.Second}
	c, err := client.New(cfg)
	if err != nil {
		return err
	}
	return fn(ctx, &cli{c: c, out: out}, rest)
}
