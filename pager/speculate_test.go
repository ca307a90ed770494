package pager

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
)

// With read-ahead, the next page is asked for as soon as an answer's
// continue token is known, and its answer waits for the decode of the
// one before: the server's time overlaps the decode, pages still decode
// one at a time, in order, and no request is wasted.
func TestReadAheadAsksBeforeDecode(t *testing.T) {
	for _, ra := range []int{ReadAheadOff, 1, 3} {
		t.Run(readAheadName(ra), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const serve, decode = 10 * time.Millisecond, 10 * time.Millisecond
				m := &memList{n: 10, hinted: true, serve: serve, decode: decode}
				start := time.Now()
				got, err := collect(t.Context(), mustNew(t, m.list, Options{PageSize: 3, ReadAhead: ra}))
				took := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(objNames(0, 10), got); diff != "" {
					t.Errorf("items (-want +got):\n%s", diff)
				}
				cont := func(tok string) client.ListOptions { return client.ListOptions{Limit: 3, Continue: tok} }
				want := []client.ListOptions{{Limit: 3}, cont("at:3"), cont("at:6"), cont("at:9")}
				if diff := cmp.Diff(want, m.requests()); diff != "" {
					t.Errorf("requests (-want +got):\n%s", diff)
				}
				if m.maxDecoding != 1 || m.canceled != 0 {
					t.Errorf("%d pages decoded at once, %d requests dropped; want 1 and 0", m.maxDecoding, m.canceled)
				}
				// One request at a time: serve, decode, serve, ... Asked
				// early: each request's serving overlaps the decode before.
				sequential := 4 * (serve + decode)
				wantTook := sequential
				if ra > 0 {
					wantTook = serve + 4*decode
				}
				if took != wantTook {
					t.Errorf("the list took %v on the bubble's clock, want %v (one request at a time: %v)", took, wantTook, sequential)
				}
			})
		})
	}
}

// A token that the decoded page contradicts costs one request, dropped
// undecoded; the pages are the ones the decoded tokens lead to.
func TestReadAheadWrongHint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &memList{n: 10, hinted: true, decode: time.Millisecond, hint: func(call int, tok string) string {
			if call == 0 {
				return "at:4"
			}
			return tok
		}}
		got, err := collect(t.Context(), mustNew(t, m.list, Options{PageSize: 3}))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(objNames(0, 10), got); diff != "" {
			t.Errorf("items (-want +got):\n%s", diff)
		}
		cont := func(tok string) client.ListOptions { return client.ListOptions{Limit: 3, Continue: tok} }
		want := []client.ListOptions{{Limit: 3}, cont("at:4"), cont("at:3"), cont("at:6"), cont("at:9")}
		if diff := cmp.Diff(want, m.requests()); diff != "" {
			t.Errorf("requests (-want +got):\n%s", diff)
		}
		if m.canceled != 1 || m.maxDecoding != 1 {
			t.Errorf("%d requests dropped, %d decoded at once; want 1 and 1", m.canceled, m.maxDecoding)
		}
	})
}

// A range that ends early drops the requests sent ahead: nothing is left
// running when it returns (synctest.Test fails on a goroutine of the
// bubble left blocked), and no two pages decoded at once.
func TestReadAheadBreakDropsRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &memList{n: 10, hinted: true, decode: time.Millisecond}
		p := mustNew(t, m.list, Options{PageSize: 3})
		for _, err := range p.Items(t.Context()) {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
		if m.maxDecoding != 1 {
			t.Errorf("%d pages decoded at once", m.maxDecoding)
		}
	})
}
