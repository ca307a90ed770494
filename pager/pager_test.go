package pager

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

func TestInvalidOptionsRejectedByNew(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"match without version", Options{ListOptions: client.ListOptions{ResourceVersionMatch: client.MatchNotOlderThan}}},
		{"exact without version", Options{ListOptions: client.ListOptions{ResourceVersionMatch: client.MatchExact}}},
		{"exact at 0", Options{ListOptions: client.ListOptions{ResourceVersion: "0", ResourceVersionMatch: client.MatchExact}}},
		{"unknown match", Options{ListOptions: client.ListOptions{ResourceVersion: "5", ResourceVersionMatch: "Newest"}}},
		{"continue given", Options{ListOptions: client.ListOptions{Continue: "abc"}}},
		{"negative page size", Options{PageSize: -1}},
		{"negative limit", Options{ListOptions: client.ListOptions{Limit: -5}}},
		{"page size and limit differ", Options{PageSize: 10, ListOptions: client.ListOptions{Limit: 20}}},
		{"negative timeout", Options{ListOptions: client.ListOptions{TimeoutSeconds: -1}}},
		{"bad label selector", Options{ListOptions: client.ListOptions{LabelSelector: client.LabelSelector{}.Equals("bad key!", "x")}}},
		{"unknown policy", Options{OnExpired: ExpiredPolicy(42)}},
		{"negative max expired", Options{MaxExpired: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &memList{n: 10}
			p, err := New(m.list, tt.opts)
			if !errors.Is(err, client.ErrInvalidOptions) || p != nil {
				t.Errorf("New = %v, %v; want nil and an error matching client.ErrInvalidOptions", p, err)
			}
			if n := len(m.requests()); n != 0 {
				t.Errorf("%d requests were sent", n)
			}
		})
	}
}

func TestValidVersionsAreSentOnTheFirstPageOnly(t *testing.T) {
	sel := client.RawSelector("app=web")
	tests := []struct {
		name  string
		opts  client.ListOptions
		first client.ListOptions
	}{
		{"most recent", client.ListOptions{}, client.ListOptions{Limit: 3}},
		{"any", client.ListOptions{ResourceVersion: "0", ResourceVersionMatch: client.MatchNotOlderThan},
			client.ListOptions{ResourceVersion: "0", ResourceVersionMatch: client.MatchNotOlderThan, Limit: 3}},
		{"not older than", client.ListOptions{ResourceVersion: "7", ResourceVersionMatch: client.MatchNotOlderThan},
			client.ListOptions{ResourceVersion: "7", ResourceVersionMatch: client.MatchNotOlderThan, Limit: 3}},
		{"exact", client.ListOptions{ResourceVersion: "100", ResourceVersionMatch: client.MatchExact, LabelSelector: sel, TimeoutSeconds: 9},
			client.ListOptions{ResourceVersion: "100", ResourceVersionMatch: client.MatchExact, LabelSelector: sel, TimeoutSeconds: 9, Limit: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &memList{n: 5}
			opts := tt.opts
			opts.Limit = 3
			got, err := collect(t.Context(), mustNew(t, m.list, Options{ListOptions: opts}))
			if err != nil {
				t.Fatal(err)
			}
			if tt.first.ResourceVersion == "0" {
				// Served from the cache: one page, the limit ignored.
				if diff := cmp.Diff([]client.ListOptions{tt.first}, m.requests()); diff != "" {
					t.Errorf("requests (-want +got):\n%s", diff)
				}
				return
			}
			second := tt.first
			second.ResourceVersion, second.ResourceVersionMatch, second.Continue = "", "", "at:3"
			if diff := cmp.Diff([]client.ListOptions{tt.first, second}, m.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(objNames(0, 5), got); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
		})
	}
}

func TestItemsAndPages(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		opts      Options
		wantLimit int64
		wantPages int
	}{
		{"empty", 0, Options{PageSize: 3}, 3, 1},
		{"one item", 1, Options{PageSize: 3}, 3, 1},
		{"partial last page", 10, Options{PageSize: 3}, 3, 4},
		{"exact multiple", 9, Options{PageSize: 3}, 3, 3},
		{"limit as page size", 9, Options{ListOptions: client.ListOptions{Limit: 3}}, 3, 3},
		{"default page size", 1200, Options{}, DefaultPageSize, 3},
		{"no read-ahead", 10, Options{PageSize: 3, ReadAhead: ReadAheadOff}, 3, 4},
		{"read-ahead 4", 10, Options{PageSize: 2, ReadAhead: 4}, 2, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &memList{n: tt.n}
			p := mustNew(t, m.list, tt.opts)
			got, err := collect(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(objNames(0, tt.n), got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Items (-want +got):\n%s", diff)
			}
			want := Snapshot{ResourceVersion: "100", Pages: tt.wantPages, Items: tt.n, Complete: true}
			if diff := cmp.Diff(want, p.Snapshot()); diff != "" {
				t.Errorf("Snapshot (-want +got):\n%s", diff)
			}
			reqs := m.requests()
			if len(reqs) != tt.wantPages || reqs[0].Limit != tt.wantLimit {
				t.Errorf("%d requests, first limit %d; want %d, %d", len(reqs), reqs[0].Limit, tt.wantPages, tt.wantLimit)
			}

			var pageNames []string
			var index []int
			for pg, err := range p.Pages(t.Context()) {
				if err != nil {
					t.Fatal(err)
				}
				pageNames = append(pageNames, names(pg.Items)...)
				index = append(index, pg.Index)
			}
			if diff := cmp.Diff(objNames(0, tt.n), pageNames, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Pages (-want +got):\n%s", diff)
			}
			if len(index) != tt.wantPages || index[len(index)-1] != tt.wantPages-1 {
				t.Errorf("page indexes %v", index)
			}

			all, err := p.ListAll(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(objNames(0, tt.n), names(all.Items), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ListAll (-want +got):\n%s", diff)
			}
			if all.ResourceVersion != "100" || all.Continue != "" || all.RemainingItemCount != nil {
				t.Errorf("ListAll ListMeta %+v", all.ListMeta)
			}
			if tt.n > 0 && cap(all.Items) != tt.n {
				t.Errorf("ListAll reserved %d items for %d", cap(all.Items), tt.n)
			}
		})
	}
}

func TestProgress(t *testing.T) {
	tests := []struct {
		name string
		m    *memList
		opts client.ListOptions
		want []Progress
	}{
		{"counted", &memList{n: 10}, client.ListOptions{}, []Progress{
			{Pages: 1, Items: 4, Total: 10}, {Pages: 2, Items: 8, Total: 10}, {Pages: 3, Items: 10, Total: 10, Done: true}}},
		{"selectors: no count", &memList{n: 10, noCount: true}, client.ListOptions{}, []Progress{
			{Pages: 1, Items: 4, Total: -1}, {Pages: 2, Items: 8, Total: -1}, {Pages: 3, Items: 10, Total: 10, Done: true}}},
		{"limit ignored at version 0", &memList{n: 10}, client.ListOptions{ResourceVersion: "0"}, []Progress{
			{Pages: 1, Items: 10, Total: 10, Done: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Progress
			p := mustNew(t, tt.m.list, Options{PageSize: 4, ListOptions: tt.opts, Progress: func(pr Progress) { got = append(got, pr) }})
			if _, err := collect(t.Context(), p); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHostileListMeta feeds list metadata no server should send: the
// pager must neither panic nor reserve what a count claims.
func TestHostileListMeta(t *testing.T) {
	tests := []struct {
		name      string
		remaining int64
	}{
		{"huge count", math.MaxInt64},
		{"negative count", -7},
		{"zero count with a token", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &memList{n: 6}
			list := func(ctx context.Context, o client.ListOptions) (*client.List[obj], error) {
				l, err := m.list(ctx, o)
				if err == nil && l.Continue != "" {
					l.RemainingItemCount = &tt.remaining
				}
				return l, err
			}
			var last Progress
			all, err := mustNew(t, list, Options{PageSize: 4, Progress: func(pr Progress) { last = pr }}).ListAll(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(objNames(0, 6), names(all.Items)); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			if cap(all.Items) > maxPrealloc {
				t.Errorf("reserved %d items", cap(all.Items))
			}
			if last.Total != 6 || !last.Done {
				t.Errorf("last progress %+v", last)
			}
		})
	}
}

func TestBadServerAnswers(t *testing.T) {
	page := func(cont, rv string) *client.List[obj] {
		l := &client.List[obj]{Items: []obj{newObj(0, rv)}}
		l.Continue, l.ResourceVersion = cont, rv
		return l
	}
	tests := []struct {
		name string
		opts client.ListOptions
		list ListFunc[obj]
		want []string // items seen before the error
	}{
		{"same continue token again", client.ListOptions{}, func(_ context.Context, o client.ListOptions) (*client.List[obj], error) {
			return page("loop", "5"), nil
		}, []string{objName(0), objName(0)}},
		{"two continue tokens in turn", client.ListOptions{}, func(_ context.Context, o client.ListOptions) (*client.List[obj], error) {
			next := map[string]string{"": "a", "a": "b", "b": "a"}[o.Continue]
			return page(next, "5"), nil
		}, []string{objName(0), objName(0), objName(0)}},
		{"no list and no error", client.ListOptions{}, func(context.Context, client.ListOptions) (*client.List[obj], error) {
			return nil, nil
		}, nil},
		{"exact version not honoured", client.ListOptions{ResourceVersion: "5", ResourceVersionMatch: client.MatchExact},
			func(context.Context, client.ListOptions) (*client.List[obj], error) { return page("", "9"), nil }, nil},
	}
	for _, tt := range tests {
		// hinted: the answers' tokens are also handed over before the
		// decode, so that the pager asks for the next page early.
		for _, hinted := range []bool{false, true} {
			list := tt.list
			if hinted {
				list = func(ctx context.Context, o client.ListOptions) (*client.List[obj], error) {
					l, err := tt.list(ctx, o)
					if l != nil && o.BeforeDecode != nil {
						if err := o.BeforeDecode(l.Continue); err != nil {
							return nil, err
						}
					}
					return l, err
				}
			}
			t.Run(fmt.Sprintf("%s/hinted=%v", tt.name, hinted), func(t *testing.T) {
				got, err := collect(t.Context(), mustNew(t, list, Options{ListOptions: tt.opts}))
				if err == nil {
					t.Fatal("no error")
				}
				t.Log(err)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("items before the error (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestNilListFunc(t *testing.T) {
	if _, err := New[obj](nil, Options{}); !errors.Is(err, client.ErrInvalidOptions) {
		t.Errorf("New(nil) error %v, want one matching client.ErrInvalidOptions", err)
	}
	if _, err := new(Pager[obj]).ListAll(t.Context()); err == nil {
		t.Error("no error from a Pager not made by New")
	}
}

func TestOneListAtATime(t *testing.T) {
	m := &memList{n: 10}
	p := mustNew(t, m.list, Options{PageSize: 3})
	for _, err := range p.Pages(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.ListAll(t.Context()); err == nil {
			t.Fatal("a second list on a busy Pager did not fail")
		}
		break
	}
	if _, err := p.ListAll(t.Context()); err != nil {
		t.Errorf("after the range ended: %v", err)
	}
}

func TestServerErrorEndsTheList(t *testing.T) {
	for _, ra := range []int{ReadAheadOff, 1, 3} {
		t.Run(readAheadName(ra), func(t *testing.T) {
			m := &memList{n: 10, fail: func(call int, _ client.ListOptions) error {
				if call == 2 {
					return statusError(http.StatusForbidden, metav1.StatusReasonForbidden, "pods is forbidden", "")
				}
				return nil
			}}
			got, err := collect(t.Context(), mustNew(t, m.list, Options{PageSize: 3, ReadAhead: ra}))
			if !errors.Is(err, client.ErrForbidden) {
				t.Errorf("error %v, want forbidden", err)
			}
			if diff := cmp.Diff(objNames(0, 6), got); diff != "" {
				t.Errorf("items before the error (-want +got):\n%s", diff)
			}
			if n := len(m.requests()); n != 3 {
				t.Errorf("%d requests after a forbidden page, want 3", n)
			}
		})
	}
}

func readAheadName(n int) string {
	if n < 0 {
		return "readahead=off"
	}
	return "readahead=" + string(rune('0'+n))
}

// TestItemsStopAtCancel: a ctx ended in the loop body ends the iteration
// at the next item with ctx's error, not at the end of the page already
// fetched (a user reported 1,000 items after a cancel at the 750th).
func TestItemsStopAtCancel(t *testing.T) {
	for _, readAhead := range []int{ReadAheadOff, 2} {
		t.Run(readAheadName(readAhead), func(t *testing.T) {
			m := &memList{n: 2000}
			p := mustNew(t, m.list, Options{PageSize: 500, ReadAhead: readAhead})
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			items := 0
			var last error
			for _, err := range p.Items(ctx) {
				if err != nil {
					last = err
					break
				}
				if items++; items == 750 {
					cancel()
				}
			}
			if items != 750 || !errors.Is(last, context.Canceled) {
				t.Errorf("%d items, then %v; want 750 items, then context.Canceled", items, last)
			}
		})
	}
}
