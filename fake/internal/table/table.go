package table

import (
	"encoding/json"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Printer renders objects as kube-apiserver's Tables.
type Printer struct {
	// Columns are kube-apiserver's recorded column definitions of a
	// built-in resource ("group/resource"), nil when none were recorded.
	Columns func(resourceKey string) []metav1.TableColumnDefinition
	Now     func() time.Time
}

// Options are what a request asks of a Table.
type Options struct {
	// Version is meta.k8s.io's version: "v1" (the default) or "v1beta1".
	Version string
	// Include is includeObject: None, Metadata (the default) or Object.
	Include string
	// NoHeaders leaves the column definitions out (the events of a
	// watch after the first).
	NoHeaders bool
}

// Descriptions of the Name and Age columns, from ObjectMeta's API
// documentation, as kube-apiserver's Tables carry them.
const (
	nameDescription              = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"
	CreationTimestampDescription = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)

// Render renders objects as a meta.k8s.io Table (v1, or v1beta1 when
// out asks for it): custom resources with their CRD's printer columns,
// built-in kinds with kube-apiserver's columns and cells (kinds the fake
// has no printer for with Name and Age); each row carries the object as
// out.include says (PartialObjectMetadata by default).
func (p Printer) Render(r *object.Resource, items []*object.Stored, lm metav1.ListMeta, out Options) ([]byte, error) {
	type row struct {
		Cells      []any           `json:"cells"`
		Conditions []rowCondition  `json:"conditions,omitempty"`
		Object     json.RawMessage `json:"object"`
	}
	metaVersion := object.MetaAPIVersion
	if out.Version == "v1beta1" {
		metaVersion = "meta.k8s.io/v1beta1"
	}
	t := struct {
		Kind       string                         `json:"kind"`
		APIVersion string                         `json:"apiVersion"`
		Metadata   metav1.ListMeta                `json:"metadata"`
		Columns    []metav1.TableColumnDefinition `json:"columnDefinitions"`
		Rows       []row                          `json:"rows"`
	}{
		Kind: "Table", APIVersion: metaVersion, Metadata: lm,
		Columns: []metav1.TableColumnDefinition{
			{Name: "Name", Type: "string", Format: "name", Description: nameDescription},
			{Name: "Age", Type: "date", Description: CreationTimestampDescription},
		},
		Rows: make([]row, 0, len(items)),
	}
	builtin := !r.Custom && r.CRD == nil
	printed := r.StorageResource() // prints every version of a kind alike
	var recorded []metav1.TableColumnDefinition
	if builtin {
		recorded = p.Columns(printed.Key())
	}
	defaultConvertor := len(recorded) == 2 && recorded[1].Name == "Created At"
	switch {
	case r.CRD != nil:
		t.Columns = customColumns(r.CRD.Columns)
	case defaultConvertor:
		t.Columns = recorded
	}
	now := p.Now()
	hasCells := false
	for i, o := range items {
		cells := []any{o.Name, humanAge(now.Sub(o.Created))}
		var conds []rowCondition
		switch {
		case r.CRD != nil:
			cells = customCells(r.CRD.Columns, o, now)
		case defaultConvertor:
			cells = []any{o.Name, o.Created.UTC().Format(time.RFC3339)}
		case len(recorded) > 0:
			if d, err := printed.DraftOf(o); err == nil {
				if c, rc, ok := builtinCells(d.Typed, now); ok {
					cells, conds = c, rc
					if i == 0 {
						hasCells = true
					}
				}
			}
		}
		var obj json.RawMessage
		switch out.Include {
		case "None":
			obj = json.RawMessage("null")
		case "Object":
			obj = o.ServedJSON(r)
		default:
			obj = o.PartialJSON()
			if metaVersion != object.MetaAPIVersion {
				obj = append([]byte(`{"kind":"PartialObjectMetadata","apiVersion":"`+metaVersion+`","metadata":`), append(o.MetadataJSON(), '}')...)
			}
		}
		t.Rows = append(t.Rows, row{Cells: cells, Conditions: conds, Object: obj})
	}
	if len(recorded) > 0 && (hasCells || len(items) == 0 && p.hasPrinter(printed)) {
		t.Columns = recorded
	}
	if out.NoHeaders {
		t.Columns = nil
	}
	return json.Marshal(&t)
}

// hasPrinter reports whether the fake fills the cells of a built-in
// kind's Table rows.
func (p Printer) hasPrinter(r *object.Resource) bool {
	t := r.NewTyped()
	_, _, ok := builtinCells(t, p.Now())
	return ok
}

// humanAge formats an age as kubectl's AGE columns do.
func humanAge(d time.Duration) string { return humanDuration(d) }
