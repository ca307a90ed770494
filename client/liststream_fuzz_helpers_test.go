package client

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
)

// dynamicListStream is a list stream reader of a dynamic resource:
// streamJSONList or streamCBORList.
type dynamicListStream func(*request, io.Reader, ListOptions, func(*unstructured.Unstructured) error) (metav1.ListMeta, error)

// readStreamBothWays reads b with stream whole and one byte at a time,
// failing t when the two readings differ.
func readStreamBothWays(t *testing.T, stream dynamicListStream, req *request, b []byte) ([]*unstructured.Unstructured, metav1.ListMeta, error) {
	t.Helper()
	read := func(r io.Reader) ([]*unstructured.Unstructured, metav1.ListMeta, error) {
		var got []*unstructured.Unstructured
		meta, err := stream(req, r, ListOptions{}, func(u *unstructured.Unstructured) error {
			got = append(got, u)
			return nil
		})
		return got, meta, err
	}
	items, meta, err := read(bytes.NewReader(b))
	items1, meta1, err1 := read(iotest.OneByteReader(bytes.NewReader(b)))
	if (err == nil) != (err1 == nil) || !cmp.Equal(items, items1) || !cmp.Equal(meta, meta1) {
		t.Fatalf("one-byte reads differ: %v / %v, %d / %d items", err, err1, len(items), len(items1))
	}
	return items, meta, err
}

// sameAsList fails t when a stream's items and metadata differ from
// what List decoded of the same body.
func sameAsList(t *testing.T, list jsonList[*unstructured.Unstructured], items []*unstructured.Unstructured, meta metav1.ListMeta) {
	t.Helper()
	if diff := cmp.Diff(list.Items, items, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("items (-List +stream):\n%s", diff)
	}
	if diff := cmp.Diff(list.ListMeta, meta); diff != "" {
		t.Fatalf("list metadata (-List +stream):\n%s", diff)
	}
}
