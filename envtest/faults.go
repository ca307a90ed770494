package envtest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// RestartAPIServer stops kube-apiserver (SIGTERM, as a rolling update
// would) and starts it again with the same flags, port, certificate and
// etcd, returning when /readyz answers ok. Open connections and watches
// end; stored objects and resource versions survive; clients built from
// Config keep working. kube-controller-manager, if running, reconnects by
// itself. Concurrent restarts run one after the other.
func (e *Env) RestartAPIServer(ctx context.Context) error {
	e.lifecycle.Lock()
	defer e.lifecycle.Unlock()
	e.mu.Lock()
	api := e.api
	e.mu.Unlock()
	if e.stopped || api == nil {
		return e.errorf("restart after Stop")
	}
	start := time.Now()
	err := api.stop(stopGrace)
	e.setProc(&e.api, nil)
	if err != nil {
		return e.errorf("%w", err)
	}
	if err := e.startAPIServer(ctx); err != nil {
		return err
	}
	fmt.Fprintf(e.log, "envtest %s: kube-apiserver restarted in %s\n", e.name, since(start))
	return nil
}

// Compact writes a key outside kube-apiserver's prefix and compacts
// etcd's history up to that write, so that every resource version seen
// so far is too old for a request served by etcd: continue tokens, Exact
// lists and watches from any earlier resource version answer 410 Expired.
// (Compacting at the current revision alone would not do: etcd keeps the
// compaction revision itself, so a watch from the newest resource version
// seen could still start.) It returns the compaction revision.
//
// kube-apiserver's watch cache (on by default) serves watches and many
// lists without etcd and does not see the compaction; for 410s on those,
// start the Env with APIServerFlags {"--watch-cache=false"}. It uses
// etcd's JSON gateway, so this package needs no etcd client.
func (e *Env) Compact(ctx context.Context) (revision int64, err error) {
	hc := &http.Client{Timeout: 30 * time.Second}
	defer hc.CloseIdleConnections()
	post := func(path string, body, out any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, "POST", e.etcdURL+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		rb, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("etcd %s: %d %s", path, resp.StatusCode, rb)
		}
		return json.Unmarshal(rb, out)
	}
	var put struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	// Keys and values are base64 in the gateway's JSON.
	key := base64.StdEncoding.EncodeToString([]byte("/kubewire-envtest/compact"))
	if err := post("/v3/kv/put", map[string]any{"key": key, "value": key}, &put); err != nil {
		return 0, e.errorf("compact: %w", err)
	}
	rev, err := strconv.ParseInt(put.Header.Revision, 10, 64)
	if err != nil {
		return 0, e.errorf("compact: etcd revision %q: %w", put.Header.Revision, err)
	}
	var out struct{}
	if err := post("/v3/kv/compaction", map[string]any{"revision": put.Header.Revision, "physical": true}, &out); err != nil {
		return 0, e.errorf("compact: %w", err)
	}
	return rev, nil
}
