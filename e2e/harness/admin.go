//go:build unix

package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Do sends a request with the admin token and returns the status code and
// body. A non-nil body that is not []byte is encoded as JSON. Only
// transport errors are errors; check the status code.
func (c *Cluster) Do(ctx context.Context, method, path string, body any) (int, []byte, error) {
	hc, err := c.HTTPClient()
	if err != nil {
		return 0, nil, err
	}
	var r io.Reader
	if body != nil {
		b, ok := body.([]byte)
		if !ok {
			if b, err = json.Marshal(body); err != nil {
				return 0, nil, err
			}
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.AdminToken)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// create POSTs an object and accepts 201, or 409 when exists is true.
func (c *Cluster) create(ctx context.Context, path string, obj any, exists bool) error {
	code, b, err := c.Do(ctx, "POST", path, obj)
	if err != nil {
		return c.errorf("POST %s: %w", path, err)
	}
	if code == http.StatusCreated || (exists && code == http.StatusConflict) {
		return nil
	}
	return c.errorf("POST %s: status %d: %s", path, code, b)
}

// CreateNamespace creates a namespace and its "default" ServiceAccount. No
// kube-controller-manager runs, so nothing else creates that account, and
// without it the ServiceAccount admission plugin rejects every Pod. An
// existing namespace or account is not an error.
func (c *Cluster) CreateNamespace(ctx context.Context, name string) error {
	ns := map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}
	if err := c.create(ctx, "/api/v1/namespaces", ns, true); err != nil {
		return err
	}
	sa := map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}}
	return c.create(ctx, "/api/v1/namespaces/"+name+"/serviceaccounts", sa, true)
}

// CreateCRD creates a CustomResourceDefinition (any JSON-encodable value)
// and returns once it is Established and probe, a path under its
// resource, answers 200 (discovery and the handler can lag the
// condition). An existing definition is not an error.
func (c *Cluster) CreateCRD(ctx context.Context, crd any, probe string) error {
	b, err := json.Marshal(crd)
	if err != nil {
		return err
	}
	var meta struct{ Metadata struct{ Name string } }
	_ = json.Unmarshal(b, &meta)
	name := meta.Metadata.Name
	if err := c.create(ctx, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", b, true); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	last := ""
	for {
		code, body, err := c.Do(ctx, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, nil)
		if err == nil && code == http.StatusOK && established(body) {
			code, body, err = c.Do(ctx, "GET", probe, nil)
			if err == nil && code == http.StatusOK {
				return nil
			}
		}
		last = fmt.Sprintf("%d %s %v", code, body, err)
		select {
		case <-ctx.Done():
			return c.errorf("CustomResourceDefinition %s not served: %w; last answer: %s", name, ctx.Err(), last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func established(crd []byte) bool {
	var v struct {
		Status struct {
			Conditions []struct{ Type, Status string }
		}
	}
	_ = json.Unmarshal(crd, &v)
	for _, c := range v.Status.Conditions {
		if c.Type == "Established" && c.Status == "True" {
			return true
		}
	}
	return false
}
