package pager

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"testing"
	"testing/synctest"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// scripted is a server whose answers a fuzzer writes: three bytes per
// request (what to answer, how many items, a detail). After maxCalls
// requests, or when the script runs out, it answers a last page.
type scripted struct {
	script []byte
	calls  int
}

const maxCalls = 200

func (s *scripted) list(_ context.Context, _ client.ListOptions) (*client.List[obj], error) {
	i := s.calls * 3
	s.calls++
	last := &client.List[obj]{Items: []obj{}}
	if i+3 > len(s.script) || s.calls > maxCalls {
		return last, nil
	}
	op, count, aux := s.script[i], int(s.script[i+1]%7), s.script[i+2]
	switch op % 6 {
	case 0, 1: // a page; op 0 with a continue token
		l := &client.List[obj]{}
		for j := range count {
			l.Items = append(l.Items, newObj(s.calls*10+j, "1"))
		}
		l.ResourceVersion = fmt.Sprint(aux % 3)
		if op%6 == 0 {
			l.Continue = fmt.Sprint("t", aux%4)
		}
		if aux&1 == 0 {
			r := (int64(aux) - 128) * (math.MaxInt64 / 128) // anything from very negative to very large
			l.RemainingItemCount = &r
		}
		return l, nil
	case 2: // an expired token, with a fresh one or not
		fresh := ""
		if aux&1 == 0 {
			fresh = fmt.Sprint("f", aux%3)
		}
		return nil, statusError(http.StatusGone, metav1.StatusReasonExpired, "too old", fresh)
	case 3:
		return nil, statusError(http.StatusInternalServerError, metav1.StatusReasonInternalError, "etcd", "")
	case 4:
		return nil, errLostConnection
	}
	return nil, nil
}

// FuzzPager runs lists against a server answering anything in any order:
// the pager must not panic or hang, and what it reports must add up.
func FuzzPager(f *testing.F) {
	f.Add([]byte{0, 3, 0, 0, 3, 1, 1, 2, 0}, uint8(0), int8(1))
	f.Add([]byte{0, 3, 0, 2, 0, 0, 0, 3, 0, 1, 1, 0}, uint8(1), int8(0))
	f.Add([]byte{0, 3, 0, 2, 0, 2, 0, 3, 1, 1, 1, 0}, uint8(2), int8(3))
	f.Add([]byte{0, 3, 0, 4, 0, 0, 4, 0, 0, 0, 2, 4, 5, 0, 0}, uint8(3), int8(-1))
	f.Add([]byte{0, 6, 254, 0, 6, 255, 1, 6, 0}, uint8(0), int8(2))
	f.Fuzz(func(t *testing.T, script []byte, policy uint8, readAhead int8) {
		opts := Options{OnExpired: ExpiredPolicy(policy % 4), ReadAhead: int(readAhead % 5), Progress: func(pr Progress) {
			if pr.Total < -1 || (pr.Total >= 0 && pr.Total < pr.Items) {
				t.Errorf("progress %+v", pr)
			}
		}}
		synctest.Test(t, func(t *testing.T) {
			s := &scripted{script: script}
			p := mustNew(t, s.list, opts)
			items := 0
			var err error
			for _, ierr := range p.Items(t.Context()) {
				if ierr != nil && isRestart(ierr) {
					items = 0
					continue
				}
				if err = ierr; err != nil {
					break
				}
				items++
			}
			snap := p.Snapshot()
			if err == nil && (!snap.Complete || snap.Items != items) {
				t.Errorf("list ended without error: %d items seen, Snapshot %+v", items, snap)
			}
			if s.calls > maxCalls+1+defaultPageRetries {
				t.Errorf("%d requests for a script of %d", s.calls, len(script)/3)
			}

			s = &scripted{script: script}
			p = mustNew(t, s.list, opts)
			all, err := p.ListAll(t.Context())
			if err == nil && len(all.Items) != p.Snapshot().Items {
				t.Errorf("ListAll: %d items, Snapshot %+v", len(all.Items), p.Snapshot())
			}
		})
	})
}
