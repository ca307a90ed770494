package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// diff shows what apply -f would change, as kubectl diff --server-side
// does: each object is applied as a dry run (the server merges, defaults
// and admits it, storing nothing) and compared with what the server has,
// as YAML in unified diff form. Objects of kinds the file defines itself
// (its CustomResourceDefinitions are not installed) cannot be compared.
func diff(ctx context.Context, k *cli, args []string) error {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	file := fs.String("f", "", "YAML or JSON file of objects")
	manager := fs.String("field-manager", "kubectl", "field manager of the applied fields")
	force := fs.Bool("force-conflicts", false, "take over fields other managers own")
	namespace := k.namespaceFlag(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *file == "" {
		return errors.New("diff: -f FILE is needed")
	}
	objs, err := readObjects(*file)
	if err != nil {
		return err
	}
	for _, u := range objs {
		m, res, err := k.forObject(ctx, u, namespace())
		if err != nil {
			return err
		}
		live, err := res.Get(ctx, u.GetName(), client.GetOptions{})
		if err != nil && !errors.Is(err, client.ErrNotFound) {
			return err
		}
		merged, err := res.Apply(ctx, u, client.ApplyOptions{FieldManager: *manager, Force: *force, DryRun: true})
		if err != nil {
			return err
		}
		before, err := diffYAML(live)
		if err != nil {
			return err
		}
		after, err := diffYAML(merged)
		if err != nil {
			return err
		}
		name := m.Resource + "/" + u.GetName()
		if m.Namespaced {
			name = u.GetNamespace() + "/" + name
		}
		fmt.Fprint(k.out, unifiedDiff("live/"+name, "merged/"+name, before, after))
	}
	return nil
}

// diffYAML is obj as YAML lines, without its managed fields (noise for a
// reader); nil gives none.
func diffYAML(obj *unstructured.Unstructured) ([]string, error) {
	if obj == nil {
		return nil, nil
	}
	obj = obj.DeepCopy()
	unstructured.RemoveNestedField(obj.Object, "metadata", "managedFields")
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	y, err := codec.JSONToYAML(j)
	if err != nil {
		return nil, err
	}
	return strings.SplitAfter(string(y), "\n"), nil
}

// unifiedDiff returns the lines of a and b as a unified diff with three
// lines of context, or "" when they are equal.
func unifiedDiff(nameA, nameB string, a, b []string) string {
	a, b = trimEmptyLast(a), trimEmptyLast(b)
	// lcs[i][j]: the length of the longest common subsequence of a[i:], b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op     byte // ' ', '-' or '+'
		text   string
		ai, bi int // line numbers before this line, in a and b
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i], i, j})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', a[i], i, j})
			i++
		default:
			lines = append(lines, line{'+', b[j], i, j})
			j++
		}
	}
	const context = 3
	var out strings.Builder
	for start := 0; start < len(lines); {
		first := start
		for first < len(lines) && lines[first].op == ' ' {
			first++
		}
		if first == len(lines) {
			break
		}
		// A hunk runs until more than 2*context unchanged lines follow a change.
		end, same := first, 0
		for k := first; k < len(lines) && same <= 2*context; k++ {
			if lines[k].op == ' ' {
				same++
			} else {
				end, same = k+1, 0
			}
		}
		from, to := max(first-context, 0), min(end+context, len(lines))
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
		}
		na, nb := 0, 0
		for _, l := range lines[from:to] {
			if l.op != '+' {
				na++
			}
			if l.op != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", lines[from].ai+min(na, 1), na, lines[from].bi+min(nb, 1), nb)
		for _, l := range lines[from:to] {
			out.WriteByte(l.op)
			out.WriteString(strings.TrimSuffix(l.text, "\n"))
			out.WriteByte('\n')
		}
		start = to
	}
	return out.String()
}

// trimEmptyLast drops the empty string SplitAfter leaves after a final
// newline.
func trimEmptyLast(s []string) []string {
	if n := len(s); n > 0 && s[n-1] == "" {
		return s[:n-1]
	}
	return s
}
