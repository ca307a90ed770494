package pager

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// mustNew is New for options the test knows are valid.
func mustNew[T client.Object](t testing.TB, list ListFunc[T], opts Options) *Pager[T] {
	t.Helper()
	p, err := New(list, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// obj is a small object: what a metadata-only list returns.
type obj = *metav1.PartialObjectMetadata

// memList serves a collection of n generated objects page by page, the
// way kube-apiserver does (limit, continue, remainingItemCount,
// resourceVersion "0" ignoring the limit), without holding the
// collection: each page is made when asked for, so a list of any size
// costs only what the pager keeps.
type memList struct {
	n       int
	rv      string // the snapshot's resourceVersion; default "100"
	noCount bool   // send no remainingItemCount, as with selectors
	// fail, when set, is called before a request is served; an error it
	// returns is the answer.
	fail func(call int, opts client.ListOptions) error
	// quiet counts requests without keeping their options, so that the
	// test's memory does not grow with the list.
	quiet bool
	// hinted answers as client.Resource.List does: it calls
	// opts.BeforeDecode with the continue token (hint, when set, says
	// which) before it "decodes"; serve and decode are how long the
	// server's answer and the decode take (for synctest's clock).
	hinted        bool
	hint          func(call int, token string) string
	serve, decode time.Duration

	mu          sync.Mutex
	count       int // requests so far
	calls       []client.ListOptions
	decoding    int // answers being decoded now
	maxDecoding int // the most decoded at once
	canceled    int // requests whose context ended before their decode
}

func objName(i int) string { return fmt.Sprintf("obj-%06d", i) }

func newObj(i int, rv string) obj {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: objName(i), Namespace: "ns", ResourceVersion: rv}}
}

func (m *memList) list(ctx context.Context, opts client.ListOptions) (*client.List[obj], error) {
	m.mu.Lock()
	call := m.count
	m.count++
	if !m.quiet {
		rec := opts
		rec.BeforeDecode = nil // a function: compared by whether it was set, in tests that care
		m.calls = append(m.calls, rec)
	}
	m.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if m.fail != nil {
		if err := m.fail(call, opts); err != nil {
			return nil, err
		}
	}
	rv := m.rv
	if rv == "" {
		rv = "100"
	}
	start := 0
	if opts.Continue != "" {
		s, ok := strings.CutPrefix(opts.Continue, "at:")
		n, err := strconv.Atoi(s)
		if !ok || err != nil || n < 0 || n > m.n {
			return nil, statusError(http.StatusBadRequest, metav1.StatusReasonBadRequest, "invalid continue token", "")
		}
		start = n
	}
	end := m.n
	if opts.Limit > 0 && opts.ResourceVersion != "0" {
		end = min(m.n, start+int(opts.Limit))
	}
	l := &client.List[obj]{Items: make([]obj, 0, end-start)}
	l.ResourceVersion = rv
	for i := start; i < end; i++ {
		l.Items = append(l.Items, newObj(i, rv))
	}
	if end < m.n {
		l.Continue = "at:" + strconv.Itoa(end)
		if !m.noCount {
			r := int64(m.n - end)
			l.RemainingItemCount = &r
		}
	}
	if m.hinted {
		return m.decodeHinted(ctx, call, opts, l)
	}
	return l, nil
}

// decodeHinted is the end of a hinted answer: the server's time, the
// hook, then the decode, counted.
func (m *memList) decodeHinted(ctx context.Context, call int, opts client.ListOptions, l *client.List[obj]) (*client.List[obj], error) {
	time.Sleep(m.serve)
	if opts.BeforeDecode != nil {
		hint := l.Continue
		if m.hint != nil {
			hint = m.hint(call, hint)
		}
		if err := opts.BeforeDecode(hint); err != nil {
			m.mu.Lock()
			m.canceled++
			m.mu.Unlock()
			return nil, err
		}
	}
	m.mu.Lock()
	m.decoding++
	m.maxDecoding = max(m.maxDecoding, m.decoding)
	m.mu.Unlock()
	time.Sleep(m.decode)
	m.mu.Lock()
	m.decoding--
	m.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return l, nil
}

// requests returns the options of every request so far.
func (m *memList) requests() []client.ListOptions {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]client.ListOptions(nil), m.calls...)
}

// statusError is an error as client.Resource.List returns for a Status.
func statusError(code int32, reason metav1.StatusReason, msg, cont string) error {
	return &client.StatusError{Status: metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		ListMeta: metav1.ListMeta{Continue: cont},
		Status:   "Failure", Message: msg, Reason: reason, Code: code,
	}}
}

// expiredFixture is kube-apiserver's 410 for an expired continue token
// and the fresh token its Status carries, read independently of codec.
func expiredFixture(t testing.TB) (fresh string, expired error) {
	t.Helper()
	r, err := fixture.Load("errors/expired-continue.json")
	if err != nil {
		t.Fatal(err)
	}
	var status struct {
		Metadata struct{ Continue string } `json:"metadata"`
	}
	if err := json.Unmarshal(r.Body, &status); err != nil || status.Metadata.Continue == "" {
		t.Fatalf("fixture: %v, token %q", err, status.Metadata.Continue)
	}
	return status.Metadata.Continue, codec.ErrorFromResponse(r.Status, r.ContentType(), r.Body)
}

// names lists the items' names.
func names[T client.Object](items []T) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.GetName())
	}
	return out
}

// objNames is objName(from) ... objName(to-1).
func objNames(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, objName(i))
	}
	return out
}

// collect ranges over Items, returning the names seen (a "!restart"
// entry for each ErrRestarted) and the error that ended the range.
func collect[T client.Object](ctx context.Context, p *Pager[T]) ([]string, error) {
	var got []string
	for it, err := range p.Items(ctx) {
		if err != nil {
			if isRestart(err) {
				got = append(got, "!restart")
				continue
			}
			return got, err
		}
		got = append(got, it.GetName())
	}
	return got, nil
}

func isRestart(err error) bool { return errors.Is(err, ErrRestarted) }

// The restart a range sees matches ErrRestarted and says once, in its own
// words, how far the list had got.
func TestRestartedErrorWords(t *testing.T) {
	err := restartedError(300)
	if !errors.Is(err, ErrRestarted) {
		t.Fatalf("%v does not match ErrRestarted", err)
	}
	msg := err.Error()
	if strings.Count(msg, "expired") != 1 || !strings.Contains(msg, "after 300 items") {
		t.Errorf("message %q: want the expiry named once, with the count", msg)
	}
}
