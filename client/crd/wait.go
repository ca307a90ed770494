package crd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
)

// waitServed waits until crd is Established with its names accepted (for
// its current generation, when the server says which one a condition
// saw), then until every served version is in discovery and lists.
//
// The first wait watches the definition (client.WaitFor), so it ends as
// soon as the server says so; the second polls, as discovery and a list
// of the new resource are not the state of one object to watch.
func waitServed(ctx context.Context, c *client.Client, crd *apiextv1.CustomResourceDefinition, opts Options) error {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	name := crd.Name
	crds := client.For[*apiextv1.CustomResourceDefinition](c)
	cur, err := crds.WaitFor(ctx, name, established)
	if err != nil {
		if ctx.Err() != nil {
			last := "no definition yet"
			if cur != nil {
				last = "conditions " + describe(cur.Status.Conditions)
			}
			err = fmt.Errorf("%w; last seen: %s", err, last)
		}
		return fmt.Errorf("crd: %s: %w", name, err)
	}
	for _, v := range cur.Spec.Versions {
		if !v.Served {
			continue
		}
		gvr := client.GroupVersionResource{Group: cur.Spec.Group, Version: v.Name, Resource: cur.Spec.Names.Plural}
		err := poll(ctx, func() (bool, string, error) { return served(ctx, c, gvr) })
		if err != nil {
			return fmt.Errorf("crd: %s: established, but %s is not served: %w", name, gvr, err)
		}
	}
	return nil
}

// established reports whether the definition's conditions say it is
// ready; a refusal of its names is an error.
func established(crd *apiextv1.CustomResourceDefinition) (bool, error) {
	var est, names *apiextv1.CustomResourceDefinitionCondition
	for i := range crd.Status.Conditions {
		cond := &crd.Status.Conditions[i]
		switch cond.Type {
		case "Established":
			est = cond
		case "NamesAccepted":
			names = cond
		case "Terminating":
			if cond.Status == "True" {
				return false, fmt.Errorf("it is being deleted: %s", cond.Message)
			}
		}
	}
	if names != nil && names.Status == "False" {
		return false, fmt.Errorf("%w: %s: %s", ErrNamesNotAccepted, names.Reason, names.Message)
	}
	current := func(c *apiextv1.CustomResourceDefinitionCondition) bool {
		return c != nil && c.Status == "True" && (c.ObservedGeneration == 0 || c.ObservedGeneration >= crd.Generation)
	}
	return current(est) && current(names), nil
}

func describe(conds []apiextv1.CustomResourceDefinitionCondition) string {
	if len(conds) == 0 {
		return "none yet"
	}
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = fmt.Sprintf("%s=%s", c.Type, c.Status)
		if c.Reason != "" {
			parts[i] += " (" + c.Reason + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// served reports whether discovery lists gvr and a list of it succeeds.
func served(ctx context.Context, c *client.Client, gvr client.GroupVersionResource) (bool, string, error) {
	c.InvalidateDiscovery()
	resources, err := c.ServerResources(ctx)
	if err != nil && !errors.Is(err, client.ErrGroupDiscoveryFailed) {
		return false, "discovery: " + err.Error(), retriable(err)
	}
	// Another group failing (an aggregated API that is down) leaves
	// this one's resources listed.
	found := false
	for _, r := range resources {
		if r.GroupVersionResource == gvr {
			found = true
			break
		}
	}
	if !found {
		if err != nil {
			return false, "discovery does not list it yet: " + err.Error(), nil
		}
		return false, "discovery does not list it yet", nil
	}
	if _, err := client.Dynamic(c, gvr).List(ctx, client.ListOptions{Limit: 1}); err != nil {
		return false, "list: " + err.Error(), retriable(err)
	}
	return true, "", nil
}

// retriable returns nil for the errors a resource just made answers
// with for a moment (404, 429 storage initializing, 503), and err for
// others.
func retriable(err error) error {
	for _, e := range []error{client.ErrNotFound, client.ErrTooManyRequests, client.ErrServiceUnavailable} {
		if errors.Is(err, e) {
			return nil
		}
	}
	return err
}

// poll calls check with exponential backoff (20ms growing to 1s) until
// it is done or fails, or ctx ends; the error then says what check saw
// last.
func poll(ctx context.Context, check func() (done bool, state string, err error)) error {
	last := "nothing yet"
	notYet := errors.New("not yet")
	p := backoffpolicy.Policy{Initial: 20 * time.Millisecond, Max: time.Second}
	_, err := backoffpolicy.Retry(ctx, p, -1, func(err error) bool { return err == notYet }, func() (struct{}, error) {
		done, state, err := check()
		switch {
		case err != nil:
			return struct{}{}, err
		case !done:
			last = state
			return struct{}{}, notYet
		}
		return struct{}{}, nil
	})
	if ctx.Err() != nil {
		return fmt.Errorf("%w; last seen: %s", context.Cause(ctx), last)
	}
	return err
}
