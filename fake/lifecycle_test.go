package fake

import (
	"io"
	"net/http"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/codec"
)

// TestCloseEndsWatchesInMemory runs in a synctest bubble, which fails if
// any goroutine the server started is still running when the test ends.
func TestCloseEndsWatchesInMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{})
		c := &tclient{t: t, s: s, hc: s.Client(), url: "http://fake"}
		var bodies []io.ReadCloser
		for range 5 {
			resp, err := c.hc.Do(c.request("GET", "/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true", "", ""))
			if err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, resp.Body)
		}
		s.Close()
		for _, b := range bodies {
			if _, err := io.ReadAll(b); err != nil {
				t.Errorf("watch body after Close: %v", err)
			}
			b.Close()
		}
		if _, err := c.hc.Do(c.request("GET", "/api/v1/namespaces", "", "")); err == nil {
			t.Error("request after Close succeeded")
		}
	})
}

// TestCloseEndsWatchesOverHTTP checks that Close returns (httptest's Close
// waits for every handler) while watches are open.
func TestCloseEndsWatchesOverHTTP(t *testing.T) {
	s := Start(Options{})
	c := &tclient{t: t, s: s, hc: s.Client(), url: s.URL()}
	for range 3 {
		resp, err := c.hc.Do(c.request("GET", "/api/v1/namespaces/default/configmaps?watch=true", "", ""))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
	}
	s.Close()
	s.Close() // idempotent
}

func TestBookmarksAtTheInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, c := newMemServer(t, Options{BookmarkInterval: 10 * time.Second})
		c.createCM("a")
		rv := s.CurrentResourceVersion()
		_, dec := c.watch("resourceVersion="+rv+"&allowWatchBookmarks=true&timeoutSeconds=25", codec.MediaTypeProtobuf)
		start := time.Now()
		var got []string
		for {
			typ, cm, err := nextObject(dec)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, typ+" "+cm.ResourceVersion+" at "+strconv.Itoa(int(time.Since(start)/time.Second))+"s")
			if len(got) == 1 {
				c.createCM("b") // at 10s: the next bookmark carries its version
			}
		}
		next, _ := strconv.Atoi(rv)
		want := []string{
			"BOOKMARK " + rv + " at 10s",
			"ADDED " + strconv.Itoa(next+1) + " at 10s",
			"BOOKMARK " + strconv.Itoa(next+1) + " at 20s",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	})
}

func TestWatchTimeoutSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newMemServer(t, Options{})
		start := time.Now()
		_, dec := c.watch("timeoutSeconds=7", "")
		if _, err := dec.Next(); err != io.EOF {
			t.Fatalf("Next = %v, want EOF", err)
		}
		if d := time.Since(start); d != 7*time.Second {
			t.Errorf("watch lasted %v, want 7s", d)
		}
	})
}

func TestUnknownPathsAndMethods(t *testing.T) {
	_, c := newTestServer(t, Options{})
	tests := []struct {
		method, path string
		code         int
	}{
		{"GET", "/api/v1/nothings", http.StatusNotFound},
		{"GET", "/apis/nope/v1/things", http.StatusNotFound},
		{"GET", "/api/v1/namespaces/default/configmaps/a/b/c", http.StatusNotFound},
		{"POST", "/api/v1/namespaces/default/configmaps/a", http.StatusMethodNotAllowed},
		{"GET", "/api/v1/namespaces/default/nodes", http.StatusNotFound},
		{"POST", "/api/v1/namespaces/missing/configmaps", http.StatusNotFound},
		{"GET", "/version", http.StatusOK},
		{"GET", "/api/v1", http.StatusOK},
		{"GET", "/apis", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			body := ""
			if tt.method == "POST" {
				body = `{"metadata":{"name":"x"}}`
			}
			resp, b := c.do(tt.method, tt.path, "", body)
			if resp.StatusCode != tt.code {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.code, b)
			}
		})
	}
}
