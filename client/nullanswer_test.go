package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// An answer that is a bare null is refused wherever an object or a list
// was asked for; the decoders alone read it as an empty object, and a
// dynamic resource (whose kind is not checked) returned that with no
// error.
func TestNullAnswerIsRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		contentType string
		body        []byte
	}{
		"json":                 {codec.MediaTypeJSON, []byte(" null\n")},
		"cbor":                 {codec.MediaTypeCBOR, []byte{0xd9, 0xd9, 0xf7, 0xf6}},
		"cbor undefined":       {codec.MediaTypeCBOR, []byte{0xf7}},
		"cbor without its tag": {codec.MediaTypeCBOR, []byte{0xf6}},
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				w.Write(tc.body)
			})
			ctx := context.Background()
			check := func(op string, err error) {
				t.Helper()
				if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "null") {
					t.Errorf("%s: %v, want an error matching ErrMalformed that says null", op, err)
				}
			}
			dyn := Dynamic(c, widgets)
			_, err := dyn.Get(ctx, "a", GetOptions{})
			check("dynamic Get", err)
			_, err = dyn.List(ctx, ListOptions{})
			check("dynamic List", err)
			_, err = dyn.GetTable(ctx, "a", GetOptions{})
			check("dynamic GetTable", err)
			_, err = For[*corev1.ConfigMap](c).Namespace("d").Get(ctx, "a", GetOptions{})
			check("typed Get", err)
			_, err = For[*corev1.ConfigMap](c).List(ctx, ListOptions{})
			check("typed List", err)
		})
	}
}
