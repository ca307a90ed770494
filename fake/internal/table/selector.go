package table

import (
	"slices"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// SelectorString formats a label selector as kube-apiserver does in
// a Scale's status.selector: requirements sorted by key, values sorted,
// joined by commas. Nil and empty selectors are "".
func SelectorString(ls *metav1.LabelSelector) string {
	if ls == nil {
		return ""
	}
	type req struct{ key, text string }
	var reqs []req
	for k, v := range ls.MatchLabels {
		reqs = append(reqs, req{k, k + "=" + v})
	}
	for _, e := range ls.MatchExpressions {
		values := slices.Sorted(slices.Values(e.Values))
		switch e.Operator {
		case "In":
			reqs = append(reqs, req{e.Key, e.Key + " in (" + strings.Join(values, ",") + ")"})
		case "NotIn":
			reqs = append(reqs, req{e.Key, e.Key + " notin (" + strings.Join(values, ",") + ")"})
		case "Exists":
			reqs = append(reqs, req{e.Key, e.Key})
		case "DoesNotExist":
			reqs = append(reqs, req{e.Key, "!" + e.Key})
		}
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return strings.Compare(a.key, b.key) })
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = r.text
	}
	return strings.Join(texts, ",")
}
