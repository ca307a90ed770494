package ctrlutil

import (
	"slices"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// SetStatusCondition sets the condition of c's type in conds, adding it
// when there is none, and reports whether conds changed. The last
// transition time changes only with the status: to c.LastTransitionTime
// if set, else to now; a condition set again as it was changes nothing,
// so that a Reconcile setting it every time through Patch sends nothing.
// A change replaces the slice, never the array a cached object shares.
// It is k8s.io/apimachinery's meta.SetStatusCondition.
func SetStatusCondition(conds *[]metav1.Condition, c metav1.Condition) bool {
	i := slices.IndexFunc(*conds, func(e metav1.Condition) bool { return e.Type == c.Type })
	if i < 0 {
		if c.LastTransitionTime.IsZero() {
			c.LastTransitionTime = metav1.Now()
		}
		*conds = append((*conds)[:len(*conds):len(*conds)], c)
		return true
	}
	old := (*conds)[i]
	if old.Status == c.Status {
		c.LastTransitionTime = old.LastTransitionTime
	} else if c.LastTransitionTime.IsZero() {
		c.LastTransitionTime = metav1.Now()
	}
	if old.Status == c.Status && old.Reason == c.Reason && old.Message == c.Message && old.ObservedGeneration == c.ObservedGeneration {
		return false
	}
	c.UnknownFields = old.UnknownFields
	*conds = slices.Clone(*conds)
	(*conds)[i] = c
	return true
}

// RemoveStatusCondition removes the condition of type t from conds, and
// reports whether there was one. The slice is replaced, never modified
// in place.
func RemoveStatusCondition(conds *[]metav1.Condition, t string) bool {
	i := slices.IndexFunc(*conds, func(e metav1.Condition) bool { return e.Type == t })
	if i < 0 {
		return false
	}
	*conds = slices.Delete(slices.Clone(*conds), i, i+1)
	return true
}

// FindStatusCondition returns the condition of type t in conds, or nil.
func FindStatusCondition(conds []metav1.Condition, t string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// IsStatusConditionTrue reports whether conds has a condition of type t
// whose status is True.
func IsStatusConditionTrue(conds []metav1.Condition, t string) bool {
	return isStatusCondition(conds, t, metav1.ConditionTrue)
}

// IsStatusConditionFalse reports whether conds has a condition of type t
// whose status is False (a missing condition is neither true nor false).
func IsStatusConditionFalse(conds []metav1.Condition, t string) bool {
	return isStatusCondition(conds, t, metav1.ConditionFalse)
}

func isStatusCondition(conds []metav1.Condition, t string, s metav1.ConditionStatus) bool {
	c := FindStatusCondition(conds, t)
	return c != nil && c.Status == s
}
