package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
)

// cli is what every command works with: the client and the output.
type cli struct {
	c   *client.Client
	out io.Writer
	// discoveryGaps is discovery's ErrGroupDiscoveryFailed, once seen.
	discoveryGaps error
}

// parse parses fs from args where flags and positional arguments mix, as
// kubectl allows ("get pods -n web -o wide"), and returns the positional
// ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// resource finds the resource kubectl would for name: a plural, a
// singular kind, a short name, each optionally followed by ".group".
func (k *cli) resource(ctx context.Context, name string) (client.APIResource, error) {
	name = strings.ToLower(name)
	base, group, qualified := strings.Cut(name, ".")
	all, err := k.serverResources(ctx)
	if err != nil {
		return client.APIResource{}, err
	}
	for _, r := range all {
		if qualified && r.Group != group {
			continue
		}
		if r.Resource == base || strings.ToLower(r.Kind) == base || containsFold(r.ShortNames, base) {
			return r, nil
		}
	}
	if k.discoveryGaps != nil {
		return client.APIResource{}, fmt.Errorf("the server doesn't have a resource type %q, or it is in a group discovery could not read: %w", name, k.discoveryGaps)
	}
	return client.APIResource{}, fmt.Errorf("the server doesn't have a resource type %q", name)
}

// serverResources is what discovery found. An aggregated API that is
// down (metrics-server, say) leaves its group out and the rest is used,
// as kubectl goes on with a warning; the failure is kept in
// discoveryGaps for a name nothing found serves.
func (k *cli) serverResources(ctx context.Context) ([]client.APIResource, error) {
	all, err := k.c.ServerResources(ctx)
	if errors.Is(err, client.ErrGroupDiscoveryFailed) {
		if k.discoveryGaps == nil {
			slog.Warn("some API groups could not be discovered; going on without them", "err", err)
		}
		k.discoveryGaps = err
		return all, nil
	}
	return all, err
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// scoped returns the dynamic client of r in namespace ns (all
// namespaces when ns is ""; ignored for cluster-scoped resources).
func (k *cli) scoped(r client.APIResource, ns string) *client.Resource[*unstructured.Unstructured] {
	d := client.Dynamic(k.c, r.GroupVersionResource)
	if r.Namespaced && ns != "" {
		d = d.Namespace(ns)
	}
	return d
}

// one returns resource's dynamic client for one object: in namespace ns,
// or the context's namespace when ns is "".
func (k *cli) one(ctx context.Context, resource, ns string) (client.APIResource, *client.Resource[*unstructured.Unstructured], error) {
	r, err := k.resource(ctx, resource)
	if err != nil {
		return r, nil, err
	}
	if ns == "" {
		ns = k.c.Namespace()
	}
	return r, k.scoped(r, ns), nil
}

// namespaceFlag registers -n and -A, and returns the namespace they
// select: "" for all of them.
func (k *cli) namespaceFlag(fs *flag.FlagSet) func() string {
	ns := fs.String("n", "", "namespace (default: the context's)")
	all := fs.Bool("A", false, "all namespaces")
	return func() string {
		switch {
		case *all:
			return ""
		case *ns != "":
			return *ns
		}
		return k.c.Namespace()
	}
}
