package client

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// WatchTable on the fake over real HTTP: a streaming list's initial
// rows, its end bookmark, then live changes, each one row of the
// ConfigMap printer's columns with the object's resourceVersion.
func TestWatchTableOnTheFake(t *testing.T) {
	checkNoLeaks(t)
	_, c, rec := startFakeWire(t, wireOptions{})
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	ctx := t.Context()
	first, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Data: map[string]string{"k": "v"}}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	w, err := cms.WatchTable(ctx, WatchOptions{SendInitialEvents: &yes, AllowWatchBookmarks: true, ResourceVersionMatch: MatchNotOlderThan})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	reqs := rec.requests()
	if got := reqs[len(reqs)-1]; !strings.Contains(got, "watch=true") {
		t.Errorf("request %q", got)
	}
	ev, err := w.Next()
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type != Added || ev.ResourceVersion != first.ResourceVersion || len(ev.Table.ColumnDefinitions) == 0 || ev.Table.ColumnDefinitions[0].Name != "Name" || fmt.Sprint(ev.Table.Rows[0].Cells[:2]) != "[a 1]" {
		t.Errorf("first event %+v, want ADDED a with the printer's columns (Name, Data, Age)", ev)
	}
	ev, err = w.Next()
	if err != nil || ev.Type != Bookmark || !ev.InitialEventsEnd {
		t.Fatalf("second event %+v, %v; want the initial-events-end bookmark", ev, err)
	}
	second, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b"}}, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ev, err = w.Next()
	if err != nil || ev.Type != Added || ev.ResourceVersion != second.ResourceVersion || fmt.Sprint(ev.Table.Rows[0].Cells[:2]) != "[b 0]" {
		t.Fatalf("third event %+v, %v; want ADDED b", ev, err)
	}
	w.Close()
	if _, err := w.Next(); !errors.Is(err, ErrWatchClosed) {
		t.Errorf("Next after Close: %v", err)
	}
}

// Events a server should not send as Table events are refused, and a
// watch of a resource the server cannot print ends with 406.
func TestWatchTableRefusals(t *testing.T) {
	fixture, err := os.ReadFile("testdata/watch-table/configmaps.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body string
		code       int
		want       error
		msg        string
	}{
		{"kube-apiserver's events", string(fixture), 200, io.EOF, ""},
		{"a plain object", `{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"}}}`, 200, ErrMalformed, "want a meta.k8s.io/v1 Table"},
		{"two rows", `{"type":"ADDED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[{"cells":["a"]},{"cells":["b"]}]}}`, 200, ErrMalformed, "2 rows"},
		// Only the first event carries the columns; every row is as wide.
		{"a row wider than the first event's columns", `{"type":"ADDED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[{"name":"Name","type":"string"}],"rows":[{"cells":["a"]}]}}
{"type":"MODIFIED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[{"cells":["a","extra"]}]}}`, 200, ErrMalformed, "row 0 has 2 cells, want 1"},
		{"a row narrower than its columns", `{"type":"ADDED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[{"name":"Name","type":"string"},{"name":"Age","type":"string"}],"rows":[{"cells":["a"]}]}}`, 200, ErrMalformed, "row 0 has 1 cells, want 2"},
		{"unknown type", `{"type":"RENAMED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[{"cells":["a"]}]}}`, 200, ErrMalformed, "RENAMED"},
		{"error event", `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","message":"too old resource version: 1 (5)","code":410}}`, 200, ErrExpired, "too old"},
		{"cannot print", `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable","message":"only the following media types are accepted: application/json","code":406}`, 406, ErrNotAcceptable, "only the following"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				if got := r.Header.Get("Accept"); got != acceptTableOnly {
					t.Errorf("Accept %q", got)
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.code)
				io.WriteString(w, tc.body)
			})
			w, err := For[*corev1.ConfigMap](c).Namespace("default").WatchTable(t.Context(), WatchOptions{})
			var seen []string
			for err == nil {
				var ev TableEvent
				if ev, err = w.Next(); err == nil {
					seen = append(seen, fmt.Sprintf("%s %s %v %v", ev.Type, ev.ResourceVersion, ev.InitialEventsEnd, ev.Table.Rows[0].Cells[0]))
				}
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("watch ended with %v, want %v saying %q", err, tc.want, tc.msg)
			}
			if tc.want == io.EOF {
				if got, want := strings.Join(seen, "; "), "ADDED 200 false a; ADDED 201 false b; BOOKMARK 202 true ; DELETED 205 false b"; got != want {
					t.Errorf("events %s\nwant   %s", got, want)
				}
			}
		})
	}
}
