package managedfields

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// Entry is one manager's fields.
type Entry struct {
	Manager     string
	Operation   string // "Apply" or "Update"
	APIVersion  string
	Subresource string
	Time        *metav1.Time // nil when kube-apiserver would write none
	Fields      *fieldpath.Set
}

// Operations of an Entry.
const (
	OperationApply  = "Apply"
	OperationUpdate = "Update"
)

// Managed is the field ownership of an object: its managers' entries by
// identity (manager, operation, subresource and, for updates, API
// version: entries differing in any of them are separate). The zero
// value is empty and usable.
type Managed map[string]*Entry

// identity is the key of an entry: what kube-apiserver uses to tell
// managers apart. Apply entries of one manager are the same whatever the
// API version.
func identity(manager, operation, apiVersion, subresource string) string {
	if operation == OperationApply {
		apiVersion = ""
	}
	b, _ := json.Marshal(struct {
		Manager     string `json:"manager,omitempty"`
		Operation   string `json:"operation,omitempty"`
		APIVersion  string `json:"apiVersion,omitempty"`
		Subresource string `json:"subresource,omitempty"`
	}{manager, operation, apiVersion, subresource})
	return string(b)
}

func (e *Entry) identity() string {
	return identity(e.Manager, e.Operation, e.APIVersion, e.Subresource)
}

// errBadEntry is matched by every error of Decode.
var errBadEntry = errors.New("invalid managedFields entry")

// Decode reads an object's managedFields. It fails, as kube-apiserver
// does, on an entry without a known operation, API version or fieldsType.
func Decode(entries []metav1.ManagedFieldsEntry) (Managed, error) {
	m := make(Managed, len(entries))
	for i, e := range entries {
		if e.Operation != OperationApply && e.Operation != OperationUpdate {
			return nil, fmt.Errorf("%w %d: operation must be `Apply` or `Update`", errBadEntry, i)
		}
		if e.APIVersion == "" {
			return nil, fmt.Errorf("%w %d: apiVersion must not be empty", errBadEntry, i)
		}
		if e.FieldsType != "FieldsV1" {
			return nil, fmt.Errorf("%w %d: invalid fieldsType %q", errBadEntry, i, e.FieldsType)
		}
		set := fieldpath.NewSet()
		if e.FieldsV1 != nil && len(e.FieldsV1.Raw) > 0 {
			if err := set.UnmarshalJSON(e.FieldsV1.Raw); err != nil {
				return nil, fmt.Errorf("%w %d: %w", errBadEntry, i, err)
			}
		}
		entry := &Entry{Manager: e.Manager, Operation: string(e.Operation), APIVersion: e.APIVersion, Subresource: e.Subresource, Time: e.Time, Fields: set}
		m[entry.identity()] = entry
	}
	return m, nil
}

// Encode writes the entries in kube-apiserver's order: Apply before
// Update, then by time, manager, API version and subresource. Nil when
// there is none.
func (m Managed) Encode() []metav1.ManagedFieldsEntry {
	if len(m) == 0 {
		return nil
	}
	out := make([]metav1.ManagedFieldsEntry, 0, len(m))
	for _, e := range m {
		out = append(out, e.encode())
	}
	SortEntries(out)
	return out
}

func (e *Entry) encode() metav1.ManagedFieldsEntry {
	raw, _ := e.Fields.MarshalJSON()
	return metav1.ManagedFieldsEntry{
		Manager: e.Manager, Operation: metav1.ManagedFieldsOperationType(e.Operation), APIVersion: e.APIVersion,
		Time: e.Time, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: raw}, Subresource: e.Subresource,
	}
}

// SortEntries orders managedFields entries as kube-apiserver writes
// them: by operation (Apply first), time (entries without one first),
// manager, API version and subresource.
func SortEntries(out []metav1.ManagedFieldsEntry) {
	slices.SortStableFunc(out, func(a, b metav1.ManagedFieldsEntry) int {
		if c := strings.Compare(string(a.Operation), string(b.Operation)); c != 0 {
			return c
		}
		if c := unix(a.Time) - unix(b.Time); c != 0 {
			if c < 0 {
				return -1
			}
			return 1
		}
		if c := strings.Compare(a.Manager, b.Manager); c != 0 {
			return c
		}
		if c := strings.Compare(a.APIVersion, b.APIVersion); c != 0 {
			return c
		}
		return strings.Compare(a.Subresource, b.Subresource)
	})
}

func unix(t *metav1.Time) int64 {
	if t == nil {
		return 0
	}
	return t.Unix()
}

// clone copies the map and its entries (sets are replaced, never
// modified, so they are shared).
func (m Managed) clone() Managed {
	out := make(Managed, len(m))
	for k, e := range m {
		c := *e
		out[k] = &c
	}
	return out
}

// identities returns the keys in order, for deterministic walks.
func (m Managed) identities() []string {
	return slices.Sorted(maps.Keys(m))
}
