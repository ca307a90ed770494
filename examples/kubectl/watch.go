package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
)

// watchChanges prints each change after resourceVersion rv until ctx
// ends. kubectl prints table rows here; kubewire's Watch decodes
// objects, so a change prints as its type and name.
func watchChanges(ctx context.Context, k *cli, res *client.Resource[*unstructured.Unstructured], sel client.Selector, rv string) error {
	w, err := res.Watch(ctx, client.WatchOptions{LabelSelector: sel, ResourceVersion: rv})
	if err != nil {
		return err
	}
	defer w.Close()
	for {
		ev, err := w.Next()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, client.ErrWatchClosed) {
				return nil
			}
			return err
		}
		o := ev.Object
		name := o.GetName()
		if o.GetNamespace() != "" {
			name = o.GetNamespace() + "/" + name
		}
		fmt.Fprintf(k.out, "%-8s %s\n", ev.Type, name)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
