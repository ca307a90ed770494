package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// ListTable and GetTable check what is not a Table as List and Get check
// it: before, a ConfigMap table was made of a Secret or a SecretList, a
// list's table of a single object and an object's of a list, and a Table
// of another apiVersion than the one asked for was taken as one.
func TestTableAnswersAreChecked(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		list       bool
		want       error  // nil: accepted
		wantMsg    string // in the error
	}{
		{"list: a Secret", `{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s"}}`, true, ErrMalformed, "want a list"},
		{"list: a SecretList", `{"kind":"SecretList","apiVersion":"v1","items":[{"metadata":{"name":"s"}}]}`, true, ErrMalformed, "SecretList"},
		{"list: no kind", `{}`, true, ErrMalformed, "want a list"},
		{"list: a Table of v1", `{"kind":"Table","apiVersion":"v1","rows":[{"cells":["x"]}]}`, true, ErrMalformed, "meta.k8s.io/v1"},
		{"list: a Status", `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcd is sad","code":500}`, true, nil, "etcd is sad"},
		{"list: a ConfigMapList", `{"kind":"ConfigMapList","apiVersion":"v1","items":[{"metadata":{"name":"c"}}]}`, true, nil, ""},
		{"list: a Table", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[{"name":"Name","type":"string"}],"rows":[{"cells":["c"]}]}`, true, nil, ""},
		// A Table's cells are as wide as its columns (meta/v1 Table): a
		// row of another width would make a printer index past its
		// cells, or print a cell under another column's name.
		{"list: a row wider than the columns", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[{"name":"Name","type":"string"}],"rows":[{"cells":["c","extra"]}]}`, true, ErrMalformed, "row 0 has 2 cells, want 1"},
		{"list: a row narrower than the columns", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[{"name":"Name","type":"string"},{"name":"Age","type":"string"}],"rows":[{"cells":["c","1d"]},{"cells":["d"]}]}`, true, ErrMalformed, "row 1 has 1 cells, want 2"},
		{"get: a row wider than the columns", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[],"rows":[{"cells":["c"]}]}`, false, ErrMalformed, "row 0 has 1 cells, want 0"},
		{"list: rows as wide as the columns", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[{"name":"Name","type":"string"},{"name":"Age","type":"string"}],"rows":[{"cells":["c","1d"]}]}`, true, nil, ""},
		{"get: a Secret", `{"kind":"Secret","apiVersion":"v1","metadata":{"name":"s"}}`, false, ErrMalformed, "Secret"},
		{"get: a ConfigMapList", `{"kind":"ConfigMapList","apiVersion":"v1","items":[{"metadata":{"name":"c"}}]}`, false, ErrMalformed, "want an object"},
		{"get: a ConfigMap", `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"}}`, false, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newServer(t, reply(200, "application/json", []byte(tc.body)))
			cms := For[*corev1.ConfigMap](c).Namespace("d")
			var rows int
			var err error
			if tc.list {
				tbl, lerr := cms.ListTable(context.Background(), ListOptions{})
				if lerr == nil {
					rows = len(tbl.Rows)
				}
				err = lerr
			} else {
				tbl, gerr := cms.GetTable(context.Background(), "c", GetOptions{})
				if gerr == nil {
					rows = len(tbl.Rows)
				}
				err = gerr
			}
			switch {
			case tc.wantMsg == "etcd is sad":
				var se *StatusError
				if !errors.As(err, &se) || se.Status.Code != 500 {
					t.Fatalf("%d rows, %v; want the Status as a *StatusError", rows, err)
				}
			case tc.want != nil:
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.wantMsg) {
					t.Fatalf("%d rows, %v; want %v naming %q", rows, err, tc.want, tc.wantMsg)
				}
			case err != nil || rows != 1:
				t.Fatalf("%d rows, %v; want a table of one row", rows, err)
			}
		})
	}
}
