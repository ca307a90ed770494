package pager

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// expireOnce answers the given call with a 410 carrying a fresh token.
func expireOnce(call int, fresh string) func(int, client.ListOptions) error {
	return func(c int, _ client.ListOptions) error {
		if c == call {
			return statusError(http.StatusGone, metav1.StatusReasonExpired, "The provided continue parameter is too old", fresh)
		}
		return nil
	}
}

func TestExpiredPolicies(t *testing.T) {
	first := client.ListOptions{Limit: 3}
	cont := func(tok string) client.ListOptions { return client.ListOptions{Limit: 3, Continue: tok} }
	restarted := append(append(objNames(0, 3), "!restart"), objNames(0, 10)...)
	tests := []struct {
		policy   ExpiredPolicy
		want     []string
		wantErr  error
		wantReqs []client.ListOptions
		wantSnap Snapshot
	}{
		{RestartUnpaged, restarted, nil,
			[]client.ListOptions{first, cont("at:3"), {}},
			Snapshot{ResourceVersion: "100", Pages: 1, Items: 10, Restarts: 1, Complete: true}},
		{RestartPaged, restarted, nil,
			[]client.ListOptions{first, cont("at:3"), first, cont("at:3"), cont("at:6"), cont("at:9")},
			Snapshot{ResourceVersion: "100", Pages: 4, Items: 10, Restarts: 1, Complete: true}},
		{ContinueInconsistent, objNames(0, 10), nil,
			[]client.ListOptions{first, cont("at:3"), cont("at:3"), cont("at:6"), cont("at:9")},
			Snapshot{ResourceVersion: "100", Pages: 4, Items: 10, Inconsistent: true, Complete: true}},
		{ReturnExpired, objNames(0, 3), client.ErrExpired,
			[]client.ListOptions{first, cont("at:3")},
			Snapshot{ResourceVersion: "100", Pages: 1, Items: 3}},
	}
	for _, tt := range tests {
		for _, ra := range []int{ReadAheadOff, 2, 1} {
			// ReadAhead 1 with a list function that hands over continue
			// tokens before decoding: the next page is asked for early.
			hinted := ra == 1
			t.Run(tt.policy.String()+"/"+readAheadName(ra), func(t *testing.T) {
				m := &memList{n: 10, fail: expireOnce(1, "at:3"), hinted: hinted}
				p := mustNew(t, m.list, Options{PageSize: 3, OnExpired: tt.policy, ReadAhead: ra})
				got, err := collect(t.Context(), p)
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error %v, want %v", err, tt.wantErr)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("items (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.wantReqs, m.requests()); diff != "" {
					t.Errorf("requests (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.wantSnap, p.Snapshot()); diff != "" {
					t.Errorf("Snapshot (-want +got):\n%s", diff)
				}

				m = &memList{n: 10, fail: expireOnce(1, "at:3")}
				all, err := mustNew(t, m.list, Options{PageSize: 3, OnExpired: tt.policy}).ListAll(t.Context())
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("ListAll: error %v, want %v", err, tt.wantErr)
				}
				if err == nil {
					if diff := cmp.Diff(objNames(0, 10), names(all.Items)); diff != "" {
						t.Errorf("ListAll (-want +got):\n%s", diff)
					}
				}
			})
		}
	}
}

func TestRestartedPageIsMarked(t *testing.T) {
	m := &memList{n: 10, fail: expireOnce(2, "at:6")}
	var restarted []bool
	for pg, err := range mustNew(t, m.list, Options{PageSize: 3, OnExpired: RestartPaged}).Pages(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		restarted = append(restarted, pg.Restarted)
	}
	want := []bool{false, false, true, false, false, false}
	if diff := cmp.Diff(want, restarted); diff != "" {
		t.Errorf("Page.Restarted (-want +got):\n%s", diff)
	}
}

func TestMaxExpired(t *testing.T) {
	alwaysExpired := func(_ int, o client.ListOptions) error {
		if o.Continue != "" {
			return statusError(http.StatusGone, metav1.StatusReasonExpired, "too old", "")
		}
		return nil
	}
	m := &memList{n: 10, fail: alwaysExpired}
	got, err := collect(t.Context(), mustNew(t, m.list, Options{PageSize: 3, OnExpired: RestartPaged, MaxExpired: 2}))
	if !errors.Is(err, client.ErrExpired) {
		t.Fatalf("error %v, want expired", err)
	}
	want := append(append(append(objNames(0, 3), "!restart"), objNames(0, 3)...), "!restart")
	want = append(want, objNames(0, 3)...)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}

	// ContinueInconsistent without a fresh token cannot go on.
	m = &memList{n: 10, fail: alwaysExpired}
	if _, err := mustNew(t, m.list, Options{PageSize: 3, OnExpired: ContinueInconsistent}).ListAll(t.Context()); !errors.Is(err, client.ErrExpired) {
		t.Errorf("ContinueInconsistent without a fresh token: %v", err)
	}
}

// TestContinueWithTheRealStatusToken answers the second page with
// kube-apiserver's 410 and checks that its fresh token is sent next.
func TestContinueWithTheRealStatusToken(t *testing.T) {
	fresh, expired := expiredFixture(t)
	var sent []string
	list := func(_ context.Context, o client.ListOptions) (*client.List[obj], error) {
		sent = append(sent, o.Continue)
		l := &client.List[obj]{Items: []obj{newObj(len(sent), "240")}}
		l.ResourceVersion = "240"
		switch len(sent) {
		case 1:
			l.Continue = "page-2"
		case 2:
			return nil, expired
		case 3:
			l.ResourceVersion = "260" // the rest is read at a newer version
		}
		return l, nil
	}
	p := mustNew(t, list, Options{OnExpired: ContinueInconsistent})
	var inconsistent []bool
	for pg, err := range p.Pages(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		inconsistent = append(inconsistent, pg.Inconsistent)
	}
	if diff := cmp.Diff([]string{"", "page-2", fresh}, sent); diff != "" {
		t.Errorf("continue tokens sent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, true}, inconsistent); diff != "" {
		t.Errorf("Page.Inconsistent (-want +got):\n%s", diff)
	}
	if s := p.Snapshot(); s.ResourceVersion != "240" || !s.Inconsistent {
		t.Errorf("Snapshot %+v", s)
	}
}

// errLostConnection is an error as the client returns it for a response
// that broke off midway.
var errLostConnection = fmt.Errorf("client: GET /api/v1/pods: reading the response: %w: %w", client.ErrConnectionLost, io.ErrUnexpectedEOF)

// Only what the client reports as a lost connection is asked for again:
// the decision is the client's (client.ErrConnectionLost), whatever the
// transport's error types.
func TestRetriesOnlyLostConnections(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"lost connection", errLostConnection, true},
		{"lost, any cause", fmt.Errorf("reading: %w", client.ErrConnectionLost), true},
		{"joined", errors.Join(errors.New("a"), errLostConnection), true},
		{"bare truncated body", io.ErrUnexpectedEOF, false},
		{"server status", statusError(503, metav1.StatusReasonServiceUnavailable, "busy", ""), false},
		{"too many requests", statusError(429, metav1.StatusReasonTooManyRequests, "slow down", ""), false},
		{"malformed", fmt.Errorf("decode: %w", client.ErrMalformed), false},
		{"other", errors.New("boom"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &memList{n: 10, fail: func(call int, _ client.ListOptions) error {
					if call == 1 {
						return tt.err
					}
					return nil
				}}
				_, err := collect(t.Context(), mustNew(t, m.list, Options{PageSize: 3}))
				if retried := len(m.requests()) == 5; retried != tt.want || (err == nil) != tt.want {
					t.Errorf("%d requests, error %v; want retried %v", len(m.requests()), err, tt.want)
				}
			})
		})
	}
}

func TestPageRetries(t *testing.T) {
	broken := errLostConnection
	tests := []struct {
		name      string
		retries   int
		failCalls int // calls after the first that break off
		wantErr   bool
		wantReqs  int
	}{
		{"recovers", 0, 2, false, 6},
		{"retries used up", 2, 3, true, 4},
		{"off", -1, 1, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := &memList{n: 10, fail: func(call int, _ client.ListOptions) error {
					if call >= 1 && call <= tt.failCalls {
						return broken
					}
					return nil
				}}
				start := time.Now()
				got, err := collect(t.Context(), mustNew(t, m.list, Options{PageSize: 3, PageRetries: tt.retries}))
				if (err != nil) != tt.wantErr || (err != nil && !errors.Is(err, client.ErrConnectionLost)) {
					t.Fatalf("error %v, want error %v", err, tt.wantErr)
				}
				if n := len(m.requests()); n != tt.wantReqs {
					t.Errorf("%d requests, want %d", n, tt.wantReqs)
				}
				if !tt.wantErr {
					if diff := cmp.Diff(objNames(0, 10), got); diff != "" {
						t.Errorf("items (-want +got):\n%s", diff)
					}
				}
				// Waits of 50-100ms then 100-200ms...
				if waited := time.Since(start); tt.failCalls > 0 && tt.retries >= 0 && waited < 50*time.Millisecond {
					t.Errorf("retried after %v: no backoff", waited)
				}
			})
		})
	}
}

func TestPageRetryStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		m := &memList{n: 10, fail: func(call int, _ client.ListOptions) error {
			if call == 1 {
				time.AfterFunc(10*time.Millisecond, cancel) // during the wait before the retry
				return errLostConnection
			}
			return nil
		}}
		_, err := collect(ctx, mustNew(t, m.list, Options{PageSize: 3, ReadAhead: ReadAheadOff}))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want canceled", err)
		}
		if n := len(m.requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})
}
