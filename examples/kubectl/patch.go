package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/kubewire/kubewire/client"
)

// patch patches an object with a merge, JSON or strategic merge patch
// (custom resources take no strategic merge patch: the server answers
// 415).
func patch(ctx context.Context, k *cli, args []string) error {
	fs := flag.NewFlagSet("patch", flag.ContinueOnError)
	namespace := k.namespaceFlag(fs)
	kind := fs.String("type", "strategic", "strategic, merge or json")
	body := fs.String("p", "", "the patch")
	subresource := fs.String("subresource", "", `"status" or "scale" to patch that subresource`)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || *body == "" {
		return errors.New("patch: RESOURCE NAME and -p PATCH are needed")
	}
	types := map[string]client.PatchType{
		"strategic": client.StrategicMergePatch,
		"merge":     client.MergePatch,
		"json":      client.JSONPatch,
	}
	pt, ok := types[*kind]
	if !ok {
		return fmt.Errorf("patch: -type %q: strategic, merge or json", *kind)
	}
	r, res, err := k.one(ctx, pos[0], namespace())
	if err != nil {
		return err
	}
	if *subresource != "" {
		res = res.Subresource(*subresource)
	}
	if _, err := res.Patch(ctx, pos[1], pt, []byte(*body), client.PatchOptions{FieldManager: "kubectl-patch"}); err != nil {
		return err
	}
	fmt.Fprintf(k.out, "%s/%s patched\n", r.Resource, pos[1])
	return nil
}
