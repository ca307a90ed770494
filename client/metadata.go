package client

import (
	"context"
	"fmt"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// Metadata returns the Resource of any group/version/resource read as
// *metav1.PartialObjectMetadata (as=PartialObjectMetadata, and
// PartialObjectMetadataList for lists): only apiVersion, kind and
// metadata, which is what a cache of owners, labels or finalizers needs.
// Built-in resources are read as protobuf with a JSON fallback; set
// protobuf false for custom resources to ask for JSON only. Writes are
// not meaningful on it (except Delete and Patch of metadata).
func Metadata(c *Client, gvr GroupVersionResource, protobuf bool) *Resource[*metav1.PartialObjectMetadata] {
	return &Resource[*metav1.PartialObjectMetadata]{
		c:      c,
		info:   resourceInfo{gvr: gvr, protobuf: protobuf, as: codec.AsPartialObjectMetadata},
		newObj: func() *metav1.PartialObjectMetadata { return new(metav1.PartialObjectMetadata) },
	}
}

// ListTable lists the collection as a meta.k8s.io/v1 Table (the columns
// kubectl get prints), asking with as=Table and falling back to the plain
// list: a server or resource that cannot make a Table gets a Table with
// the columns Name and Created At made from the items' metadata. A Table
// whose rows are not as wide as its columns is refused (ErrMalformed).
func (r *Resource[T]) ListTable(ctx context.Context, opts ListOptions) (*metav1.Table, error) {
	p, err := r.collectionPath("list")
	if err != nil {
		return nil, err
	}
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	return r.table(ctx, &request{method: "GET", path: p, query: q, accept: codec.AcceptTable}, true)
}

// GetTable reads the object name as a one-row Table; see ListTable.
func (r *Resource[T]) GetTable(ctx context.Context, name string, opts GetOptions) (*metav1.Table, error) {
	p, err := r.objectPath(r.namespace, name)
	if err != nil {
		return nil, err
	}
	return r.table(ctx, &request{method: "GET", path: p, query: opts.query(), accept: codec.AcceptTable}, false)
}

// table reads a Table answer, or makes one from the plain list (list) or
// object answered instead. What is not a Table is checked as List and Get
// check it: a list for ListTable, an object for GetTable, of r's kind.
func (r *Resource[T]) table(ctx context.Context, req *request, list bool) (*metav1.Table, error) {
	resp, err := r.c.do(ctx, req)
	if err != nil {
		return nil, err
	}
	defer resp.release()
	if err := refuseNullAnswer(resp.contentType, resp.body); err != nil {
		return nil, requestError(req, nil, err)
	}
	var probe tableProbe
	if err := codec.Decode(resp.contentType, resp.body, &probe); err != nil {
		return nil, decodeError(req, err)
	}
	if probe.Kind == "Table" {
		if probe.APIVersion != "" && probe.APIVersion != tableAPIVersion {
			return nil, requestError(req, nil, fmt.Errorf("the answer is a %s Table, want %s (the version asked for): %w",
				errtext.Cut(probe.APIVersion), tableAPIVersion, codec.ErrMalformed))
		}
		t := new(metav1.Table)
		if err := codec.Decode(resp.contentType, resp.body, t); err != nil {
			return nil, decodeError(req, err)
		}
		if err := checkRowWidths(t.Rows, len(t.ColumnDefinitions)); err != nil {
			return nil, requestError(req, nil, err)
		}
		return t, nil
	}
	if isListKind(probe.Kind) != list {
		want := "an object"
		if list {
			want = "a list"
		}
		return nil, requestError(req, nil, fmt.Errorf("the answer is a %q, want %s or a Table: %w", errtext.Cut(probe.Kind), want, codec.ErrMalformed))
	}
	if err := r.checkKind(probe.APIVersion, probe.Kind, list); err != nil {
		return nil, requestError(req, nil, err)
	}
	// The plain object or list: make the default table.
	var items unstructured.UnstructuredList
	if list {
		if err := codec.Decode(resp.contentType, resp.body, &items); err != nil {
			return nil, decodeError(req, err)
		}
	} else {
		var obj unstructured.Unstructured
		if err := codec.Decode(resp.contentType, resp.body, &obj); err != nil {
			return nil, decodeError(req, err)
		}
		items.Items = []unstructured.Unstructured{obj}
	}
	t := &metav1.Table{
		TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "Table"},
		ListMeta: metav1.ListMeta{ResourceVersion: items.GetResourceVersion(), Continue: items.GetContinue()},
		ColumnDefinitions: []metav1.TableColumnDefinition{
			{Name: "Name", Type: "string", Format: "name"},
			{Name: "Created At", Type: "date"},
		},
		Rows: []metav1.TableRow{},
	}
	for _, it := range items.Items {
		created, _, _ := unstructured.NestedString(it.Object, "metadata", "creationTimestamp")
		t.Rows = append(t.Rows, metav1.TableRow{Cells: []any{it.GetName(), created}})
	}
	return t, nil
}

// checkRowWidths refuses rows whose cells are not as wide as the
// table's columns, as a Table's are (meta/v1): a printer indexing the
// cells by column would go past them, or print one under another's name.
func checkRowWidths(rows []metav1.TableRow, columns int) error {
	for i, row := range rows {
		if len(row.Cells) != columns {
			return fmt.Errorf("the Table's row %d has %d cells, want %d (its columns): %w", i, len(row.Cells), columns, codec.ErrMalformed)
		}
	}
	return nil
}

// tableProbe reads an answer's kind; a Status is the server's error.
type tableProbe struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// GetKind lets codec.Decode see a Status answered in place of a table.
func (p *tableProbe) GetKind() string { return p.Kind }

// tableAPIVersion is the Table version codec.AcceptTable asks for.
const tableAPIVersion = "meta.k8s.io/v1"

func isListKind(kind string) bool { return len(kind) > 4 && kind[len(kind)-4:] == "List" }
