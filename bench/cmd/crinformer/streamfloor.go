package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// initialEventsEnd is the annotation of the bookmark that ends a
// streaming list's initial events, in JSON and CBOR alike.
var initialEventsEnd = []byte("k8s.io/initial-events-end")

// streamFloor is the watch-list counterpart of transferFloor: one
// streaming list (sendInitialEvents) of the whole collection through
// front, read without decoding until the bookmark that ends the initial
// events; the median of three. It is what kube-apiserver takes to stream
// the collection as events, whoever reads it, so a watch-list sync
// cannot be faster (the transfer floor is one list answer, encoded in
// one piece).
func (s *server) streamFloor(ctx context.Context, accept string) (time.Duration, error) {
	k := s.gvr
	path := "/apis/" + k.Group + "/" + k.Version + "/" + k.Resource +
		"?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"
	var times []time.Duration
	for range 3 {
		d, err := s.streamOnce(ctx, path, accept)
		if err != nil {
			return 0, err
		}
		times = append(times, d)
	}
	slices.Sort(times)
	return times[1], nil
}

func (s *server) streamOnce(ctx context.Context, path, accept string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	start := time.Now()
	resp, err := s.rawGet(ctx, path, accept)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("stream floor: GET %s: %s", path, resp.Status)
	}
	// Look for the end bookmark's annotation, across reads.
	buf := make([]byte, 0, 256<<10)
	for {
		keep := max(len(buf)-len(initialEventsEnd), 0)
		buf = append(buf[:0], buf[keep:]...)
		n, err := resp.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if bytes.Contains(buf, initialEventsEnd) {
			return time.Since(start), nil
		}
		if err == io.EOF {
			return 0, fmt.Errorf("stream floor: GET %s ended before the initial-events-end bookmark", path)
		}
		if err != nil {
			return 0, err
		}
	}
}
