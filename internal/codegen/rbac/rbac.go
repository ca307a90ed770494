package rbac

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/internal/codegen/markers"
)

// Rule is one +kubebuilder:rbac marker.
type Rule struct {
	Groups, Resources, ResourceNames, Verbs, URLs []string
	// Namespace, when set, puts the rule in a Role of that namespace.
	Namespace string
}

// Parse reads the rule of a +kubebuilder:rbac marker.
func Parse(m markers.Marker) (Rule, error) {
	var r Rule
	for _, a := range m.Args {
		var err error
		switch strings.ToLower(a.Name) {
		case "groups":
			r.Groups, err = markers.List(a.Value)
		case "resources":
			r.Resources, err = markers.List(a.Value)
		case "resourcenames":
			r.ResourceNames, err = markers.List(a.Value)
		case "verbs":
			r.Verbs, err = markers.List(a.Value)
		case "urls":
			r.URLs, err = markers.List(a.Value)
		case "namespace":
			r.Namespace, err = markers.String(a.Value)
		default:
			err = fmt.Errorf("unknown argument %q (groups, resources, resourceNames, verbs, urls, namespace)", a.Name)
		}
		if err != nil {
			return Rule{}, &markers.Error{Text: m.Text, Reason: err.Error()}
		}
	}
	if len(r.Verbs) == 0 {
		return Rule{}, &markers.Error{Text: m.Text, Reason: "verbs is required"}
	}
	if len(r.Resources) == 0 && len(r.URLs) == 0 {
		return Rule{}, &markers.Error{Text: m.Text, Reason: "a rule needs resources or urls"}
	}
	return r, nil
}

// Collect returns the rules of the +kubebuilder:rbac markers of a
// package's files, in the order written: those in the package doc
// comment and in the comment groups at the top level of each file that
// are not a declaration's doc comment (see the package documentation).
// A malformed marker is an error naming its file and line.
func Collect(fset *token.FileSet, files []*ast.File) ([]Rule, error) {
	var rules []Rule
	for _, f := range files {
		for _, cg := range packageLevel(f) {
			for _, c := range cg.List {
				ms, err := markers.Parse([]string{c.Text})
				if err != nil {
					return nil, fmt.Errorf("%s: %w", fset.Position(c.Pos()), err)
				}
				for _, m := range ms {
					if m.Name != markers.RBAC {
						continue
					}
					r, err := Parse(m)
					if err != nil {
						return nil, fmt.Errorf("%s: %w", fset.Position(c.Pos()), err)
					}
					rules = append(rules, r)
				}
			}
		}
	}
	return rules, nil
}

// Unread returns the place of each +kubebuilder:rbac marker that Collect
// does not read, as controller-gen does not: those in a declaration's doc
// comment (directly above func main or Reconcile, with no blank line) or
// inside a declaration. They make no rule, so a run that finds only them
// writes no role; the caller warns about each.
func Unread(fset *token.FileSet, files []*ast.File) []string {
	var out []string
	for _, f := range files {
		read := map[*ast.CommentGroup]bool{}
		for _, cg := range packageLevel(f) {
			read[cg] = true
		}
		for _, cg := range f.Comments {
			if read[cg] {
				continue
			}
			for _, c := range cg.List {
				text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
				if strings.HasPrefix(text, "+"+markers.RBAC+":") || text == "+"+markers.RBAC {
					out = append(out, fset.Position(c.Pos()).String())
				}
			}
		}
	}
	return out
}

// packageLevel returns f's comment groups that hold package-level
// markers: the package doc, and every group outside the declarations
// that is not a declaration's doc comment.
func packageLevel(f *ast.File) []*ast.CommentGroup {
	docs := map[*ast.CommentGroup]bool{}
	type span struct{ from, to token.Pos }
	var inside []span
	for _, d := range f.Decls {
		inside = append(inside, span{d.Pos(), d.End()})
		switch d := d.(type) {
		case *ast.FuncDecl:
			docs[d.Doc] = true
		case *ast.GenDecl:
			docs[d.Doc] = true
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					docs[s.Doc] = true
				case *ast.ValueSpec:
					docs[s.Doc] = true
				}
			}
		}
	}
	var out []*ast.CommentGroup
	for _, cg := range f.Comments {
		if cg == f.Doc {
			out = append(out, cg)
			continue
		}
		if docs[cg] || slices.ContainsFunc(inside, func(s span) bool { return cg.Pos() >= s.from && cg.End() <= s.to }) {
			continue
		}
		out = append(out, cg)
	}
	return out
}
