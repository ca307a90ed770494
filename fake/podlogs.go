package fake

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// LogRequest is one read of a container's log, as Options.Logs, the
// emulated kubelet, sees it.
type LogRequest struct {
	Namespace, Pod, Container string
	// Previous asks for the last terminated instance of the container.
	Previous bool
	// Follow asks for the lines written later too.
	Follow bool
}

// LogLine is one line of a container's log.
type LogLine struct {
	Time time.Time
	Text string // without its newline
}

// kubeletTimestamp is the time format a kubelet prefixes lines with.
const kubeletTimestamp = "2006-01-02T15:04:05.000000000Z07:00"

// serveLogs answers pods/log through Options.Logs, once the request got
// past kube-apiserver's checks, applying the options as a kubelet does:
// sinceSeconds or sinceTime, then tailLines, timestamps, limitBytes and
// follow.
func (s *Server) serveLogs(w http.ResponseWriter, req *http.Request, pod *corev1.Pod, container string) {
	q := req.URL.Query()
	lr := &LogRequest{Namespace: pod.Namespace, Pod: pod.Name, Container: container, Previous: isTrue(q.Get("previous")), Follow: isTrue(q.Get("follow"))}
	if msg := logUnavailable(pod, container, lr.Previous); msg != "" {
		request.WriteError(w, req, apierr.BadRequest(msg))
		return
	}
	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	past, later, err := s.opts.Logs(ctx, lr)
	if err != nil {
		// kube-apiserver passes a kubelet's 400 on as a BadRequest.
		request.WriteError(w, req, apierr.BadRequest(err.Error()))
		return
	}
	opts := parseLogQuery(q, s.now())
	if !opts.since.IsZero() {
		kept := past[:0:0]
		for _, l := range past {
			if !l.Time.Before(opts.since) {
				kept = append(kept, l)
			}
		}
		past = kept
	}
	if opts.tail >= 0 && int64(len(past)) > opts.tail {
		past = past[int64(len(past))-opts.tail:]
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	lw := &logWriter{w: w, left: opts.limit, timestamps: opts.timestamps}
	for _, l := range past {
		if !lw.line(l) {
			return
		}
	}
	if flusher != nil {
		flusher.Flush()
	}
	if !lr.Follow || later == nil {
		return
	}
	for {
		select {
		case l, ok := <-later:
			if !ok {
				return // the container stopped
			}
			if !lw.line(l) {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		case <-ctx.Done():
			return
		}
	}
}

// logQuery is what a kubelet takes from a log request's query (checked
// by logOptions before).
type logQuery struct {
	since      time.Time // zero: the whole log
	tail       int64     // -1: every line
	limit      int64     // -1: no limit
	timestamps bool
}

func parseLogQuery(q url.Values, now time.Time) logQuery {
	o := logQuery{tail: -1, limit: -1, timestamps: isTrue(q.Get("timestamps"))}
	if n, err := strconv.ParseInt(q.Get("sinceSeconds"), 10, 64); err == nil {
		o.since = now.Add(-time.Duration(n) * time.Second)
	}
	if t, err := time.Parse(time.RFC3339, q.Get("sinceTime")); err == nil {
		o.since = t
	}
	if n, err := strconv.ParseInt(q.Get("tailLines"), 10, 64); err == nil {
		o.tail = n
	}
	if n, err := strconv.ParseInt(q.Get("limitBytes"), 10, 64); err == nil {
		o.limit = n
	}
	return o
}

// logWriter writes log lines until limitBytes is reached.
type logWriter struct {
	w          http.ResponseWriter
	left       int64 // bytes still allowed, -1 without limit
	timestamps bool
}

// line writes one line; false ends the stream (limit reached, or the
// client gone).
func (lw *logWriter) line(l LogLine) bool {
	b := make([]byte, 0, len(l.Text)+40)
	if lw.timestamps {
		b = l.Time.UTC().AppendFormat(b, kubeletTimestamp)
		b = append(b, ' ')
	}
	b = append(b, l.Text...)
	b = append(b, '\n')
	if lw.left >= 0 && int64(len(b)) >= lw.left {
		_, _ = lw.w.Write(b[:lw.left])
		lw.left = 0
		return false
	}
	if lw.left >= 0 {
		lw.left -= int64(len(b))
	}
	_, err := lw.w.Write(b)
	return err == nil
}

// logUnavailable is the kubelet's error for a container whose status
// says it has no log to read, or "". A container without status is
// taken as running: the emulated kubelet runs what Options.Logs says.
func logUnavailable(pod *corev1.Pod, container string, previous bool) string {
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for _, st := range list {
			if st.Name == container {
				return containerLogStatus(st, pod.Name, previous)
			}
		}
	}
	if previous {
		return fmt.Sprintf("previous terminated container %q in pod %q not found", container, pod.Name)
	}
	return ""
}

// containerLogStatus is the kubelet's check of a container's status
// before it reads its log.
func containerLogStatus(st corev1.ContainerStatus, pod string, previous bool) string {
	last, state := st.LastTerminationState.Terminated, st.State
	switch {
	case previous:
		if last == nil || last.ContainerID == "" {
			return fmt.Sprintf("previous terminated container %q in pod %q not found", st.Name, pod)
		}
	case state.Running != nil:
	case state.Terminated != nil:
		if state.Terminated.ContainerID == "" && (last == nil || last.ContainerID == "") {
			return fmt.Sprintf("container %q in pod %q is terminated", st.Name, pod)
		}
	case last != nil:
		if last.ContainerID == "" {
			return fmt.Sprintf("container %q in pod %q is terminated", st.Name, pod)
		}
	case state.Waiting != nil:
		switch state.Waiting.Reason {
		case "ErrImagePull":
			return fmt.Sprintf("container %q in pod %q is waiting to start: image can't be pulled", st.Name, pod)
		case "ImagePullBackOff":
			return fmt.Sprintf("container %q in pod %q is waiting to start: trying and failing to pull image", st.Name, pod)
		}
		return fmt.Sprintf("container %q in pod %q is waiting to start: %s", st.Name, pod, state.Waiting.Reason)
	default:
		return fmt.Sprintf("container %q in pod %q is waiting to start - no logs yet", st.Name, pod)
	}
	return ""
}
