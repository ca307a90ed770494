// Package etcdsettle puts a freshly filled kube-apiserver in the state a
// cluster that has run for minutes is in: etcd's history compacted past
// the last write of the collections the benchmark filled.
//
// kube-apiserver compacts etcd every 5 minutes. Its v1.36 watch cache
// keeps the snapshots it serves a paginated list's continue requests
// from only above the compacted revision it last read, so on a live
// cluster the pages after a list's first are read from etcd for any
// collection not written since; an unpaged list and a streaming list are
// still served from the cache. A cluster a benchmark has just filled is
// in the other state (every page from the cache) until Settle.
package etcdsettle

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
)

// CacheCompactorPoll is how often kube-apiserver's watch cache reads the
// compacted revision (compactorPollPeriod, 15 s in v1.36), with a
// margin: the wait after a compaction for the cache to see it.
const CacheCompactorPoll = 20 * time.Second

// compactRevKey is the etcd key where kube-apiserver records the revision
// it compacted to, and watches to learn of compactions.
const compactRevKey = "compact_rev_key"

// Settle does what a live cluster does within minutes: an object of
// another kind (a ConfigMap named prefix-...) is written through c, as
// leases and events move etcd's revision on; etcd's history is compacted
// up to a later write and the compaction recorded where kube-apiserver
// looks for it; then it waits for the watch cache to see it. etcdURL is
// etcd's client URL (its JSON gateway is used).
func Settle(ctx context.Context, c *client.Client, etcdURL, prefix string, log io.Writer) error {
	if etcdURL == "" {
		return errors.New("settle: no etcd URL (needs a kube-apiserver run by e2e's cmd/cluster)")
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-settle-", Namespace: "default"}}
	if _, err := client.For[*corev1.ConfigMap](c).Create(ctx, cm, client.CreateOptions{}); err != nil {
		return fmt.Errorf("settle: writing a ConfigMap: %w", err)
	}
	var put struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	if err := post(ctx, etcdURL, "/v3/kv/put", map[string]any{"key": b64("/" + prefix + "/settle"), "value": b64("1")}, &put); err != nil {
		return err
	}
	rev := put.Header.Revision
	if err := post(ctx, etcdURL, "/v3/kv/compaction", map[string]any{"revision": rev, "physical": true}, &struct{}{}); err != nil {
		return err
	}
	if err := post(ctx, etcdURL, "/v3/kv/put", map[string]any{"key": b64(compactRevKey), "value": b64(rev)}, &struct{}{}); err != nil {
		return err
	}
	fmt.Fprintf(log, "settle: etcd compacted at revision %s; waiting %v for the watch cache to see it\n", rev, CacheCompactorPoll)
	select {
	case <-time.After(CacheCompactorPoll):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func post(ctx context.Context, etcdURL, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, etcdURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("settle: etcd %s: %w", path, err)
	}
	defer resp.Body.Close()
	rb, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("settle: etcd %s: %s %s %v", path, resp.Status, rb, err)
	}
	return json.Unmarshal(rb, out)
}
