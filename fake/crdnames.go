package fake

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// namesConflict decides, as kube-apiserver's naming controller does,
// which of a CRD's requested names it may have: within its group, a
// plural, singular or short name another CRD has accepted, or a kind or
// list kind, is taken. A name the CRD has already accepted stays its
// own. It returns the accepted names and, on a conflict, the
// NamesAccepted reason and message of the last conflict found.
func (s *Server) namesConflict(crdRes *object.Resource, crd *apiextensionsv1.CustomResourceDefinition) (apiextensionsv1.CustomResourceDefinitionNames, string, string) {
	resources, kinds := map[string]bool{}, map[string]bool{}
	objs, _, _ := s.store.Snapshot(crdRes, 0)
	for _, o := range objs {
		if o.Name == crd.Name {
			continue
		}
		d, err := crdRes.DraftOf(o)
		if err != nil {
			continue
		}
		other := d.Typed.(*apiextensionsv1.CustomResourceDefinition)
		if other.Spec.Group != crd.Spec.Group {
			continue
		}
		n := other.Status.AcceptedNames
		for _, name := range append([]string{n.Plural, n.Singular}, n.ShortNames...) {
			resources[name] = true
		}
		kinds[n.Kind], kinds[n.ListKind] = true, true
	}
	want, had := crd.Spec.Names, crd.Status.AcceptedNames
	got := had
	reason, message := "", ""
	conflict := func(r string, name string) {
		reason, message = r, fmt.Sprintf("%q is already in use", name)
	}
	taken := func(requested, accepted string, used map[string]bool) bool {
		return requested != accepted && used[requested]
	}
	if taken(want.Plural, had.Plural, resources) {
		conflict("PluralConflict", want.Plural)
	} else {
		got.Plural = want.Plural
	}
	if taken(want.Singular, had.Singular, resources) {
		conflict("SingularConflict", want.Singular)
	} else {
		got.Singular = want.Singular
	}
	if !slices.Equal(want.ShortNames, had.ShortNames) {
		var msgs []string
		for _, short := range want.ShortNames {
			if !slices.Contains(had.ShortNames, short) && resources[short] {
				msgs = append(msgs, fmt.Sprintf("%q is already in use", short))
			}
		}
		if len(msgs) > 0 {
			reason, message = "ShortNamesConflict", strings.Join(msgs, ", ")
			if len(msgs) > 1 {
				message = "[" + message + "]"
			}
		} else {
			got.ShortNames = want.ShortNames
		}
	}
	if taken(want.Kind, had.Kind, kinds) {
		conflict("KindConflict", want.Kind)
	} else {
		got.Kind = want.Kind
	}
	if taken(want.ListKind, had.ListKind, kinds) {
		conflict("ListKindConflict", want.ListKind)
	} else {
		got.ListKind = want.ListKind
	}
	got.Categories = want.Categories
	return got, reason, message
}
