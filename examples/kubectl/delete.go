package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/kubewire/kubewire/client"
)

// del deletes an object with kubectl's -cascade policies and, unless
// -wait=false, waits until the server no longer has it: with foreground
// the object stays (with a deletionTimestamp) until its dependents are
// gone, and a finalizer can keep it longer.
func del(ctx context.Context, k *cli, args []string) error {
	fs := flag.NewFlagSet("delete", flag.ContinueOnError)
	namespace := k.namespaceFlag(fs)
	cascade := fs.String("cascade", "background", "background, foreground or orphan")
	wait := fs.Bool("wait", true, "wait until the object is gone")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return errors.New("delete: RESOURCE NAME are needed")
	}
	policies := map[string]client.Propagation{
		"background": client.PropagationBackground,
		"foreground": client.PropagationForeground,
		"orphan":     client.PropagationOrphan,
	}
	policy, ok := policies[*cascade]
	if !ok {
		return fmt.Errorf("delete: -cascade %q: background, foreground or orphan", *cascade)
	}
	r, res, err := k.one(ctx, pos[0], namespace())
	if err != nil {
		return err
	}
	name := pos[1]
	// The object's uid and resourceVersion first: the wait follows this
	// object from this version, and a new one of the same name made
	// meanwhile does not count as it.
	obj, err := res.Get(ctx, name, client.GetOptions{})
	if err != nil {
		return err
	}
	uid := string(obj.GetUID())
	pre := &client.Preconditions{UID: uid}
	if err := res.Delete(ctx, name, client.DeleteOptions{PropagationPolicy: policy, Preconditions: pre}); err != nil {
		return err
	}
	fmt.Fprintf(k.out, "%s %q deleted\n", r.Resource, name)
	if !*wait {
		return nil
	}
	w, err := res.Watch(ctx, client.WatchOptions{
		FieldSelector:   client.FieldSelector{}.Equals("metadata.name", name),
		ResourceVersion: obj.GetResourceVersion(),
	})
	if err != nil {
		return err
	}
	defer w.Close()
	for {
		ev, err := w.Next()
		if err != nil {
			return fmt.Errorf("waiting for %s %q to be gone: %w", r.Resource, name, err)
		}
		if ev.Type == client.Deleted && ev.Object.GetUID() == obj.GetUID() {
			fmt.Fprintf(k.out, "%s %q gone\n", r.Resource, name)
			return nil
		}
	}
}
