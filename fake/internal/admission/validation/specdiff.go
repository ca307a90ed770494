package validation

import (
	"encoding/json"
	"fmt"

	"github.com/pmezard/go-difflib/difflib"
)

// specDiff is the diff kube-apiserver appends to a "spec is immutable"
// error: both values as indented JSON of its internal types (one space
// per level), compared line by line as a unified diff with three lines
// of context and no file headers. It uses the same diff library as
// kube-apiserver, so the hunks match byte for byte.
func specDiff(old, updated any) string {
	a, errA := json.MarshalIndent(old, "", " ")
	b, errB := json.MarshalIndent(updated, "", " ")
	if errA != nil || errB != nil {
		return fmt.Sprintf("%#v\n%#v", old, updated)
	}
	out, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A:       difflib.SplitLines(string(a)),
		B:       difflib.SplitLines(string(b)),
		Context: 3,
	})
	if err != nil {
		return "error generating diff: " + err.Error()
	}
	return out
}

// sameJSON reports whether two values marshal to the same JSON: the
// internal forms compared here hold quantities in their canonical
// strings, so this is kube-apiserver's semantic equality for them.
func sameJSON(a, b any) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && string(x) == string(y)
}
