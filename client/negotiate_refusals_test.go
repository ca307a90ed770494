package client

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// gatedCBORServer answers like kube-apiserver whose CBORServingAndStorage
// gate is read at each request: gate on, CBOR to an Accept offering it
// and CBOR bodies taken; gate off, JSON and a 415 to a CBOR body. While
// refuseAccept is set it stands for a proxy that answers 406 to an
// Accept naming CBOR, while refuseBody is set for one that answers 415 to
// a CBOR body whatever the gate. It counts the 415s and 406s it sent.
type gatedCBORServer struct {
	gateOn, refuseAccept, refuseBody atomic.Bool
	refused415, refused406           atomic.Int32
}

func (s *gatedCBORServer) start(t *testing.T) (*Client, *recorder, func()) {
	objCBOR, objJSON := load(t, "cbor/widget-rich.cbor"), load(t, "cbor/widget-rich.json")
	return newPipeServer(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
		offersCBOR := strings.Contains(r.Header.Get("Accept"), "cbor")
		switch {
		case offersCBOR && s.refuseAccept.Load():
			s.refused406.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotAcceptable)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable","code":406}`))
		case r.Header.Get("Content-Type") == codec.MediaTypeCBOR && (!s.gateOn.Load() || s.refuseBody.Load()):
			s.refused415.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnsupportedMediaType)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"UnsupportedMediaType","code":415}`))
		case offersCBOR && s.gateOn.Load():
			serve(w, objCBOR)
		default:
			serve(w, objJSON)
		}
	})
}

// writes sends n updates of obj and returns the requests they took and
// the Content-Type of the last one sent.
func writes(t *testing.T, res *Resource[*unstructured.Unstructured], rec *recorder, obj *unstructured.Unstructured, n int) (requests int, last string) {
	t.Helper()
	before := rec.count()
	for range n {
		if _, err := res.Update(context.Background(), obj, UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	req, _ := rec.last(t)
	return rec.count() - before, req.Header.Get("Content-Type")
}

// The gate turned off and on again under a writer that reads nothing:
// the off costs one 415, and the first answer in CBOR after the gate is
// back on puts the writes back on CBOR, with no wait.
func TestCBORGateFlipsUnderWrites(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s gatedCBORServer
		s.gateOn.Store(true)
		c, rec, stop := s.start(t)
		defer stop()
		res := Dynamic(c, widgets).Namespace("default")
		obj, err := res.Get(context.Background(), "rich", GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for round := range 2 {
			if n, ct := writes(t, res, rec, obj, 1); n != 1 || ct != codec.MediaTypeCBOR {
				t.Fatalf("round %d, write with the gate on: %d requests, last %q; want 1, CBOR", round, n, ct)
			}
			s.gateOn.Store(false)
			if n, ct := writes(t, res, rec, obj, 1); n != 2 || ct != codec.MediaTypeJSON {
				t.Fatalf("round %d, first write with the gate off: %d requests, last %q; want 2 (415, JSON)", round, n, ct)
			}
			if n, ct := writes(t, res, rec, obj, 3); n != 3 || ct != codec.MediaTypeJSON {
				t.Fatalf("round %d, writes with the gate off: %d requests, last %q; want 3, JSON", round, n, ct)
			}
			s.gateOn.Store(true)
			// This one is sent as JSON; its answer comes in CBOR.
			if n, ct := writes(t, res, rec, obj, 1); n != 1 || ct != codec.MediaTypeJSON {
				t.Fatalf("round %d, first write with the gate on again: %d requests, last %q; want 1, JSON", round, n, ct)
			}
		}
		if got := s.refused415.Load(); got != 2 {
			t.Errorf("%d 415s, want 2 (one per time the gate went off)", got)
		}
	})
}

// A server that serves CBOR but answers 415 to a CBOR body (a proxy in
// front of it): the refusal is not kept for the client's life; writes
// stay JSON for refusalHold, then one write offers CBOR again, which
// sticks once the body is taken and is held again if it is not.
func TestCBORWriteRefusalExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s gatedCBORServer
		s.gateOn.Store(true)
		s.refuseBody.Store(true)
		c, rec, stop := s.start(t)
		defer stop()
		res := Dynamic(c, widgets).Namespace("default")
		obj, err := res.Get(context.Background(), "rich", GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if n, ct := writes(t, res, rec, obj, 1); n != 2 || ct != codec.MediaTypeJSON {
			t.Fatalf("first write: %d requests, last %q; want 2 (415, JSON)", n, ct)
		}
		time.Sleep(refusalHold / 2)
		if n, ct := writes(t, res, rec, obj, 3); n != 3 || ct != codec.MediaTypeJSON {
			t.Fatalf("writes within the hold: %d requests, last %q; want 3, JSON", n, ct)
		}

		// Past the hold, still refused: one probe costs one 415, and the
		// refusal holds again.
		time.Sleep(refusalHold)
		if n, ct := writes(t, res, rec, obj, 3); n != 4 || ct != codec.MediaTypeJSON {
			t.Fatalf("writes after the hold, still refused: %d requests, last %q; want 4 (one probe)", n, ct)
		}
		if got := s.refused415.Load(); got != 2 {
			t.Errorf("%d 415s, want 2", got)
		}

		// CBOR bodies are taken again: JSON until the hold ends, then
		// CBOR from the first write on.
		s.refuseBody.Store(false)
		if n, ct := writes(t, res, rec, obj, 1); n != 1 || ct != codec.MediaTypeJSON {
			t.Fatalf("write within the hold: %d requests, last %q; want 1, JSON", n, ct)
		}
		time.Sleep(refusalHold + time.Second)
		for i := range 3 {
			if n, ct := writes(t, res, rec, obj, 1); n != 1 || ct != codec.MediaTypeCBOR {
				t.Fatalf("write %d after the hold: %d requests, %q; want 1, CBOR", i, n, ct)
			}
		}
		if got := s.refused415.Load(); got != 2 {
			t.Errorf("%d 415s, want still 2", got)
		}
	})
}

// When the hold ends under concurrent writers, one of them probes: the
// others stay on JSON, so a server still refusing costs one 415.
func TestCBORWriteRefusalOneProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s gatedCBORServer
		s.gateOn.Store(true)
		c, rec, stop := s.start(t)
		defer stop()
		res := Dynamic(c, widgets).Namespace("default")
		obj, err := res.Get(context.Background(), "rich", GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s.refuseBody.Store(true)
		writes(t, res, rec, obj, 1)
		time.Sleep(refusalHold + time.Second)
		const writers = 8
		before := rec.count()
		var wg sync.WaitGroup
		for range writers {
			wg.Go(func() {
				if _, err := res.Update(context.Background(), obj, UpdateOptions{}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n := rec.count() - before; n != writers+1 {
			t.Errorf("%d concurrent writes after the hold took %d requests, want %d (one probe)", writers, n, writers+1)
		}
		if got := s.refused415.Load(); got != 2 {
			t.Errorf("%d 415s, want 2", got)
		}
	})
}

// Writes follow the reads both ways: a read answered in JSON puts them on
// JSON (no 415 spent when the gate went off), a read answered in CBOR
// puts them back on CBOR.
func TestCBORWritesFollowReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s gatedCBORServer
		s.gateOn.Store(true)
		c, rec, stop := s.start(t)
		defer stop()
		res := Dynamic(c, widgets).Namespace("default")
		ctx := context.Background()
		for round := range 2 {
			s.gateOn.Store(false)
			obj, err := res.Get(ctx, "rich", GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if n, ct := writes(t, res, rec, obj, 2); n != 2 || ct != codec.MediaTypeJSON {
				t.Fatalf("round %d, gate off: %d requests, last %q; want 2, JSON", round, n, ct)
			}
			s.gateOn.Store(true)
			if obj, err = res.Get(ctx, "rich", GetOptions{}); err != nil {
				t.Fatal(err)
			}
			if n, ct := writes(t, res, rec, obj, 2); n != 2 || ct != codec.MediaTypeCBOR {
				t.Fatalf("round %d, gate on: %d requests, last %q; want 2, CBOR", round, n, ct)
			}
		}
		if got := s.refused415.Load(); got != 0 {
			t.Errorf("%d 415s, want none", got)
		}
	})
}

// A 406 to an Accept offering CBOR keeps reads on JSON for refusalHold,
// then one read offers CBOR again.
func TestCBORNotAcceptableExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s gatedCBORServer
		s.gateOn.Store(true)
		s.refuseAccept.Store(true)
		c, rec, stop := s.start(t)
		defer stop()
		res := Dynamic(c, widgets).Namespace("default")
		ctx := context.Background()
		get := func() (requests int, accept string) {
			t.Helper()
			before := rec.count()
			if _, err := res.Get(ctx, "rich", GetOptions{}); err != nil {
				t.Fatal(err)
			}
			req, _ := rec.last(t)
			return rec.count() - before, req.Header.Get("Accept")
		}
		if n, _ := get(); n != 2 {
			t.Fatalf("read refused with 406: %d requests, want 2", n)
		}
		if n, accept := get(); n != 1 || accept != codec.MediaTypeJSON {
			t.Fatalf("read within the hold: %d requests, Accept %q", n, accept)
		}
		time.Sleep(refusalHold + time.Second)
		if n, _ := get(); n != 2 {
			t.Fatalf("probe still refused: %d requests, want 2", n)
		}
		if n, accept := get(); n != 1 || accept != codec.MediaTypeJSON {
			t.Fatalf("read after a refused probe: %d requests, Accept %q", n, accept)
		}
		s.refuseAccept.Store(false)
		time.Sleep(refusalHold + time.Second)
		for range 2 {
			if n, accept := get(); n != 1 || accept != acceptCBOROrJSON {
				t.Fatalf("read once the proxy takes CBOR: %d requests, Accept %q", n, accept)
			}
		}
		if got := s.refused406.Load(); got != 2 {
			t.Errorf("%d 406s, want 2", got)
		}
	})
}
