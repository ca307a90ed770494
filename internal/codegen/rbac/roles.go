package rbac

import (
	"slices"
	"strings"
)

// Role is the ClusterRole (Namespace "") or a Role of the rules.
type Role struct {
	Namespace string
	Rules     []Rule
}

// Roles merges rules into the ClusterRole and the Roles (see the
// package documentation), ClusterRole first, then Roles by namespace.
func Roles(rules []Rule) []Role {
	byNS := map[string][]Rule{}
	for _, r := range rules {
		if len(r.Resources) == 0 {
			byNS[r.Namespace] = append(byNS[r.Namespace], r.clone())
			continue
		}
		for _, res := range r.Resources {
			one := r.clone()
			one.Resources = []string{res}
			byNS[r.Namespace] = append(byNS[r.Namespace], one)
		}
	}
	namespaces := make([]string, 0, len(byNS))
	for ns := range byNS {
		namespaces = append(namespaces, ns)
	}
	slices.Sort(namespaces)
	var out []Role
	for _, ns := range namespaces {
		out = append(out, Role{Namespace: ns, Rules: merge(byNS[ns])})
	}
	return out
}

func (r Rule) clone() Rule {
	r.Groups = slices.Clone(r.Groups)
	r.Resources = slices.Clone(r.Resources)
	r.ResourceNames = slices.Clone(r.ResourceNames)
	r.Verbs = slices.Clone(r.Verbs)
	r.URLs = slices.Clone(r.URLs)
	return r
}

// normalize sorts each list without duplicates and writes the core
// group as "".
func (r *Rule) normalize() {
	for i, g := range r.Groups {
		if g == "core" {
			r.Groups[i] = ""
		}
	}
	for _, l := range []*[]string{&r.Groups, &r.Resources, &r.ResourceNames, &r.Verbs, &r.URLs} {
		if *l == nil {
			continue
		}
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
}

// field names the lists of a Rule, for keys.
type field int

const (
	groups field = iota
	resources
	resourceNames
	urls
	verbs
)

// key joins the lists fields name, each as "a&b", with " + ".
func (r *Rule) key(fields ...field) string {
	lists := [...][]string{groups: r.Groups, resources: r.Resources, resourceNames: r.ResourceNames, urls: r.URLs, verbs: r.Verbs}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = strings.Join(lists[f], "&")
	}
	return strings.Join(parts, " + ")
}

// merge merges the rules of one role and sorts them.
func merge(rules []Rule) []Rule {
	// The same groups, resources, resource names and URLs: verbs join.
	var merged []*Rule
	index := map[string]*Rule{}
	for _, r := range rules {
		r.normalize()
		k := r.key(groups, resources, resourceNames, urls)
		if m, ok := index[k]; ok {
			m.Verbs = append(m.Verbs, r.Verbs...)
			m.normalize()
			continue
		}
		rc := r
		index[k] = &rc
		merged = append(merged, &rc)
	}
	// Then rules that differ only in one list are joined, one list after
	// the other.
	for _, f := range []field{resources, groups, urls} {
		var others []field
		for _, o := range []field{groups, resources, resourceNames, urls, verbs} {
			if o != f {
				others = append(others, o)
			}
		}
		merged = joinOn(merged, f, others)
	}
	for _, r := range merged {
		if slices.Contains(r.Verbs, "*") {
			r.Verbs = []string{"*"}
		}
	}
	slices.SortFunc(merged, func(a, b *Rule) int {
		return strings.Compare(a.key(groups, resources, resourceNames, urls), b.key(groups, resources, resourceNames, urls))
	})
	out := make([]Rule, len(merged))
	for i, r := range merged {
		out[i] = *r
	}
	return out
}

// joinOn joins the rules equal in every field of others, putting their
// f lists together.
func joinOn(rules []*Rule, f field, others []field) []*Rule {
	var out []*Rule
	index := map[string]*Rule{}
	for _, r := range rules {
		k := r.key(others...)
		m, ok := index[k]
		if !ok {
			index[k] = r
			out = append(out, r)
			continue
		}
		switch f {
		case resources:
			m.Resources = append(m.Resources, r.Resources...)
		case groups:
			m.Groups = append(m.Groups, r.Groups...)
		case urls:
			m.URLs = append(m.URLs, r.URLs...)
		}
		m.normalize()
	}
	return out
}
