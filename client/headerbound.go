package client

import (
	"fmt"
	"strings"

	"github.com/kubewire/kubewire/codec"
)

// maxResponseHeaderBytes bounds the headers of an answer (HTTP/1.1
// Transport.MaxResponseHeaderBytes, HTTP/2 SETTINGS_MAX_HEADER_LIST_SIZE).
// kube-apiserver's headers are a few hundred bytes and its warnings at
// most 16 KiB; net/http's default of 10 MiB let a server whose headers
// never end cost 10 MiB a try.
const maxResponseHeaderBytes = 1 << 20

// headersTooLarge returns err matching codec.ErrTooLarge, which is
// final (not retried), when it is net/http's refusal of headers over
// the bound, and err as it is otherwise. net/http gives that refusal no
// type: its texts, in HTTP/1.1 and HTTP/2, are all there is.
func headersTooLarge(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if strings.Contains(msg, "server response headers exceeded") || strings.Contains(msg, "response header list larger than advertised limit") {
		return fmt.Errorf("the answer's headers are larger than %d bytes: %w (%w)", maxResponseHeaderBytes, codec.ErrTooLarge, err)
	}
	return err
}
