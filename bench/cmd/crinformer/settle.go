package main

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

// A cluster that has run for more than a few minutes has compacted
// etcd's history (kube-apiserver compacts every 5 minutes) past the
// last write of a collection that is not being changed. kube-apiserver
// v1.36's watch cache then drops the snapshots it serves continue
// requests from (it keeps those above the compacted revision only), so
// the pages after a paginated list's first are read from etcd; an
// unpaged list and a streaming list are still served from the cache. A
// cluster the benchmark has just filled is in the other state: every
// page comes from the cache. -settle puts the cluster in the state a
// long-lived one is in before the rounds.

// cacheCompactorPoll is how often kube-apiserver's watch cache reads the
// compacted revision (compactorPollPeriod, 15 s in v1.36), with a
// margin: the wait after a compaction for the cache to see it.
const cacheCompactorPoll = 20 * time.Second

// compactRevKey is the etcd key where kube-apiserver records the revision
// it compacted to, and watches to learn of compactions.
const compactRevKey = "compact_rev_key"

// settle does what a live cluster does within minutes: an object of
// another kind is written (leases, events and the like move etcd's
// revision on), etcd's history is compacted up to it and the compaction
// recorded where kube-apiserver looks for it; then it waits for the
// watch cache to see it. It uses etcd's JSON gateway.
func (s *server) settle(ctx context.Context, log io.Writer) error {
	if s.cluster == nil || s.cluster.info.EtcdURL == "" {
		return errors.New("-settle needs -server kube-apiserver")
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "crinformer-settle-", Namespace: "default"}}
	if _, err := client.For[*corev1.ConfigMap](s.local).Create(ctx, cm, client.CreateOptions{}); err != nil {
		return fmt.Errorf("settle: writing a ConfigMap: %w", err)
	}
	etcd := s.cluster.info.EtcdURL
	var put struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	if err := etcdPost(ctx, etcd, "/v3/kv/put", map[string]any{"key": b64("/crinformer/settle"), "value": b64("1")}, &put); err != nil {
		return err
	}
	rev := put.Header.Revision
	if err := etcdPost(ctx, etcd, "/v3/kv/compaction", map[string]any{"revision": rev, "physical": true}, &struct{}{}); err != nil {
		return err
	}
	if err := etcdPost(ctx, etcd, "/v3/kv/put", map[string]any{"key": b64(compactRevKey), "value": b64(rev)}, &struct{}{}); err != nil {
		return err
	}
	fmt.Fprintf(log, "settle: etcd compacted at revision %s; waiting %v for the watch cache to see it\n", rev, cacheCompactorPoll)
	select {
	case <-time.After(cacheCompactorPoll):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func etcdPost(ctx context.Context, etcdURL, path string, body, out any) error {
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
