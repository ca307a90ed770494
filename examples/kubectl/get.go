package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// get prints the server's table of each resource named (comma-separated,
// as kubectl takes them), then, with -w, the changes as they happen.
func get(ctx context.Context, k *cli, args []string) error {
	fs := flag.NewFlagSet("get", flag.ContinueOnError)
	namespace := k.namespaceFlag(fs)
	output := fs.String("o", "", `"wide" adds the server's extra columns`)
	selector := fs.String("l", "", "label selector (app=web,tier!=db)")
	watch := fs.Bool("w", false, "after the table, print changes until interrupted")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return errors.New("get: a resource type is needed")
	}
	ns := namespace()
	var sel client.Selector
	if *selector != "" {
		sel = client.RawSelector(*selector)
	}
	for _, name := range strings.Split(pos[0], ",") {
		r, err := k.resource(ctx, name)
		if err != nil {
			return err
		}
		res := k.scoped(r, ns)
		var table *metav1.Table
		if len(pos) > 1 {
			table, err = res.GetTable(ctx, pos[1], client.GetOptions{})
		} else {
			table, err = res.ListTable(ctx, client.ListOptions{LabelSelector: sel})
		}
		if err != nil {
			return err
		}
		printTable(k, table, *output == "wide", r.Namespaced && ns == "")
		if *watch {
			if err := watchChanges(ctx, k, res, sel, table.ResourceVersion); err != nil {
				return err
			}
		}
	}
	return nil
}

// printTable prints the columns kubectl prints: those of priority 0, and
// with wide every one.
func printTable(k *cli, t *metav1.Table, wide, withNamespace bool) {
	if len(t.Rows) == 0 {
		fmt.Fprintln(k.out, "No resources found")
		return
	}
	w := tabwriter.NewWriter(k.out, 0, 8, 3, ' ', 0)
	defer w.Flush()
	var header []string
	if withNamespace {
		header = append(header, "NAMESPACE")
	}
	for _, c := range t.ColumnDefinitions {
		if wide || c.Priority == 0 {
			header = append(header, strings.ToUpper(c.Name))
		}
	}
	fmt.Fprintln(w, strings.Join(header, "\t"))
	for _, row := range t.Rows {
		var cells []string
		if withNamespace {
			cells = append(cells, rowNamespace(row))
		}
		for i, c := range t.ColumnDefinitions {
			if (wide || c.Priority == 0) && i < len(row.Cells) {
				cells = append(cells, fmt.Sprint(row.Cells[i]))
			}
		}
		fmt.Fprintln(w, strings.Join(cells, "\t"))
	}
}

// rowNamespace reads the namespace from the row's object, which the
// server sends as PartialObjectMetadata (includeObject=Metadata).
func rowNamespace(row metav1.TableRow) string {
	var m struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if err := jsonUnmarshal(row.Object.Raw, &m); err != nil {
		return "?"
	}
	return m.Metadata.Namespace
}
