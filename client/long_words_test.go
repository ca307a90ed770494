package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// Names the server picks (an event type, a kind, an apiVersion) are shown
// in errors cut short, as the Status message is: a hostile answer must
// not turn into a megabyte error that every retry logs again. Before,
// each of these errors held the whole 1 MiB name.
func TestLongServerNamesAreCutInErrors(t *testing.T) {
	long := strings.Repeat("X", 1<<20)
	pod := func(kind, apiVersion string) string {
		return `{"kind":"` + kind + `","apiVersion":"` + apiVersion + `","metadata":{"name":"web-1"}}`
	}
	watches := map[string]string{
		"event type":           `{"type":"` + long + `","object":` + pod("Pod", "v1") + `}`,
		"event object kind":    `{"type":"ADDED","object":` + pod(long, "v1") + `}`,
		"event object version": `{"type":"ADDED","object":` + pod("Pod", long) + `}`,
	}
	for name, event := range watches {
		t.Run("watch "+name, func(t *testing.T) {
			c, _ := newServerConfig(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(event + "\n"))
			})
			w, err := For[*corev1.Pod](c).Namespace("fixtures").Watch(context.Background(), WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.Next()
			checkShortMalformed(t, err)
		})
	}
	answers := map[string]string{
		"get kind":          pod(long, "v1"),
		"get version":       pod("Pod", long),
		"table kind":        pod(long, "v1"),
		"table of version":  `{"kind":"Table","apiVersion":"` + long + `","rows":[]}`,
		"table of a list":   `{"kind":"` + long + `List","apiVersion":"v1","items":[]}`,
		"table kind, short": pod("Pod", long),
	}
	for name, body := range answers {
		t.Run(name, func(t *testing.T) {
			c, _ := newServerConfig(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(body))
			})
			pods := For[*corev1.Pod](c).Namespace("fixtures")
			var err error
			if strings.HasPrefix(name, "table") {
				_, err = pods.GetTable(context.Background(), "web-1", GetOptions{})
			} else {
				_, err = pods.Get(context.Background(), "web-1", GetOptions{})
			}
			checkShortMalformed(t, err)
		})
	}
}

func checkShortMalformed(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrMalformed) {
		t.Errorf("err = %.300v, want ErrMalformed", err)
	}
	if err != nil && len(err.Error()) > 1024 {
		t.Errorf("error of %d bytes: %.300s...", len(err.Error()), err.Error())
	}
}
