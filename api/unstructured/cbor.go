package unstructured

import (
	"fmt"
	"strings"

	"github.com/kubewire/kubewire/api/cborwire"
)

// DecodeCBOR replaces u.Object with the CBOR map read from d (what
// kube-apiserver serves for a custom resource as application/cbor): the
// values DecodeJSON gives for the same object, in one pass. null sets
// Object to nil.
func (u *Unstructured) DecodeCBOR(d *cborwire.Decoder) error {
	if d.Null() {
		u.Object = nil
		return d.Err()
	}
	m := d.AnyObject()
	if d.Err() != nil {
		return d.Err()
	}
	u.Object = m
	return nil
}

// DecodeCBOR reads the list from d as DecodeJSON reads it from JSON.
func (l *UnstructuredList) DecodeCBOR(d *cborwire.Decoder) error {
	if d.Null() {
		*l = UnstructuredList{}
		return d.Err()
	}
	m := d.AnyObject()
	if d.Err() != nil {
		return d.Err()
	}
	items, err := listItems(m)
	if err != nil {
		d.SetErr(err)
		return d.Err()
	}
	l.Object, l.Items = m, items
	return nil
}

// listItems takes "items" out of a list's map into Unstructureds, giving
// items without apiVersion or kind the list's.
func listItems(m map[string]any) ([]Unstructured, error) {
	raw := m["items"]
	delete(m, "items")
	switch raw := raw.(type) {
	case nil:
		return nil, nil
	case []any:
		items := make([]Unstructured, len(raw))
		apiVersion, _ := m["apiVersion"].(string)
		kind, _ := m["kind"].(string)
		kind = strings.TrimSuffix(kind, "List")
		for i, item := range raw {
			obj, ok := item.(map[string]any)
			if !ok {
				return nil, &listError{msg: fmt.Sprintf("list item %d is %s, not an object", i, jsonKind(item))}
			}
			if _, ok := obj["apiVersion"]; !ok && apiVersion != "" {
				obj["apiVersion"] = apiVersion
			}
			if _, ok := obj["kind"]; !ok && kind != "" {
				obj["kind"] = kind
			}
			items[i].Object = obj
		}
		return items, nil
	}
	return nil, &listError{msg: fmt.Sprintf("the list's items are %s, not an array", jsonKind(raw))}
}
