package fake

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/codec"
)

// TestConcurrentWatchersSeeTheHistory runs writers and watchers at once
// and checks that every watcher saw exactly the committed history of its
// resource, in order: no lost, duplicated or reordered event.
func TestConcurrentWatchersSeeTheHistory(t *testing.T) {
	const writers, watchers, writesEach = 6, 12, 60
	s, c := newTestServer(t, Options{})
	start := s.CurrentResourceVersion()

	type ev struct{ Type, Name, RV string }
	results := make([][]ev, watchers)
	errs := make(chan error, watchers+writers*writesEach)
	var opened, done sync.WaitGroup
	opened.Add(watchers)
	done.Add(watchers)
	for i := range watchers {
		accept := codec.MediaTypeJSON
		if i%2 == 1 {
			accept = codec.MediaTypeProtobuf
		}
		go func() {
			defer done.Done()
			resp, err := c.hc.Do(c.request("GET", "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="+start, accept, ""))
			opened.Done()
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			dec, err := codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, codec.WatchOptions{})
			if err != nil {
				errs <- err
				return
			}
			for {
				typ, cm, err := nextObject(dec)
				if err != nil {
					errs <- fmt.Errorf("watcher %d: %w", i, err)
					return
				}
				results[i] = append(results[i], ev{typ, cm.Name, cm.ResourceVersion})
				if cm.Name == "end" {
					return
				}
			}
		}()
	}
	opened.Wait()

	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for i := range writesEach {
				name := "w" + strconv.Itoa(w) + "-" + strconv.Itoa(rng.IntN(5))
				var req *http.Request
				switch rng.IntN(3) {
				case 0:
					req = c.request("POST", "/api/v1/namespaces/default/configmaps", "", `{"metadata":{"name":"`+name+`"}}`)
				case 1:
					req = c.request("PATCH", "/api/v1/namespaces/default/configmaps/"+name, "", `{"data":{"i":"`+strconv.Itoa(i)+`"}}`)
					req.Header.Set("Content-Type", "application/merge-patch+json")
				default:
					req = c.request("DELETE", "/api/v1/namespaces/default/configmaps/"+name, "", "")
				}
				resp, err := c.hc.Do(req)
				if err != nil {
					errs <- err
					return
				}
				_ = resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	c.createCM("end")
	done.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	var want []ev
	from, _ := strconv.ParseUint(start, 10, 64)
	cursor, err := s.store.CursorAfter(s.lookup("", "v1", "configmaps"), from)
	if err != nil {
		t.Fatal(err)
	}
	history, _, _, err := s.store.Since(cursor)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range history {
		if ch.Obj.Res.Kind.Resource == "configmaps" {
			want = append(want, ev{ch.Type, ch.Obj.Name, strconv.FormatUint(ch.RV, 10)})
		}
	}
	if len(want) < writers*writesEach/3 {
		t.Fatalf("only %d writes committed", len(want))
	}
	for i, got := range results {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("watcher %d (-history +seen):\n%s", i, diff)
		}
	}
}

// TestListsDuringUpdates lists while objects are updated: every list is
// one consistent snapshot (no object newer than the list's
// resourceVersion), and under -race no write touches a snapshot being
// served.
func TestListsDuringUpdates(t *testing.T) {
	s, c := newTestServer(t, Options{})
	for i := range 20 {
		c.createCM(fmt.Sprintf("cm-%02d", i))
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			c.mustDo(http.StatusOK, "PUT", fmt.Sprintf("/api/v1/namespaces/default/configmaps/cm-%02d", i%20),
				fmt.Sprintf(`{"metadata":{"name":"cm-%02d"},"data":{"i":"%d"}}`, i%20, i))
		}
	})
	for range 60 {
		_, body := c.do("GET", "/api/v1/namespaces/default/configmaps", codec.MediaTypeJSON, "")
		var l struct {
			Metadata struct{ ResourceVersion string }
			Items    []struct {
				Metadata struct{ ResourceVersion string }
			}
		}
		if err := json.Unmarshal(body, &l); err != nil {
			t.Fatal(err)
		}
		listRV, _ := strconv.ParseUint(l.Metadata.ResourceVersion, 10, 64)
		for _, it := range l.Items {
			if rv, _ := strconv.ParseUint(it.Metadata.ResourceVersion, 10, 64); rv > listRV {
				t.Fatalf("list at rv %d holds an object at rv %d", listRV, rv)
			}
		}
	}
	close(stop)
	wg.Wait()
	_ = s
}
