package client

import (
	"context"
	"io"
	"net/url"
	"strconv"
	"time"
)

// LogOptions selects what Resource.Logs reads of a container's log
// (kube-apiserver's PodLogOptions). The zero value reads the whole log
// of a Pod's only container and ends at its current end.
type LogOptions struct {
	// Container names the container; needed when the Pod has several.
	Container string
	// Follow keeps the stream open for lines written later, until ctx
	// ends, the stream is closed or the container stops.
	Follow bool
	// Previous reads the last terminated instance of the container.
	Previous bool
	// SinceSeconds (at least 1) or SinceTime, not both, start the log at
	// that age; TailLines (0 or more) keeps only its last lines;
	// LimitBytes (at least 1) ends it after that many bytes.
	SinceSeconds *int64
	SinceTime    *time.Time
	TailLines    *int64
	LimitBytes   *int64
	// Timestamps prefixes every line with its RFC 3339 time.
	Timestamps bool
	// InsecureSkipTLSVerifyBackend lets kube-apiserver read the log from
	// a kubelet whose serving certificate it cannot verify.
	InsecureSkipTLSVerifyBackend bool
}

func (o LogOptions) query() (url.Values, error) {
	q := url.Values{}
	if o.Container != "" {
		q.Set("container", o.Container)
	}
	for name, set := range map[string]bool{"follow": o.Follow, "previous": o.Previous, "timestamps": o.Timestamps, "insecureSkipTLSVerifyBackend": o.InsecureSkipTLSVerifyBackend} {
		if set {
			q.Set(name, "true")
		}
	}
	if o.SinceSeconds != nil && o.SinceTime != nil {
		return nil, invalidOptions("logs: set SinceSeconds or SinceTime, not both")
	}
	for _, n := range []struct {
		name string
		v    *int64
		min  int64
	}{{"sinceSeconds", o.SinceSeconds, 1}, {"tailLines", o.TailLines, 0}, {"limitBytes", o.LimitBytes, 1}} {
		if n.v == nil {
			continue
		}
		if *n.v < n.min {
			return nil, invalidOptions("logs: %s %d: must be at least %d", n.name, *n.v, n.min)
		}
		q.Set(n.name, strconv.FormatInt(*n.v, 10))
	}
	if o.SinceTime != nil {
		q.Set("sinceTime", o.SinceTime.UTC().Format(time.RFC3339))
	}
	return q, nil
}

// Logs opens the log of a container of Pod name (the pods/log
// subresource) and returns it as it arrives: read it, then close it. It
// is the log's raw bytes, lines as the container wrote them. r must be
// the Pods resource (client.For[*corev1.Pod], with a namespace), not a
// subresource of it.
//
//	logs, err := pods.Logs(ctx, "web-0", client.LogOptions{Container: "app", TailLines: new(int64(100))})
//	if err != nil {
//		return err
//	}
//	defer logs.Close()
//	_, err = io.Copy(os.Stdout, logs)
//
// A Pod or container that does not exist is ErrNotFound or ErrBadRequest
// (the server's answer, before any byte of the log); a stream that
// breaks ends the read with an error, and ctx ending ends it with ctx's
// cause. Like Watch, it is sent once, without retries: a followed log
// read again from the start would repeat lines.
func (r *Resource[T]) Logs(ctx context.Context, name string, opts LogOptions) (io.ReadCloser, error) {
	if g := r.info.gvr; g.Group != "" || g.Version != "v1" || g.Resource != "pods" || r.subresource != "" {
		return nil, invalidOptions("logs: %s has no log: use the Pods resource (client.For[*corev1.Pod])", r)
	}
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	p, err := r.Subresource("log").objectPath(r.namespace, name)
	if err != nil {
		return nil, err
	}
	// A log is text/plain; an error answer is a Status, in JSON.
	resp, err := r.c.stream(ctx, &request{method: "GET", path: p, query: q, accept: "text/plain, application/json;q=0.9, */*;q=0.8"})
	if err != nil {
		return nil, err
	}
	return ctxBody{ctx: ctx, body: resp.Body}, nil
}
