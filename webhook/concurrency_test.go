package webhook_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubewire/kubewire/webhook"
)

// With MaxConcurrentReviews reviews in progress, each a slow body still
// arriving, one more review is answered 429 with a Retry-After at once,
// without its body being read, and its connection is closed; the slow
// reviews then complete, and their slots serve the next review.
func TestConcurrentReviewsAreBounded(t *testing.T) {
	const limit = 2
	synctest.Test(t, func(t *testing.T) {
		hook := webhook.Admission("/validate", func(ctx context.Context, req *webhook.AdmissionRequest) *webhook.AdmissionResponse {
			return webhook.Allowed()
		})
		dial, _ := servePiped(t, webhook.Options{Logger: slog.New(slog.DiscardHandler), MaxConcurrentReviews: limit}, hook)
		body := review("CREATE", gadgetJSON, "")
		header := fmt.Sprintf("POST /validate HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))

		// limit slow reviews: headers and half the body.
		var slow []*tls.Conn
		for range limit {
			c := dial()
			defer c.Close()
			if _, err := io.WriteString(c, header+string(body[:len(body)/2])); err != nil {
				t.Fatal(err)
			}
			slow = append(slow, c)
		}
		synctest.Wait() // their handlers are reading the bodies

		start := time.Now()
		extra := dial()
		defer extra.Close()
		if _, err := io.WriteString(extra, header); err != nil { // no body, ever
			t.Fatal(err)
		}
		br := bufio.NewReader(extra)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("review over the bound answered %s after %v: %s, want 429 at once", resp.Status, time.Since(start), msg)
		}
		if ra := resp.Header.Get("Retry-After"); ra != "1" {
			t.Errorf("Retry-After = %q, want 1", ra)
		}
		if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
			t.Errorf("connection of the refused review: read %v, want EOF (closed)", err)
		}
		if took := time.Since(start); took != 0 {
			t.Errorf("refusing took %v, want no wait", took)
		}
		t.Logf("answered %s: %s", resp.Status, msg)

		for i, c := range slow {
			if _, err := c.Write(body[len(body)/2:]); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			if resp.StatusCode != http.StatusOK {
				t.Errorf("slow review %d answered %s, want 200", i, resp.Status)
			}
		}

		next := dial()
		defer next.Close()
		if _, err := io.WriteString(next, header+string(body)); err != nil {
			t.Fatal(err)
		}
		resp, err = http.ReadResponse(bufio.NewReader(next), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("review after the slow ones answered %s, want 200", resp.Status)
		}
	})
}

func TestMaxConcurrentReviewsOption(t *testing.T) {
	if _, err := webhook.NewServer(webhook.Options{MaxConcurrentReviews: -1}); !errors.Is(err, webhook.ErrInvalidOptions) {
		t.Errorf("MaxConcurrentReviews -1: err = %v, want ErrInvalidOptions", err)
	}
	if _, err := webhook.NewServer(webhook.Options{MaxConcurrentReviews: 1}); err != nil {
		t.Errorf("MaxConcurrentReviews 1: %v", err)
	}
}
