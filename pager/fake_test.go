package pager

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
)

// The tests in this file list ConfigMaps from the fake API server over
// real HTTP, with its faults, through the typed (protobuf), dynamic
// (JSON) and metadata-only resources, and compare what the pager hands
// over with the server's snapshot.

const seeded, pageSize = 23, 5 // 5 pages

// param is what a test over every kind of resource varies.
type param struct {
	readAhead int
	policy    ExpiredPolicy
	tls       bool
}

// kindTests is one test instantiated for each kind of resource.
type kindTests struct {
	typed    func(*testing.T, *cluster, ListFunc[*corev1.ConfigMap], param)
	dynamic  func(*testing.T, *cluster, ListFunc[*unstructured.Unstructured], param)
	metadata func(*testing.T, *cluster, ListFunc[obj], param)
}

// run runs each kind's test against a cluster of its own.
func (k kindTests) run(t *testing.T, p param) {
	t.Run("typed", func(t *testing.T) {
		cl := startCluster(t, p.tls, seeded, client.Config{})
		k.typed(t, cl, cl.typed().List, p)
	})
	t.Run("dynamic", func(t *testing.T) {
		cl := startCluster(t, p.tls, seeded, client.Config{})
		k.dynamic(t, cl, cl.dynamic().List, p)
	})
	t.Run("metadata", func(t *testing.T) {
		cl := startCluster(t, p.tls, seeded, client.Config{})
		k.metadata(t, cl, cl.metadata().List, p)
	})
}

func TestFakeListIsOneSnapshot(t *testing.T) {
	for _, p := range []param{{readAhead: ReadAheadOff}, {readAhead: 1}, {readAhead: 3}, {readAhead: 1, tls: true}} {
		name := readAheadName(p.readAhead)
		if p.tls {
			name += "/http2"
		}
		t.Run(name, func(t *testing.T) {
			kindTests{testSnapshot[*corev1.ConfigMap], testSnapshot[*unstructured.Unstructured], testSnapshot[obj]}.run(t, p)
		})
	}
}

// testSnapshot changes the collection after the first page: the pages
// still show the state at the first page's resourceVersion.
func testSnapshot[T client.Object](t *testing.T, cl *cluster, list ListFunc[T], p param) {
	want := snapshot(t, list, "", client.ListOptions{})
	rv := cl.srv.CurrentResourceVersion()
	rec := &recorded[T]{list: list, after: func(call int) {
		if call == 0 {
			cl.mutate(t)
		}
	}}
	pg := mustNew(t, rec.List, Options{PageSize: pageSize, ReadAhead: p.readAhead})
	got, err := collectKeys(t.Context(), pg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-snapshot +pager):\n%s", diff)
	}
	if diff := cmp.Diff(snapshot(t, list, rv, client.ListOptions{}), got); diff != "" {
		t.Errorf("items (-server's Exact list at %s +pager):\n%s", rv, diff)
	}
	wantSnap := Snapshot{ResourceVersion: rv, Pages: 5, Items: seeded, Complete: true}
	if diff := cmp.Diff(wantSnap, pg.Snapshot()); diff != "" {
		t.Errorf("Snapshot (-want +got):\n%s", diff)
	}
	if n := len(rec.requests()); n != 5 {
		t.Errorf("%d requests, want 5", n)
	}
}

// TestFakeWatchFromSnapshot starts a watch at the list's resourceVersion
// and receives exactly the changes made while the list was read.
func TestFakeWatchFromSnapshot(t *testing.T) {
	cl := startCluster(t, false, seeded, client.Config{})
	cms := cl.typed()
	rec := &recorded[*corev1.ConfigMap]{list: cms.List, after: func(call int) {
		if call == 2 {
			cl.mutate(t)
		}
	}}
	p := mustNew(t, rec.List, Options{PageSize: pageSize})
	if _, err := p.ListAll(t.Context()); err != nil {
		t.Fatal(err)
	}
	w, err := cms.Watch(t.Context(), client.WatchOptions{ResourceVersion: p.Snapshot().ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var got []string
	for len(got) < 3 {
		ev, err := w.Next()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(ev.Type)+" "+ev.Object.Name)
	}
	want := []string{"DELETED cm-000", "MODIFIED cm-015", "ADDED cm-zzz-1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestFakeExpiredContinue(t *testing.T) {
	for _, policy := range []ExpiredPolicy{RestartUnpaged, RestartPaged, ContinueInconsistent, ReturnExpired} {
		t.Run(policy.String(), func(t *testing.T) {
			kindTests{testExpired[*corev1.ConfigMap], testExpired[*unstructured.Unstructured], testExpired[obj]}.run(t, param{policy: policy, readAhead: 1})
		})
	}
}

// testExpired changes the collection after the first page and compacts
// the server's history, so that the second page's continue token expires
// (410 Gone, with a fresh token in the Status).
func testExpired[T client.Object](t *testing.T, cl *cluster, list ListFunc[T], p param) {
	before := snapshot(t, list, "", client.ListOptions{})
	rec := &recorded[T]{list: list, after: func(call int) {
		if call == 0 {
			cl.mutate(t)
			cl.srv.Compact()
		}
	}}
	pg := mustNew(t, rec.List, Options{PageSize: pageSize, ReadAhead: p.readAhead, OnExpired: p.policy})
	got, err := collectKeys(t.Context(), pg)
	after := snapshot(t, list, "", client.ListOptions{})
	firstPage := before[:pageSize]
	var want []string
	var wantLimits []int64
	switch p.policy {
	case RestartUnpaged:
		want = slices.Concat(firstPage, []string{"!restart"}, after)
		wantLimits = []int64{pageSize, pageSize, 0}
	case RestartPaged:
		want = slices.Concat(firstPage, []string{"!restart"}, after)
		wantLimits = []int64{pageSize, pageSize, pageSize, pageSize, pageSize, pageSize, pageSize}
	case ContinueInconsistent:
		// The first page as it was, then the rest as it is now.
		last := firstPage[len(firstPage)-1]
		i, found := slices.BinarySearch(after, last)
		if found {
			i++
		}
		want = slices.Concat(firstPage, after[i:])
		wantLimits = []int64{pageSize, pageSize, pageSize, pageSize, pageSize, pageSize}
	case ReturnExpired:
		want = firstPage
		wantLimits = []int64{pageSize, pageSize}
	}
	if p.policy == ReturnExpired {
		if !errors.Is(err, client.ErrExpired) {
			t.Fatalf("error %v, want expired", err)
		}
	} else if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	var limits []int64
	for _, o := range rec.requests() {
		limits = append(limits, o.Limit)
	}
	if diff := cmp.Diff(wantLimits, limits); diff != "" {
		t.Errorf("request limits (-want +got):\n%s", diff)
	}
	s := pg.Snapshot()
	switch p.policy {
	case RestartUnpaged, RestartPaged:
		if s.ResourceVersion != cl.srv.CurrentResourceVersion() || s.Restarts != 1 || s.Inconsistent || !s.Complete {
			t.Errorf("Snapshot %+v after a restart at %s", s, cl.srv.CurrentResourceVersion())
		}
		if diff := cmp.Diff(snapshot(t, list, s.ResourceVersion, client.ListOptions{}), got[pageSize+1:]); diff != "" {
			t.Errorf("items after the restart (-server's Exact list +pager):\n%s", diff)
		}
	case ContinueInconsistent:
		if !s.Inconsistent || s.Restarts != 0 || !s.Complete {
			t.Errorf("Snapshot %+v", s)
		}
	}

	// ListAll under the same policy returns the new state (or the error).
	rec = &recorded[T]{list: list, after: rec.after}
	all, err := mustNew(t, rec.List, Options{PageSize: pageSize, OnExpired: p.policy}).ListAll(t.Context())
	switch p.policy {
	case ReturnExpired:
		if !errors.Is(err, client.ErrExpired) {
			t.Errorf("ListAll: error %v, want expired", err)
		}
	case ContinueInconsistent:
		if err != nil {
			t.Error(err)
		}
	default:
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(snapshot(t, list, "", client.ListOptions{}), keys(all.Items)); diff != "" {
			t.Errorf("ListAll after a restart (-server +pager):\n%s", diff)
		}
	}
}

// TestFakeFailuresBetweenPages makes the server answer 429 or 5xx to the
// requests following the first page: the client retries them and the
// list is whole; when the failures outlast the client's retries, the
// error ends the list.
func TestFakeFailuresBetweenPages(t *testing.T) {
	tests := []struct {
		code     int
		failures int
		wantErr  error
	}{
		{http.StatusTooManyRequests, 3, nil},
		{http.StatusInternalServerError, 2, nil},
		{http.StatusServiceUnavailable, 2, nil},
		{http.StatusGatewayTimeout, 1, nil},
		{http.StatusServiceUnavailable, 50, client.ErrServiceUnavailable},
		{http.StatusTooManyRequests, 50, client.ErrTooManyRequests},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_x%d", tt.code, tt.failures), func(t *testing.T) {
			cl := startCluster(t, false, seeded, client.Config{Retry: client.RetryPolicy{MaxAttempts: 5}})
			cms := cl.typed()
			want := snapshot(t, cms.List, "", client.ListOptions{})
			rec := &recorded[*corev1.ConfigMap]{list: cms.List, after: func(call int) {
				if call == 1 {
					cl.srv.Faults().FailNext(tt.failures, tt.code, 0)
				}
			}}
			got, err := collectKeys(t.Context(), mustNew(t, rec.List, Options{PageSize: pageSize}))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			lists, _ := cl.cut.counts()
			if tt.wantErr != nil {
				if diff := cmp.Diff(want[:2*pageSize], got); diff != "" {
					t.Errorf("items before the error (-want +got):\n%s", diff)
				}
				if len(rec.requests()) != 3 || lists != 1+2+5 { // seeding lists nothing; snapshot, two pages, five tries
					t.Errorf("%d pages asked for, %d list requests served", len(rec.requests()), lists)
				}
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("items (-snapshot +pager):\n%s", diff)
			}
			if len(rec.requests()) != 5 || lists != 1+5+tt.failures {
				t.Errorf("%d pages asked for, %d list requests served; want 5 and %d", len(rec.requests()), lists, 1+5+tt.failures)
			}
		})
	}
}

// TestFakeDroppedConnection breaks the responses to continue requests
// midway (HTTP/1.1 connection closed, HTTP/2 stream reset). The client
// repeats such a GET itself; with its retries off, the pager asks for the
// same page again. Either way the list is whole.
func TestFakeDroppedConnection(t *testing.T) {
	tests := []struct {
		name          string
		tls           bool
		cuts          int
		retries       int
		clientRetries bool
		wantErr       bool
	}{
		{"http1 once", false, 1, 0, false, false},
		{"http1 three times", false, 3, 0, false, false},
		{"http2 once", true, 1, 0, false, false},
		{"http1 more than the retries", false, 3, 2, false, true},
		{"http1 three times, repeated by the client", false, 3, 0, true, false},
		{"http2 three times, repeated by the client", true, 3, 0, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := client.Config{Retry: client.RetryPolicy{MaxAttempts: 1}}
			if tt.clientRetries {
				cfg.Retry = client.RetryPolicy{MinWait: time.Millisecond}
			}
			cl := startCluster(t, tt.tls, seeded, cfg)
			cms := cl.typed()
			want := snapshot(t, cms.List, "", client.ListOptions{})
			rec := &recorded[*corev1.ConfigMap]{list: cms.List, after: func(call int) {
				if call == 0 {
					cl.cut.cutNext(tt.cuts)
				}
			}}
			got, err := collectKeys(t.Context(), mustNew(t, rec.List, Options{PageSize: pageSize, PageRetries: tt.retries}))
			_, broken := cl.cut.counts()
			if broken != tt.cuts {
				t.Errorf("%d responses broken, want %d", broken, tt.cuts)
			}
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "page 2") {
					t.Fatalf("error %v, want one about page 2", err)
				}
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Errorf("error %v, want one matching io.ErrUnexpectedEOF", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("items (-snapshot +pager):\n%s", diff)
			}
			wantRequests := 5 + tt.cuts // pages, and a page asked for again per cut
			if tt.clientRetries {
				wantRequests = 5 // the client repeated them; the pager saw none
			}
			if n := len(rec.requests()); n != wantRequests {
				t.Errorf("%d requests, want %d", n, wantRequests)
			}
		})
	}
}
