package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
)

// A Status sent with a 200 in place of a list, JSON or CBOR, is the
// server's error to ListStream, typed or dynamic, as it is to List: the
// dynamic stream took it for an empty list (no error, no items), and
// the typed one for a malformed answer.
func TestListStreamStatusInPlaceOfList(t *testing.T) {
	gone := `{"kind":"Status","apiVersion":"v1","metadata":{"resourceVersion":"7"},"status":"Failure","message":"too old resource version: 5 (9)","reason":"Expired","details":{"retryAfterSeconds":2},"code":410,"status":"Failure"}`
	bodies := map[string][]byte{"application/json": []byte(gone), "application/cbor": cborOf(t, gone)}
	var contentType string
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		reply(http.StatusOK, contentType, bodies[contentType])(w, r)
	})
	ctx := context.Background()
	gvr := GroupVersionResource{Group: "shapes.kubewire.dev", Version: "v1", Resource: "widgets"}
	dynamic := Dynamic(c, gvr).Namespace("default")
	typed := For[*shapesv1.Widget](c).Namespace("default")
	for ct := range bodies {
		contentType = ct
		_, listErr := dynamic.List(ctx, ListOptions{})
		if !errors.Is(listErr, ErrExpired) {
			t.Fatalf("%s: List = %v, want ErrExpired", ct, listErr)
		}
		for name, stream := range map[string]func() (int, error){
			"dynamic": func() (int, error) {
				n := 0
				_, err := dynamic.ListStream(ctx, ListOptions{}, func(*unstructured.Unstructured) error { n++; return nil })
				return n, err
			},
			"typed": func() (int, error) {
				n := 0
				_, err := typed.ListStream(ctx, ListOptions{}, func(*shapesv1.Widget) error { n++; return nil })
				return n, err
			},
		} {
			n, err := stream()
			var se *StatusError
			if !errors.As(err, &se) || !errors.Is(err, ErrExpired) || errors.Is(err, ErrMalformed) || n != 0 {
				t.Errorf("%s, %s ListStream: %d items, %v; want no items and ErrExpired", ct, name, n, err)
				continue
			}
			if err.Error() != listErr.Error() || !strings.Contains(err.Error(), "too old resource version: 5 (9)") {
				t.Errorf("%s, %s ListStream: %q, List: %q", ct, name, err, listErr)
			}
			if se.Status.Code != 410 || se.Status.ResourceVersion != "7" || se.Status.Details == nil || se.Status.Details.RetryAfterSeconds != 2 {
				t.Errorf("%s, %s ListStream: Status %+v", ct, name, se.Status)
			}
		}
	}
}
