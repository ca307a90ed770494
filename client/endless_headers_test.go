package client

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// endlessHeaders listens on a raw TCP socket and answers every request
// with a status line and then header lines without end, counting the
// requests.
func endlessHeaders(t *testing.T, requests *atomic.Int32) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer conn.Close()
				br := bufio.NewReader(conn)
				for {
					line, err := br.ReadString('\n')
					if err != nil {
						return
					}
					if line == "\r\n" {
						break
					}
				}
				requests.Add(1)
				line := []byte("X-Filler: " + strings.Repeat("a", 1000) + "\r\n")
				if _, err := conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")); err != nil {
					return
				}
				for {
					if _, err := conn.Write(line); err != nil {
						return // the client hung up
					}
				}
			})
		}
	})
	return "http://" + ln.Addr().String()
}

// An answer whose headers never end is refused after
// maxResponseHeaderBytes, at the first try: it is an answer the client
// refused (codec.ErrTooLarge), which the server would send again.
// Before, net/http's default of 10 MiB applied and the broken connection
// was retried as transient: 10 tries over 45 s, 134 MB sent and 109 MB
// allocated for one GET.
func TestEndlessHeadersAreRefusedOnce(t *testing.T) {
	var requests atomic.Int32
	c, err := New(Config{Host: endlessHeaders(t, &requests), QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	_, err = For[*corev1.Pod](c).Namespace("d").Get(context.Background(), "x", GetOptions{})
	if !errors.Is(err, codec.ErrTooLarge) || !strings.Contains(err.Error(), "1048576") {
		t.Errorf("err = %v, want codec.ErrTooLarge naming the 1048576-byte bound", err)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d tries, want 1", n)
	}
}
